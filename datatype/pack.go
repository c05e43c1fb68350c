package datatype

import (
	"unsafe"

	"gompi/mem"
)

// Commit compiles t for communication: the typed layout is recompiled with
// runs merged regardless of their element types, and a type whose data is
// one run at offset 0 repeating every Size bytes is flagged Contig, so it
// takes exactly the predefined types' path. Committing twice is harmless.
func (t *Type) Commit() {
	if t.Committed {
		return
	}
	t.fast = untyped(t.typed)
	t.Contig = t.Size == t.Extent && (t.Size == 0 || len(t.fast) == 1 && t.fast[0].leaf() &&
		t.fast[0].Off == 0 && t.fast[0].Count == 1)
	t.Committed = true
}

// Runs reports how many nodes the committed layout has (for tests and
// diagnostics: a vector is one node, whatever its count).
func (t *Type) Runs() int { return len(t.fast) }

// copier moves bytes between a packed stream and typed memory. skip is how
// much of the stream to pass over before copying starts.
type copier struct {
	buf  []byte
	pos  int
	skip int64
	pack bool
}

// run copies one contiguous run; false when the packed buffer is full.
func (c *copier) run(p unsafe.Pointer, l int64) bool {
	if c.skip > 0 {
		if c.skip >= l {
			c.skip -= l
			return true
		}
		p = unsafe.Add(p, c.skip)
		l -= c.skip
		c.skip = 0
	}
	room := int64(len(c.buf) - c.pos)
	n := min(l, room)
	m := unsafe.Slice((*byte)(p), n)
	if c.pack {
		mem.Bytes(c.buf[c.pos:], m)
	} else {
		mem.Bytes(m, c.buf[c.pos:c.pos+int(n)])
	}
	c.pos += int(n)
	return l < room
}

// Addresses are formed only for bytes that hold data: a copy's origin may
// lie outside the user's buffer (negative displacements, MPI_BOTTOM), so
// the walk carries the buffer pointer and an offset, and adds them last.

// walk copies the runs of nodes placed at base+off, in typemap order.
func (c *copier) walk(base unsafe.Pointer, off int64, nodes []node) bool {
	for i := range nodes {
		n := &nodes[i]
		first := int64(0)
		if c.skip > 0 {
			total := n.Size * n.Count
			if c.skip >= total {
				c.skip -= total
				continue
			}
			first = c.skip / n.Size
			c.skip -= first * n.Size
		}
		o := off + n.Off + first*n.Stride
		if n.leaf() {
			if c.skip == 0 { // whole runs: a straight loop
				if !c.runs(base, o, n.Len, n.Stride, n.Count-first) {
					return false
				}
				continue
			}
			for k := first; k < n.Count; k++ {
				if !c.run(unsafe.Add(base, o), n.Len) {
					return false
				}
				o += n.Stride
			}
			continue
		}
		if c.skip == 0 && flatKids(n.Kids) {
			// Arrays of small structs: copy whole elements in one loop.
			whole := min(n.Count-first, int64(len(c.buf)-c.pos)/n.Size)
			c.flat(base, o, n.Kids, n.Stride, whole)
			o += whole * n.Stride
			first += whole
		}
		for k := first; k < n.Count; k++ {
			if !c.walk(base, o, n.Kids) {
				return false
			}
			o += n.Stride
		}
	}
	return true
}

// flatKids reports whether kids are single runs (one level, no repetition).
func flatKids(kids []node) bool {
	for i := range kids {
		if !kids[i].leaf() || kids[i].Count != 1 {
			return false
		}
	}
	return true
}

