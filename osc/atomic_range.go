package osc

import (
	"sync/atomic"
	"unsafe"

	"gompi/op"
)

// A run of small elements (1, 2 or 4 bytes) is folded a 64-bit word at a
// time: one CAS updates every element in the word, each atomically, so a
// 64 KiB MPI_CHAR accumulate costs 8 Ki CASes instead of 64 Ki, and sums
// and bitwise ops on the word need no per-element work at all.

// laneHigh is the top bit of every lane of es bytes in a word.
var laneHigh = [...]uint64{1: 0x8080808080808080, 2: 0x8000800080008000, 4: 0x8000000080000000}

// atomicApplyRange does dst[i] = src[i] op dst[i] atomically per element for
// n bytes of elements of kind, storing the old elements in res (when not
// nil). src is nil for MPI_NO_OP.
func atomicApplyRange(kind, opi int, dst, src, res unsafe.Pointer, n int) {
	es := elemBytes(kind)
	i := 0
	elem := func() {
		var v uint64
		if src != nil {
			v = loadElem(kind, unsafe.Add(src, i))
		}
		old := atomicApply(kind, opi, unsafe.Add(dst, i), v)
		if res != nil {
			storeElem(kind, unsafe.Add(res, i), old)
		}
		i += es
	}
	if es < 8 && n >= 32 {
		for i < n && (uintptr(dst)+uintptr(i))&7 != 0 {
			elem()
		}
		for ; i+8 <= n; i += 8 {
			q := (*uint64)(unsafe.Add(dst, i))
			var in uint64
			if src != nil {
				in = *(*uint64)(unsafe.Add(src, i)) // the origin's buffer may be unaligned: a plain load
			}
			old := wordApply(kind, opi, es, q, in)
			if res != nil {
				*(*uint64)(unsafe.Add(res, i)) = old
			}
		}
	}
	for i < n {
		elem()
	}
}

// wordApply folds the lanes of in into the word at q with one CAS loop and
// returns the old word.
func wordApply(kind, opi, es int, q *uint64, in uint64) uint64 {
	switch opi {
	case op.INoOp:
		return atomic.LoadUint64(q)
	case op.IReplace:
		return atomic.SwapUint64(q, in)
	}
	for {
		old := atomic.LoadUint64(q)
		var nw uint64
		switch {
		case opi == op.ISum && kind != op.AtomF32:
			h := laneHigh[es]
			nw = (old&^h + in&^h) ^ (old^in)&h // lane-wise add, no carry across lanes
		case opi == op.IBand:
			nw = old & in
		case opi == op.IBor:
			nw = old | in
		case opi == op.IBxor:
			nw = old ^ in
		default:
			sh := uint(8 * es)
			mask := uint64(1)<<sh - 1
			for l := uint(0); l < 64; l += sh {
				nw |= combine(kind, opi, old>>l&mask, in>>l&mask) << l
			}
		}
		if atomic.CompareAndSwapUint64(q, old, nw) {
			return old
		}
	}
}
