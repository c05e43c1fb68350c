package coll

import "unsafe"

// Reduce algorithms.
const (
	ReduceBinomial = "binomial" // order-preserving tree (to rank 0, then root, for non-commutative ops)
	ReduceLinear   = "linear"   // root receives everything and reduces in rank order
)

// Data describes a reduction's buffers: count elements of ext bytes each.
// Sbuf == Rbuf means in place.
type Data struct {
	Sbuf, Rbuf unsafe.Pointer
	Count, Ext int
	Fn         Reducer
	Commute    bool
}

func (d *Data) bytes() int { return d.Count * d.Ext }

// Reduce builds a reduction to root; Rbuf matters at the root only.
func Reduce(size, me, root int, d Data, alg string) *Schedule {
	b := newBuilder(d.Fn)
	n := d.bytes()
	if n == 0 {
		return b.done()
	}
	if size == 1 {
		b.copy(d.Rbuf, d.Sbuf, n)
		return b.done()
	}
	switch alg {
	case ReduceLinear:
		reduceLinear(b, size, me, root, d)
	default:
		reduceBinomial(b, size, me, root, d)
	}
	return b.done()
}

func reduceLinear(b *builder, size, me, root int, d Data) {
	n := d.bytes()
	if me != root {
		b.send(root, d.Sbuf, n)
		return
	}
	tmp := b.scratch(n * size)
	src := d.Sbuf
	if d.Sbuf == d.Rbuf { // in place: keep x_root aside, rbuf becomes the accumulator
		src = add(tmp, root*n)
		b.copy(src, d.Rbuf, n)
	}
	at := func(r int) unsafe.Pointer {
		if r == root {
			return src
		}
		return add(tmp, r*n)
	}
	for r := 0; r < size; r++ {
		if r != root {
			b.recv(r, at(r), n)
		}
	}
	// x0 op (x1 op (... op x(n-1))): fold from the top rank down.
	b.copy(d.Rbuf, at(size-1), n)
	for r := size - 2; r >= 0; r-- {
		b.reduce(at(r), d.Rbuf, d.Count)
	}
}

// reduceBinomial combines up a binomial tree. A commutative op uses a tree
// rooted at root; otherwise the tree is rooted at rank 0 so every combine
// joins adjacent rank ranges in order, and 0 forwards the result.
func reduceBinomial(b *builder, size, me, root int, d Data) {
	n := d.bytes()
	top := root
	if !d.Commute {
		top = 0
	}
	vr := rel(me, top, size)
	acc := d.Sbuf // my contribution until a child arrives
	var tmp unsafe.Pointer
	first := true
	mask := 1
	for ; mask < size; mask <<= 1 {
		if vr&mask != 0 {
			b.send(abs(vr-mask, top, size), acc, n)
			b.round()
			break
		}
		child := vr | mask
		if child >= size {
			continue
		}
		if first {
			first = false
			w := d.Rbuf
			if me != root {
				w = b.scratch(n)
			}
			if w != acc {
				// the first child lands in the working buffer and my
				// contribution is folded in front of it: no copy of mine
				b.recv(abs(child, top, size), w, n)
				b.reduce(acc, w, d.Count)
				acc = w
				b.round()
				continue
			}
		}
		if tmp == nil {
			tmp = b.scratch(n)
		}
		b.recv(abs(child, top, size), tmp, n)
		if d.Commute {
			b.reduce(tmp, acc, d.Count)
		} else { // acc = acc op child: the result lands in tmp, swap roles
			b.reduce(acc, tmp, d.Count)
			acc, tmp = tmp, acc
		}
		b.round()
	}
	if me == top && top == root {
		b.copy(d.Rbuf, acc, n)
	}
	if top != root {
		if me == top {
			b.send(root, acc, n)
		} else if me == root {
			b.recv(top, d.Rbuf, n)
		}
	}
}
