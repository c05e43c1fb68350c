package coll

import "unsafe"

// Reduce_scatter algorithms.
const (
	ReduceScatterReduceScatterv = "reduce_scatterv" // order-preserving
	ReduceScatterRing           = "ring"            // commutative
	ReduceScatterLinear         = "linear"          // one round, reduced in rank order
)

// ReduceScatter reduces Sbuf (sum(counts) elements) across ranks and leaves
// block me (counts[me] elements) in Rbuf. Sbuf == nil means in place: the
// input is in Rbuf, which holds every block.
func ReduceScatter(size, me int, d Data, counts []int, alg string) *Schedule {
	total := 0
	off := make([]int, size+1)
	for i, c := range counts {
		total += c
		off[i+1] = off[i] + c*d.Ext
	}
	b := newBuilder(d.Fn)
	if total == 0 {
		return b.done()
	}
	in := d.Sbuf
	if in == nil {
		in = d.Rbuf
	}
	if (!d.Commute && alg == ReduceScatterRing) || size == 1 {
		alg = ReduceScatterReduceScatterv
	}
	switch alg {
	case ReduceScatterRing:
		// Partial sums travel in scratch; the input is read in place, so
		// nothing is copied but the final block.
		tmp := b.scratch(total * d.Ext)
		next, prev := (me+1)%size, (me-1+size)%size
		blk := func(i int) int { return ((i % size) + size) % size }
		for s := 0; s < size-1; s++ {
			sb, rb := blk(me-s-1), blk(me-s-2)
			src := tmp
			if s == 0 {
				src = in
			}
			b.send(next, piece(src, off[sb], counts[sb]), off[sb+1]-off[sb])
			b.recv(prev, piece(tmp, off[rb], counts[rb]), off[rb+1]-off[rb])
			b.reduce(piece(in, off[rb], counts[rb]), piece(tmp, off[rb], counts[rb]), counts[rb])
			b.round()
		}
		b.copy(d.Rbuf, piece(tmp, off[me], counts[me]), counts[me]*d.Ext)
	case ReduceScatterLinear:
		// every rank sends block q to rank q at once; x0 op (x1 op ...) is
		// folded from the top rank down, so any op keeps its order
		k := counts[me] * d.Ext
		tmp := b.scratch(size * k)
		b.copy(piece(tmp, me*k, k), piece(in, off[me], k), k)
		for q := 0; q < size; q++ {
			if q != me {
				b.recv(q, add(tmp, q*k), k)
				b.send(q, piece(in, off[q], counts[q]), off[q+1]-off[q])
			}
		}
		b.copy(d.Rbuf, add(tmp, (size-1)*k), k)
		for q := size - 2; q >= 0; q-- {
			b.reduce(add(tmp, q*k), d.Rbuf, counts[me])
		}
	default:
		dd := d
		dd.Sbuf, dd.Count = in, total
		var full unsafe.Pointer
		if me == 0 {
			full = b.scratch(total * d.Ext)
		}
		dd.Rbuf = full
		reduceBinomial(b, size, me, 0, dd)
		b.round()
		bc := make([]int, size)
		for i := range bc {
			bc[i] = off[i+1] - off[i]
		}
		scatterLinear(b, size, me, 0, Blocks{Buf: full, Count: bc, Displ: off[:size]}, d.Rbuf, bc[me])
	}
	return b.done()
}

func scatterLinear(b *builder, size, me, root int, sb Blocks, rbuf unsafe.Pointer, n int) {
	if me != root {
		b.recv(root, rbuf, n)
		return
	}
	for r := 0; r < size; r++ {
		if r != root {
			p, k := sb.At(r)
			b.send(r, p, k)
		}
	}
	p, _ := sb.At(root)
	b.copy(rbuf, p, n)
}
