package datatype

import "gompi/abi"

// piece is part of a new type's typemap: reps groups repStride bytes apart,
// the first at off, each group n copies of t placed t's extent apart. Every
// constructor is a list of pieces (a vector is one piece, an indexed type
// one piece per block).
type piece struct {
	t         *Type
	off       int64
	n         int64
	reps      int64
	repStride int64
}

// span accumulates the minimum and maximum of a set of positions.
type span struct {
	lo, hi int64
	ok     bool
}

func (s *span) add(lo, hi int64) {
	if !s.ok {
		s.lo, s.hi, s.ok = lo, hi, true
		return
	}
	s.lo, s.hi = min(s.lo, lo), max(s.hi, hi)
}

// shifts returns the smallest and largest displacement of a copy in p.
func (p *piece) shifts() (lo, hi int64) {
	e := int64(p.t.Extent)
	a, b := (p.reps-1)*p.repStride, (p.n-1)*e
	return p.off + min(0, a) + min(0, b), p.off + max(0, a) + max(0, b)
}

// build makes a new (uncommitted, unnamed) type from its pieces, with the
// standard's bounds: the lower bound is the lowest explicit MPI_LB marker if
// any, else the lowest lower bound of a copy; likewise the upper bound. A
// struct without markers has its extent padded to its alignment, as C pads
// a struct (MPICH does the same).
func build(pieces []piece, isStruct bool) *Type {
	t := &Type{align: 1, Committed: false}
	var natural, lbm, ubm, truth span
	base, first := (*Type)(nil), true
	var size, elems int64
	for i := range pieces {
		p := &pieces[i]
		o := p.t
		t.align = max(t.align, o.align)
		isMarker := o.Handle == abi.LB || o.Handle == abi.UB
		if !isMarker {
			if first {
				base, first = o.Base, false
			} else if base != o.Base {
				base = nil
			}
		}
		if p.n <= 0 || p.reps <= 0 {
			continue
		}
		lo, hi := p.shifts()
		if o.stickyLB {
			lbm.add(lo+int64(o.LB), hi+int64(o.LB))
		}
		if o.stickyUB {
			ub := int64(o.LB + o.Extent)
			ubm.add(lo+ub, hi+ub)
		}
		if !isMarker {
			natural.add(lo+int64(o.LB), hi+int64(o.LB+o.Extent))
		}
		if o.Size > 0 {
			truth.add(lo+int64(o.TrueLB), hi+int64(o.TrueLB+o.TrueExtent))
		}
		size += p.n * p.reps * int64(o.Size)
		elems += p.n * p.reps * o.Elems
		inner := repeat(0, p.n, int64(o.Extent), o.typed, true)
		for _, m := range repeat(p.off, p.reps, p.repStride, inner, true) {
			t.typed = appendNode(t.typed, m, true)
		}
	}
	lb, ub := natural.lo, natural.hi
	if lbm.ok {
		lb, t.stickyLB = lbm.lo, true
	}
	if ubm.ok {
		ub, t.stickyUB = ubm.hi, true
	}
	if !natural.ok && !lbm.ok {
		lb = 0
	}
	if !natural.ok && !ubm.ok {
		ub = 0 // no data and no UB marker: the upper bound of nothing, as MPICH (extent may be negative)
	}
	if isStruct && !t.stickyLB && !t.stickyUB && t.align > 1 {
		if r := (ub - lb) % int64(t.align); r != 0 {
			if r < 0 {
				r += int64(t.align)
			}
			ub += int64(t.align) - r
		}
	}
	t.LB, t.Extent = int(lb), int(ub-lb)
	if truth.ok {
		t.TrueLB, t.TrueExtent = int(truth.lo), int(truth.hi-truth.lo)
	}
	t.Size, t.Elems, t.Base = int(size), elems, base
	return t
}
