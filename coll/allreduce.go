package coll

import "unsafe"

// Allreduce algorithms.
const (
	AllreduceRecursiveDoubling = "recursive_doubling" // order-preserving
	AllreduceRabenseifner      = "rabenseifner"       // recursive halving + doubling (commutative)
	AllreduceRing              = "ring"               // reduce-scatter + allgather rings (commutative)
	AllreduceReduceBcast       = "reduce_bcast"
	AllreduceLinear            = "linear" // one round: everyone sends everyone its vector
)

// Allreduce builds an allreduce; Sbuf == Rbuf means in place.
func Allreduce(size, me int, d Data, alg string) *Schedule {
	b := newBuilder(d.Fn)
	allreduceSteps(b, size, me, d, alg)
	return b.done()
}

func allreduceSteps(b *builder, size, me int, d Data, alg string) {
	n := d.bytes()
	if n == 0 {
		return
	}
	if !d.Commute && (alg == AllreduceRabenseifner || alg == AllreduceRing) {
		alg = AllreduceRecursiveDoubling
	}
	if alg == AllreduceRabenseifner && pof2(size) == size && size > 1 && d.Sbuf != d.Rbuf && d.Count >= size {
		// the first halving step reads the input in place: the vector is
		// never copied as a whole
		allreduceRab(b, size, me, d, d.Sbuf)
		return
	}
	b.copy(d.Rbuf, d.Sbuf, n)
	if size == 1 {
		return
	}
	switch alg {
	case AllreduceLinear:
		// Rbuf holds my contribution (copied above); the others' arrive in
		// scratch and are folded in rank order from the top down
		tmp := b.scratch(size * n)
		b.copy(add(tmp, me*n), d.Rbuf, n)
		for q := 0; q < size; q++ {
			if q != me {
				b.recv(q, add(tmp, q*n), n)
				b.send(q, add(tmp, me*n), n)
			}
		}
		b.copy(d.Rbuf, add(tmp, (size-1)*n), n)
		for q := size - 2; q >= 0; q-- {
			b.reduce(add(tmp, q*n), d.Rbuf, d.Count)
		}
	case AllreduceReduceBcast:
		dd := d
		dd.Sbuf = d.Rbuf
		reduceBinomial(b, size, me, 0, dd)
		b.round()
		bcastBinomial(b, size, me, 0, d.Rbuf, n)
	case AllreduceRing:
		if d.Count < size {
			allreduceRD(b, size, me, d)
		} else {
			allreduceRing(b, size, me, d)
		}
	case AllreduceRabenseifner:
		if d.Count < pof2(size) {
			allreduceRD(b, size, me, d)
		} else {
			allreduceRab(b, size, me, d, nil)
		}
	default:
		allreduceRD(b, size, me, d)
	}
}

// fold pairs the first 2*rem ranks so a power of two remain: even ranks hand
// their data to the odd neighbour. It returns the rank in the power-of-two
// group, or -1 for ranks that sit out.
func fold(b *builder, size, me int, acc, tmp unsafe.Pointer, d Data) int {
	rem := size - pof2(size)
	if me >= 2*rem {
		return me - rem
	}
	if me%2 == 0 {
		b.send(me+1, acc, d.bytes())
		b.round()
		return -1
	}
	b.recv(me-1, tmp, d.bytes())
	b.reduce(tmp, acc, d.Count) // (even) op (odd): rank order kept
	b.round()
	return me / 2
}

// unfold returns the result to the ranks fold left out.
func unfold(b *builder, size, me int, buf unsafe.Pointer, n int) {
	rem := size - pof2(size)
	if me >= 2*rem {
		return
	}
	b.round()
	if me%2 == 0 {
		b.recv(me+1, buf, n)
	} else {
		b.send(me-1, buf, n)
	}
}

// real maps a rank of the power-of-two group back to the communicator.
func unfoldRank(nr, size int) int {
	rem := size - pof2(size)
	if nr < rem {
		return nr*2 + 1
	}
	return nr + rem
}

func allreduceRD(b *builder, size, me int, d Data) {
	n := d.bytes()
	acc, tmp := d.Rbuf, b.scratch(n)
	p := pof2(size)
	nr := fold(b, size, me, acc, tmp, d)
	if nr >= 0 {
		for mask := 1; mask < p; mask <<= 1 {
			dst := unfoldRank(nr^mask, size)
			b.send(dst, acc, n)
			b.recv(dst, tmp, n)
			if dst < me || d.Commute {
				b.reduce(tmp, acc, d.Count)
			} else {
				b.reduce(acc, tmp, d.Count)
				acc, tmp = tmp, acc
			}
			b.round()
		}
		b.copy(d.Rbuf, acc, n)
	}
	unfold(b, size, me, d.Rbuf, n)
}