// flat copies count whole copies of the single runs kids, stride apart; the
// caller made sure they fit.
func (c *copier) flat(base unsafe.Pointer, off int64, kids []node, stride, count int64) {
	buf := c.buf[c.pos:]
	pos := 0
	for k := int64(0); k < count; k++ {
		o := off + k*stride
		for i := range kids {
			q := unsafe.Add(base, o+kids[i].Off)
			l := int(kids[i].Len)
			switch {
			case l == 8 && c.pack:
				*(*[8]byte)(buf[pos:]) = *(*[8]byte)(q)
			case l == 8:
				*(*[8]byte)(q) = *(*[8]byte)(buf[pos:])
			case l == 4 && c.pack:
				*(*[4]byte)(buf[pos:]) = *(*[4]byte)(q)
			case l == 4:
				*(*[4]byte)(q) = *(*[4]byte)(buf[pos:])
			case c.pack:
				copy(buf[pos:pos+l], unsafe.Slice((*byte)(q), l))
			default:
				copy(unsafe.Slice((*byte)(q), l), buf[pos:pos+l])
			}
			pos += l
		}
	}
	c.pos += pos
}

// runs copies count runs of l bytes at base+off, stride apart, with no skip
// pending.
func (c *copier) runs(base unsafe.Pointer, off, l, stride, count int64) bool {
	whole := min(count, int64(len(c.buf)-c.pos)/max(l, 1))
	buf := c.buf[c.pos:]
	at := func(k int64) unsafe.Pointer { return unsafe.Add(base, off+k*stride) }
	switch {
	case c.pack && l == 8:
		for k := int64(0); k < whole; k++ {
			*(*[8]byte)(buf[k*8:]) = *(*[8]byte)(at(k))
		}
	case c.pack && l == 4:
		for k := int64(0); k < whole; k++ {
			*(*[4]byte)(buf[k*4:]) = *(*[4]byte)(at(k))
		}
	case !c.pack && l == 8:
		for k := int64(0); k < whole; k++ {
			*(*[8]byte)(at(k)) = *(*[8]byte)(buf[k*8:])
		}
	case !c.pack && l == 4:
		for k := int64(0); k < whole; k++ {
			*(*[4]byte)(at(k)) = *(*[4]byte)(buf[k*4:])
		}
	case c.pack:
		for k := int64(0); k < whole; k++ {
			copy(buf[k*l:(k+1)*l], unsafe.Slice((*byte)(at(k)), l))
		}
	default:
		for k := int64(0); k < whole; k++ {
			copy(unsafe.Slice((*byte)(at(k)), l), buf[k*l:(k+1)*l])
		}
	}
	c.pos += int(whole * l)
	if whole == count {
		return c.pos < len(c.buf)
	}
	c.run(at(whole), l) // the partial run that fills the buffer
	return false
}

func (t *Type) layout() []node {
	if t.Committed {
		return t.fast
	}
	return untyped(t.typed)
}

// Pack copies the packed form of count elements at src into dst, starting
// skip bytes into the packed stream, and returns the bytes written: all of
// count*Size-skip, or less when dst is shorter (a partial pack, as the
// fragments of a pipelined send need).
func (t *Type) Pack(dst []byte, src unsafe.Pointer, count int, skip int64) int {
	return t.move(dst, src, count, skip, true)
}

// Unpack copies packed bytes from src into count elements at dst, starting
// skip bytes into the packed stream, and returns the bytes consumed: all of
// src up to count*Size-skip (a receive of fewer bytes fills a prefix of the
// typemap, as the standard asks).
func (t *Type) Unpack(dst unsafe.Pointer, count int, src []byte, skip int64) int {
	return t.move(src, dst, count, skip, false)
}

func (t *Type) move(buf []byte, base unsafe.Pointer, count int, skip int64, pack bool) int {
	total := int64(count) * int64(t.Size)
	if skip >= total || len(buf) == 0 {
		return 0
	}
	if int64(len(buf)) > total-skip {
		buf = buf[:total-skip]
	}
	if t.Contig {
		m := unsafe.Slice((*byte)(unsafe.Add(base, skip)), len(buf))
		if pack {
			return mem.Bytes(buf, m)
		}
		return mem.Bytes(m, buf)
	}
	c := copier{buf: buf, skip: skip, pack: pack}
	l := t.layout()
	if count == 1 {
		c.walk(base, 0, l)
	} else {
		c.walk(base, 0, []node{{Count: int64(count), Stride: int64(t.Extent), Kids: l, Size: int64(t.Size)}})
	}
	return c.pos
}

// PackSize is the bytes Pack produces for count elements.
func (t *Type) PackSize(count int) int { return count * t.Size }
