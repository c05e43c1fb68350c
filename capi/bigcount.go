package main

import "C"

import (
	"math"
	"unsafe"
)

// Large-count (_c) calls share their Go entry with the int calls: scalar
// counts cross as C long (MPI_Count), which an int caller widens for free;
// count arrays and output counts cross as a pointer with a "wide" flag
// saying whether the C side holds MPI_Count/MPI_Aint or int elements.

// wideBit marks a mode or kind argument as coming from an _c call.
const wideBit = 1 << 8

// countSlice reads n counts (or displacements) from p.
func countSlice(p unsafe.Pointer, n int, wide bool) []int {
	if n <= 0 || p == nil {
		return nil
	}
	if !wide {
		return intSlice((*C.int)(p), n)
	}
	out := make([]int, n)
	for i, v := range unsafe.Slice((*int64)(p), n) {
		out[i] = int(v)
	}
	return out
}

// putCount stores n through p; false when an int output cannot hold it
// (the caller raises MPI_ERR_VALUE_TOO_LARGE, as the standard asks).
func putCount(p unsafe.Pointer, wide bool, n int) bool {
	if wide {
		*(*int64)(p) = int64(n)
		return true
	}
	if n > math.MaxInt32 || n < math.MinInt32 {
		*(*C.int)(p) = C.int(math.MaxInt32)
		return false
	}
	*(*C.int)(p) = C.int(n)
	return true
}

// getCount reads an in/out count (a pack position).
func getCount(p unsafe.Pointer, wide bool) int {
	if wide {
		return int(*(*int64)(p))
	}
	return int(*(*C.int)(p))
}

// callC names the _c form of call when wide.
func callC(call string, wide bool) string {
	if wide {
		return call + "_c"
	}
	return call
}