// blocks splits count elements into k nearly equal blocks (byte offsets).
func blocks(count, ext, k int) (off, cnt []int) {
	off, cnt = make([]int, k+1), make([]int, k)
	for i := 0; i < k; i++ {
		cnt[i] = count / k
		if i < count%k {
			cnt[i]++
		}
		off[i+1] = off[i] + cnt[i]*ext
	}
	return off, cnt
}

// allreduceRab: recursive halving leaves rank r of the power-of-two group
// with block r fully reduced; recursive doubling gathers the blocks back.
// With src set (a power-of-two size, not in place, commutative), the input
// has not been copied to Rbuf and the first step reads it from src.
func allreduceRab(b *builder, size, me int, d Data, src unsafe.Pointer) {
	n := d.bytes()
	acc, tmp := d.Rbuf, b.scratch(n)
	p := pof2(size)
	nr := fold(b, size, me, acc, tmp, d)
	if nr >= 0 {
		off, cnt := blocks(d.Count, d.Ext, p)
		span := func(lo, hi int) (unsafe.Pointer, unsafe.Pointer, int, int) {
			c := 0
			for i := lo; i < hi; i++ {
				c += cnt[i]
			}
			return piece(acc, off[lo], c), piece(tmp, off[lo], c), off[hi] - off[lo], c
		}
		lo, hi := 0, p
		for dist := p / 2; dist > 0; dist /= 2 {
			dst := unfoldRank(nr^dist, size)
			mid := lo + dist
			keepLo, keepHi, giveLo, giveHi := lo, mid, mid, hi
			if nr&dist != 0 {
				keepLo, keepHi, giveLo, giveHi = mid, hi, lo, mid
			}
			gp, _, gn, _ := span(giveLo, giveHi)
			kp, kt, kn, kc := span(keepLo, keepHi)
			if src != nil {
				// first step: the partner's half lands in Rbuf and mine is
				// folded into it (commutative), nothing is copied
				b.send(dst, piece(src, off[giveLo], gn), gn)
				b.recv(dst, kp, kn)
				b.reduce(piece(src, off[keepLo], kc), kp, kc)
				src = nil
				b.round()
				lo, hi = keepLo, keepHi
				continue
			}
			b.send(dst, gp, gn)
			b.recv(dst, kt, kn)
			b.reduce(kt, kp, kc)
			b.round()
			lo, hi = keepLo, keepHi
		}
		for dist := 1; dist < p; dist *= 2 {
			dst := unfoldRank(nr^dist, size)
			plo := (nr ^ dist) &^ (dist - 1)
			mp, _, mn, _ := span(lo, lo+dist)
			pp, _, pn, _ := span(plo, plo+dist)
			b.send(dst, mp, mn)
			b.recv(dst, pp, pn)
			b.round()
			lo = min(lo, plo)
		}
	}
	unfold(b, size, me, d.Rbuf, n)
}

// allreduceRing: size-1 steps of reduce-scatter around the ring, then size-1
// steps passing the finished blocks on.
func allreduceRing(b *builder, size, me int, d Data) {
	acc, tmp := d.Rbuf, b.scratch(d.bytes())
	off, cnt := blocks(d.Count, d.Ext, size)
	next, prev := (me+1)%size, (me-1+size)%size
	blk := func(i int) int { return ((i % size) + size) % size }
	for s := 0; s < size-1; s++ {
		sb, rb := blk(me-s), blk(me-s-1)
		b.send(next, piece(acc, off[sb], cnt[sb]), off[sb+1]-off[sb])
		b.recv(prev, piece(tmp, off[rb], cnt[rb]), off[rb+1]-off[rb])
		b.reduce(piece(tmp, off[rb], cnt[rb]), piece(acc, off[rb], cnt[rb]), cnt[rb])
		b.round()
	}
	for s := 0; s < size-1; s++ {
		sb, rb := blk(me+1-s), blk(me-s)
		b.send(next, piece(acc, off[sb], cnt[sb]), off[sb+1]-off[sb])
		b.recv(prev, piece(acc, off[rb], cnt[rb]), off[rb+1]-off[rb])
		b.round()
	}
}
