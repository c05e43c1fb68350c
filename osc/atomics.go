package osc

import (
	"math"
	"sync/atomic"
	"unsafe"

	"gompi/op"
)

// Element-wise atomic accumulates on 4- and 8-byte integers and floats:
// an atomic add, swap or load where the CPU has one, a CAS loop applying
// the op otherwise. Every accumulate on such elements goes through here,
// so they are atomic against each other whatever the op.

// atomicFits reports whether op index opi on elements of kind is done with
// CPU atomics (MINLOC/MAXLOC need pair types, which are not atomic kinds).
func atomicFits(kind, opi int) bool {
	return kind != op.AtomNone && opi >= 0 && opi != op.IMinloc && opi != op.IMaxloc
}

// atomicApply does *p = v op *p on one element and returns the old bits.
func atomicApply(kind, opi int, p unsafe.Pointer, v uint64) uint64 {
	if es := elemBytes(kind); es < 4 {
		return subwordRMW(p, es, func(old uint64) (uint64, bool) { return combine(kind, opi, old, v), true })
	}
	if kind == op.AtomI32 || kind == op.AtomU32 || kind == op.AtomF32 {
		q := (*uint32)(p)
		switch {
		case opi == op.INoOp:
			return uint64(atomic.LoadUint32(q))
		case opi == op.IReplace:
			return uint64(atomic.SwapUint32(q, uint32(v)))
		case opi == op.ISum && kind != op.AtomF32:
			return uint64(atomic.AddUint32(q, uint32(v)) - uint32(v))
		}
		for {
			old := atomic.LoadUint32(q)
			if atomic.CompareAndSwapUint32(q, old, uint32(combine(kind, opi, uint64(old), v))) {
				return uint64(old)
			}
		}
	}
	q := (*uint64)(p)
	switch {
	case opi == op.INoOp:
		return atomic.LoadUint64(q)
	case opi == op.IReplace:
		return atomic.SwapUint64(q, v)
	case opi == op.ISum && kind != op.AtomF64:
		return atomic.AddUint64(q, v) - v
	}
	for {
		old := atomic.LoadUint64(q)
		if atomic.CompareAndSwapUint64(q, old, combine(kind, opi, old, v)) {
			return old
		}
	}
}

// atomicLoad reads one element atomically.
func atomicLoad(kind int, p unsafe.Pointer) uint64 {
	if elemBytes(kind) == 4 {
		return uint64(atomic.LoadUint32((*uint32)(p)))
	}
	return atomic.LoadUint64((*uint64)(p))
}

func elemBytes(kind int) int {
	switch kind {
	case op.AtomI32, op.AtomU32, op.AtomF32:
		return 4
	case op.AtomI8, op.AtomU8:
		return 1
	case op.AtomI16, op.AtomU16:
		return 2
	}
	return 8
}

