package coll

import "unsafe"

// Gather and scatter algorithms.
const (
	GatherLinear   = "linear"
	GatherBinomial = "binomial" // regular gather/scatter only
)

// Blocks lays out one block per rank of a root's buffer: byte counts and
// byte displacements (the v-variants' arrays times the type size).
type Blocks struct {
	Buf   unsafe.Pointer
	Count []int
	Displ []int
}

// At is block r: its address (nil when empty) and byte count.
func (bl Blocks) At(r int) (unsafe.Pointer, int) {
	return piece(bl.Buf, bl.Displ[r], bl.Count[r]), bl.Count[r]
}

// Regular returns the layout of size blocks of n bytes each.
func Regular(buf unsafe.Pointer, size, n int) Blocks {
	bl := Blocks{Buf: buf, Count: make([]int, size), Displ: make([]int, size)}
	for i := range bl.Count {
		bl.Count[i], bl.Displ[i] = n, i*n
	}
	return bl
}

// Gather builds a gather of n bytes from sbuf on every rank into the root's
// blocks (rb is only read at the root; sbuf == nil at the root means in
// place). The binomial tree needs Regular blocks (MPI_Gather, not Gatherv).
func Gather(size, me, root int, sbuf unsafe.Pointer, n int, rb Blocks, alg string) *Schedule {
	b := newBuilder(nil)
	if alg == GatherBinomial && size > 2 {
		tmp := gatherBinomial(b, size, me, root, sbuf, n)
		if me == root {
			for v := 0; v < size; v++ {
				if v == 0 && sbuf == nil {
					continue // in place: the root's block is already there
				}
				p, _ := rb.At(abs(v, root, size))
				b.copy(p, add(tmp, v*n), n)
			}
		}
		return b.done()
	}
	if me != root {
		b.send(root, sbuf, n)
		return b.done()
	}
	for r := 0; r < size; r++ {
		if r != root {
			p, k := rb.At(r)
			b.recv(r, p, k)
		}
	}
	if sbuf != nil {
		p, _ := rb.At(root)
		b.copyEarly(p, sbuf, n)
	}
	return b.done()
}

// subtree is the number of ranks a binomial node vr (relative) spans.
func subtree(vr, size int) int {
	m := 1
	for m < size && vr&m == 0 {
		m <<= 1
	}
	return min(m, size-vr)
}

// parent is a binomial node's parent (relative ranks), vr > 0.
func parent(vr int) int { return vr - vr&-vr }

// gatherBinomial: each node collects its subtree's blocks in relative rank
// order in scratch memory and passes them to its parent. It returns the
// scratch (at the root: every block, in relative order).
func gatherBinomial(b *builder, size, me, root int, sbuf unsafe.Pointer, n int) unsafe.Pointer {
	vr := rel(me, root, size)
	k := subtree(vr, size)
	if vr != 0 && k == 1 {
		b.send(abs(parent(vr), root, size), sbuf, n)
		return nil
	}
	tmp := b.scratch(k * n)
	for m := 1; m < size && vr&m == 0; m <<= 1 {
		if c := vr + m; c < size {
			b.recv(abs(c, root, size), add(tmp, m*n), subtree(c, size)*n)
		}
	}
	if sbuf != nil {
		b.copy(tmp, sbuf, n)
	}
	b.round()
	if vr != 0 {
		b.send(abs(parent(vr), root, size), tmp, k*n)
	}
	return tmp
}

// Scatter builds a scatter of the root's blocks into n bytes at rbuf on every
// rank (rbuf == nil at the root means in place).
func Scatter(size, me, root int, sb Blocks, rbuf unsafe.Pointer, n int, alg string) *Schedule {
	b := newBuilder(nil)
	if alg == GatherBinomial && size > 2 {
		scatterBinomial(b, size, me, root, sb, rbuf, n)
		return b.done()
	}
	if me != root {
		b.recv(root, rbuf, n)
		return b.done()
	}
	for r := 0; r < size; r++ {
		if r != root {
			p, k := sb.At(r)
			b.send(r, p, k)
		}
	}
	if rbuf != nil {
		p, _ := sb.At(root)
		b.copy(rbuf, p, n)
	}
	return b.done()
}

// Scatter: the binomial tree needs Regular blocks (MPI_Scatter, not Scatterv).

// scatterBinomial: the root lays its blocks out in relative order; each node
// receives its subtree's blocks and sends each child its share.
func scatterBinomial(b *builder, size, me, root int, sb Blocks, rbuf unsafe.Pointer, n int) {
	vr := rel(me, root, size)
	k := subtree(vr, size)
	if vr != 0 && k == 1 { // leaf
		b.recv(abs(parent(vr), root, size), rbuf, n)
		return
	}
	tmp := b.scratch(k * n)
	if vr == 0 {
		for v := 0; v < size; v++ {
			p, _ := sb.At(abs(v, root, size))
			b.copy(add(tmp, v*n), p, n)
		}
	} else {
		b.recv(abs(parent(vr), root, size), tmp, k*n)
	}
	b.round()
	for m := 1; m < size && vr&m == 0; m <<= 1 {
		if c := vr + m; c < size {
			b.send(abs(c, root, size), add(tmp, m*n), subtree(c, size)*n)
		}
	}
	if rbuf != nil {
		b.copy(rbuf, tmp, n)
	}
}
