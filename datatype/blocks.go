package datatype

// Blocks calls fn for each contiguous run of data bytes of count elements
// of t, in typemap order, as (offset from the buffer, length); adjacent runs
// are merged. fn returning false stops the walk. One-sided operations use
// it to reach a target's memory run by run (single-copy iovecs, element-wise
// accumulates), where packing through a local buffer is not possible.
func (t *Type) Blocks(count int, fn func(off, n int64) bool) bool {
	if count <= 0 || t.Size == 0 {
		return true
	}
	if t.Contig {
		return fn(0, int64(count)*int64(t.Size))
	}
	b := blockWalk{fn: fn, off: -1}
	l := t.layout()
	var ok bool
	if count == 1 {
		ok = b.walk(0, l)
	} else {
		ok = b.walk(0, []node{{Count: int64(count), Stride: int64(t.Extent), Kids: l, Size: int64(t.Size)}})
	}
	return ok && b.flush()
}

type blockWalk struct {
	fn     func(off, n int64) bool
	off, n int64 // the run being merged; off < 0: none
}

func (b *blockWalk) add(off, n int64) bool {
	if n == 0 {
		return true
	}
	if b.off >= 0 && b.off+b.n == off {
		b.n += n
		return true
	}
	if !b.flush() {
		return false
	}
	b.off, b.n = off, n
	return true
}

func (b *blockWalk) flush() bool {
	if b.off < 0 {
		return true
	}
	off, n := b.off, b.n
	b.off, b.n = -1, 0
	return b.fn(off, n)
}

func (b *blockWalk) walk(off int64, nodes []node) bool {
	for i := range nodes {
		n := &nodes[i]
		o := off + n.Off
		for k := int64(0); k < n.Count; k++ {
			if n.leaf() {
				if !b.add(o, n.Len) {
					return false
				}
			} else if !b.walk(o, n.Kids) {
				return false
			}
			o += n.Stride
		}
	}
	return true
}

// Block is one contiguous run of data bytes of a type, Off bytes from the
// type's origin.
type Block struct{ Off, Len int64 }

// BlockList lists the runs of one element of t (Blocks with count 1). File
// views use it to map a filetype onto file offsets.
func (t *Type) BlockList() []Block {
	var out []Block
	t.Blocks(1, func(off, n int64) bool {
		out = append(out, Block{off, n})
		return true
	})
	return out
}
