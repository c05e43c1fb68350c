package coll

import "unsafe"

// Allgather algorithms.
const (
	AllgatherRing              = "ring"
	AllgatherBruck             = "bruck"              // regular blocks only
	AllgatherRecursiveDoubling = "recursive_doubling" // regular blocks, power-of-two sizes
	AllgatherLinear            = "linear"             // one round: every pair exchanges at once
)

// Allgather builds an allgather: every rank's n bytes at sbuf end up in
// block r of rb on every rank (sbuf == nil: in place, already in block me).
// Bruck and recursive doubling need Regular blocks; Allgatherv uses the ring.
func Allgather(size, me int, sbuf unsafe.Pointer, n int, rb Blocks, alg string) *Schedule {
	b := newBuilder(nil)
	if alg == AllgatherBruck && size > 1 {
		allgatherBruck(b, size, me, sbuf, n, rb)
		return b.done()
	}
	// The first round sends my block straight from sbuf; its copy into rb
	// runs after that round, off the critical path (a 1 MiB copy before
	// the exchange doubled a 2-rank allgather).
	own, _ := rb.At(me)
	first := own
	if sbuf != nil {
		first = sbuf
	}
	copied := sbuf == nil
	copyOwn := func() {
		if !copied {
			b.copyEarly(own, sbuf, n)
			copied = true
		}
	}
	if alg == AllgatherLinear {
		for q := 0; q < size; q++ {
			if q != me {
				rp, rk := rb.At(q)
				b.recv(q, rp, rk)
				b.send(q, first, n)
			}
		}
		copyOwn()
		return b.done()
	}
	if alg == AllgatherRecursiveDoubling && size&(size-1) == 0 {
		for d := 1; d < size; d *= 2 {
			peer := me ^ d
			lo, plo := me&^(d-1), peer&^(d-1)
			if d == 1 {
				b.send(peer, first, n)
			} else {
				b.send(peer, piece(rb.Buf, lo*n, d*n), d*n)
			}
			b.recv(peer, piece(rb.Buf, plo*n, d*n), d*n)
			copyOwn()
			b.round()
		}
		copyOwn()
		return b.done()
	}
	next, prev := (me+1)%size, (me-1+size)%size
	for s := 0; s < size-1; s++ {
		sp, sk := rb.At((me - s + size) % size)
		if s == 0 {
			sp = first
		}
		rp, rk := rb.At((me - s - 1 + 2*size) % size)
		b.send(next, sp, sk)
		b.recv(prev, rp, rk)
		copyOwn()
		b.round()
	}
	copyOwn()
	return b.done()
}

// allgatherBruck: after round k a rank holds the blocks of me..me+2k-1 in a
// scratch buffer; a final rotation puts them in place. log2(size) rounds.
func allgatherBruck(b *builder, size, me int, sbuf unsafe.Pointer, n int, rb Blocks) {
	tmp := b.scratch(size * n)
	src := sbuf
	if src == nil {
		src, _ = rb.At(me)
	}
	b.copy(tmp, src, n)
	for k := 1; k < size; k <<= 1 {
		c := min(k, size-k)
		b.send((me-k+size)%size, tmp, c*n)
		b.recv((me+k)%size, add(tmp, k*n), c*n)
		b.round()
	}
	for i := 0; i < size; i++ {
		p, _ := rb.At((me + i) % size)
		b.copy(p, add(tmp, i*n), n)
	}
}
