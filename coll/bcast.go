package coll

import "unsafe"

// Bcast algorithms.
const (
	BcastBinomial         = "binomial"
	BcastPipeline         = "pipeline" // segmented chain: large messages
	BcastLinear           = "linear"
	BcastScatterAllgather = "scatter_allgather"
)

// Bcast builds a broadcast of n bytes at buf from root. seg is the pipeline
// segment size.
func Bcast(size, me, root int, buf unsafe.Pointer, n int, alg string, seg int) *Schedule {
	b := newBuilder(nil)
	bcastSteps(b, size, me, root, buf, n, alg, seg)
	return b.done()
}

func bcastSteps(b *builder, size, me, root int, buf unsafe.Pointer, n int, alg string, seg int) {
	if size == 1 || n == 0 {
		return
	}
	switch alg {
	case BcastLinear:
		if me == root {
			for p := 0; p < size; p++ {
				if p != root {
					b.send(p, buf, n)
				}
			}
		} else {
			b.recv(root, buf, n)
		}
	case BcastPipeline:
		bcastChain(b, size, me, root, buf, n, seg)
	case BcastScatterAllgather:
		bcastScatterAllgather(b, size, me, root, buf, n)
	default:
		bcastBinomial(b, size, me, root, buf, n)
	}
}

func bcastBinomial(b *builder, size, me, root int, buf unsafe.Pointer, n int) {
	vr := rel(me, root, size)
	mask := 1
	for mask < size {
		if vr&mask != 0 {
			b.recv(abs(vr-mask, root, size), buf, n)
			b.round()
			break
		}
		mask <<= 1
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		if vr+mask < size {
			b.send(abs(vr+mask, root, size), buf, n)
		}
	}
	b.round()
}

// bcastChain passes segments down the chain root, root+1, ...: segment i
// moves from one rank to the next while segment i+1 arrives behind it.
func bcastChain(b *builder, size, me, root int, buf unsafe.Pointer, n, seg int) {
	if seg <= 0 {
		seg = 64 << 10
	}
	vr := rel(me, root, size)
	prev, next := abs(vr-1, root, size), abs(vr+1, root, size)
	nseg := (n + seg - 1) / seg
	part := func(i int) (unsafe.Pointer, int) { return piece(buf, i*seg, min(seg, n-i*seg)), min(seg, n-i*seg) }
	for i := 0; i <= nseg; i++ {
		if vr > 0 && i < nseg {
			p, k := part(i)
			b.recv(prev, p, k)
		}
		if vr < size-1 && i > 0 {
			p, k := part(i - 1)
			b.send(next, p, k)
		}
		b.round()
	}
}

// bcastScatterAllgather scatters the message in blocks down a binomial tree
// and gathers it back with a ring: bandwidth-optimal for large messages.
func bcastScatterAllgather(b *builder, size, me, root int, buf unsafe.Pointer, n int) {
	blk := (n + size - 1) / size
	// block v (in relative ranks) spans [v*blk, min((v+1)*blk, n)).
	span := func(v0, cnt int) (unsafe.Pointer, int) {
		lo := min(v0*blk, n)
		hi := min((v0+cnt)*blk, n)
		return piece(buf, lo, hi-lo), hi - lo
	}
	vr := rel(me, root, size)
	mask := 1
	for mask < size {
		if vr&mask != 0 {
			p, k := span(vr, min(mask, size-vr))
			b.recv(abs(vr-mask, root, size), p, k)
			b.round()
			break
		}
		mask <<= 1
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		if c := vr + mask; c < size {
			p, k := span(c, min(mask, size-c))
			b.send(abs(c, root, size), p, k)
		}
	}
	b.round()
	// ring allgather of the blocks, in relative ranks
	next, prev := abs(vr+1, root, size), abs(vr-1+size, root, size)
	for s := 0; s < size-1; s++ {
		sp, sk := span((vr-s+size)%size, 1)
		rp, rk := span((vr-s-1+2*size)%size, 1)
		b.send(next, sp, sk)
		b.recv(prev, rp, rk)
		b.round()
	}
}