// loadElem reads one element of kind at p as bits (not atomically).
func loadElem(kind int, p unsafe.Pointer) uint64 {
	switch elemBytes(kind) {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

func storeElem(kind int, p unsafe.Pointer, v uint64) {
	switch elemBytes(kind) {
	case 1:
		*(*uint8)(p) = uint8(v)
	case 2:
		*(*uint16)(p) = uint16(v)
	case 4:
		*(*uint32)(p) = uint32(v)
	default:
		*(*uint64)(p) = v
	}
}

// subwordRMW changes the es-byte (1 or 2) element at p atomically by a CAS
// on the aligned 4-byte word holding it (an 8-byte word when a misaligned
// 2-byte element crosses the 4-byte boundary): f maps the old element to
// the new one, or says to leave it. It returns the old element. The word's
// other bytes are rewritten with their current values, so concurrent
// changes to them are never lost. (C's 1- and 2-byte atomics on the same
// element, the fast path, are atomic against this on x86.)
func subwordRMW(p unsafe.Pointer, es int, f func(old uint64) (uint64, bool)) uint64 {
	a := uintptr(p)
	mask := uint64(1)<<(8*es) - 1
	if a&3+uintptr(es) <= 4 {
		q := (*uint32)(unsafe.Add(p, -int(a&3)))
		sh := (a & 3) * 8
		for {
			w := atomic.LoadUint32(q)
			old := uint64(w>>sh) & mask
			nv, ok := f(old)
			if !ok || atomic.CompareAndSwapUint32(q, w, w&^uint32(mask<<sh)|uint32(nv&mask)<<sh) {
				return old
			}
		}
	}
	if a&7+uintptr(es) <= 8 {
		q := (*uint64)(unsafe.Add(p, -int(a&7)))
		sh := (a & 7) * 8
		for {
			w := atomic.LoadUint64(q)
			old := w >> sh & mask
			nv, ok := f(old)
			if !ok || atomic.CompareAndSwapUint64(q, w, w&^(mask<<sh)|(nv&mask)<<sh) {
				return old
			}
		}
	}
	// A 2-byte element across an 8-byte boundary: no CPU atomic covers it.
	old := uint64(*(*uint16)(p))
	if nv, ok := f(old); ok {
		*(*uint16)(p) = uint16(nv)
	}
	return old
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// combineFloat is a op b for the float kinds (a is the incoming value, b the
// old one); ops that do not apply to floats leave b.
func combineFloat[F float32 | float64](opi int, a, b F) F {
	switch opi {
	case op.ISum:
		return a + b
	case op.IProd:
		return a * b
	case op.IMax:
		return max(a, b)
	case op.IMin:
		return min(a, b)
	case op.IReplace:
		return a
	}
	return b
}

// combine is in op old for one element of kind, as bits: the kernel of the
// CAS loops (and of the tests that compare it with op's kernels).
func combine(kind, opi int, old, in uint64) uint64 {
	switch kind {
	case op.AtomF32:
		r := combineFloat(opi, math.Float32frombits(uint32(in)), math.Float32frombits(uint32(old)))
		return uint64(math.Float32bits(r))
	case op.AtomF64:
		return math.Float64bits(combineFloat(opi, math.Float64frombits(in), math.Float64frombits(old)))
	}
	var mask uint64 = math.MaxUint64
	if es := elemBytes(kind); es < 8 {
		mask = uint64(1)<<(8*es) - 1
		old, in = old&mask, in&mask
	}
	var r uint64
	switch opi {
	case op.ISum:
		r = in + old
	case op.IProd:
		r = in * old
	case op.IMax, op.IMin:
		less := in < old // is in < old?
		switch kind {
		case op.AtomI32:
			less = int32(in) < int32(old)
		case op.AtomI64:
			less = int64(in) < int64(old)
		case op.AtomI8:
			less = int8(in) < int8(old)
		case op.AtomI16:
			less = int16(in) < int16(old)
		}
		if less == (opi == op.IMin) {
			r = in
		} else {
			r = old
		}
	case op.ILand:
		r = b2u(in != 0 && old != 0)
	case op.ILor:
		r = b2u(in != 0 || old != 0)
	case op.ILxor:
		r = b2u((in != 0) != (old != 0))
	case op.IBand:
		r = in & old
	case op.IBor:
		r = in | old
	case op.IBxor:
		r = in ^ old
	case op.IReplace:
		r = in
	default:
		r = old
	}
	return r & mask
}

// casElem is an atomic compare-and-swap of a 1-, 2-, 4- or 8-byte element
// that returns the old value.
func casElem(size int, p unsafe.Pointer, cmp, nv uint64) uint64 {
	if size < 4 {
		return subwordRMW(p, size, func(old uint64) (uint64, bool) { return nv, old == cmp })
	}
	if size == 4 {
		q := (*uint32)(p)
		for {
			old := atomic.LoadUint32(q)
			if old != uint32(cmp) || atomic.CompareAndSwapUint32(q, old, uint32(nv)) {
				return uint64(old)
			}
		}
	}
	q := (*uint64)(p)
	for {
		old := atomic.LoadUint64(q)
		if old != cmp || atomic.CompareAndSwapUint64(q, old, nv) {
			return old
		}
	}
}
