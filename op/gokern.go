package op

import "unsafe"

// Go kernels for small counts, where a cgo call (~50 ns) would cost more than
// the loop. Each has the C kernels' semantics exactly (x is in[i], y is
// inout[i]; max/min use the same comparisons, so NaN handling is the same).

type kernel func(in, inout unsafe.Pointer, n int)

type integer interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64
}

type float interface{ ~float32 | ~float64 }

type ordered interface{ integer | float }

type number interface {
	ordered | ~complex64 | ~complex128
}

func views[T any](in, inout unsafe.Pointer, n int) ([]T, []T) {
	return unsafe.Slice((*T)(in), n), unsafe.Slice((*T)(inout), n)
}

func gMax[T ordered](in, inout unsafe.Pointer, n int) {
	a, b := views[T](in, inout, n)
	for i := range b {
		if x := a[i]; x > b[i] {
			b[i] = x
		}
	}
}

func gMin[T ordered](in, inout unsafe.Pointer, n int) {
	a, b := views[T](in, inout, n)
	for i := range b {
		if x := a[i]; x < b[i] {
			b[i] = x
		}
	}
}

func gSum[T number](in, inout unsafe.Pointer, n int) {
	a, b := views[T](in, inout, n)
	for i := range b {
		b[i] = a[i] + b[i]
	}
}

func gProd[T number](in, inout unsafe.Pointer, n int) {
	a, b := views[T](in, inout, n)
	for i := range b {
		b[i] = a[i] * b[i]
	}
}

func gLand[T integer](in, inout unsafe.Pointer, n int) {
	a, b := views[T](in, inout, n)
	for i := range b {
		var r T
		if a[i] != 0 && b[i] != 0 {
			r = 1
		}
		b[i] = r
	}
}

func gLor[T integer](in, inout unsafe.Pointer, n int) {
	a, b := views[T](in, inout, n)
	for i := range b {
		var r T
		if a[i] != 0 || b[i] != 0 {
			r = 1
		}
		b[i] = r
	}
}

func gLxor[T integer](in, inout unsafe.Pointer, n int) {
	a, b := views[T](in, inout, n)
	for i := range b {
		var r T
		if (a[i] != 0) != (b[i] != 0) {
			r = 1
		}
		b[i] = r
	}
}

func gBand[T integer](in, inout unsafe.Pointer, n int) {
	a, b := views[T](in, inout, n)
	for i := range b {
		b[i] &= a[i]
	}
}

func gBor[T integer](in, inout unsafe.Pointer, n int) {
	a, b := views[T](in, inout, n)
	for i := range b {
		b[i] |= a[i]
	}
}

func gBxor[T integer](in, inout unsafe.Pointer, n int) {
	a, b := views[T](in, inout, n)
	for i := range b {
		b[i] ^= a[i]
	}
}

// pair has the C layout of the MAXLOC/MINLOC structs (Go pads the same way).
type pair[V, I ordered] struct {
	v V
	i I
}

func gMaxloc[V, I ordered](in, inout unsafe.Pointer, n int) {
	a, b := views[pair[V, I]](in, inout, n)
	for k := range b {
		x, y := &a[k], &b[k]
		if x.v > y.v {
			*y = *x
		} else if x.v == y.v && x.i < y.i {
			y.i = x.i
		}
	}
}

func gMinloc[V, I ordered](in, inout unsafe.Pointer, n int) {
	a, b := views[pair[V, I]](in, inout, n)
	for k := range b {
		x, y := &a[k], &b[k]
		if x.v < y.v {
			*y = *x
		} else if x.v == y.v && x.i < y.i {
			y.i = x.i
		}
	}
}

// goKern[op][kind] is the Go kernel, nil where only C has one (long double,
// complex).
var goKern [nPredef][nKind]kernel

func intKernels[T integer](kind int) {
	goKern[iMax][kind] = gMax[T]
	goKern[iMin][kind] = gMin[T]
	goKern[iSum][kind] = gSum[T]
	goKern[iProd][kind] = gProd[T]
	goKern[iLand][kind] = gLand[T]
	goKern[iLor][kind] = gLor[T]
	goKern[iLxor][kind] = gLxor[T]
	goKern[iBand][kind] = gBand[T]
	goKern[iBor][kind] = gBor[T]
	goKern[iBxor][kind] = gBxor[T]
}

func floatKernels[T float](kind int) {
	goKern[iMax][kind] = gMax[T]
	goKern[iMin][kind] = gMin[T]
	goKern[iSum][kind] = gSum[T]
	goKern[iProd][kind] = gProd[T]
}

func locKernels[V, I ordered](kind int) {
	goKern[iMaxloc][kind] = gMaxloc[V, I]
	goKern[iMinloc][kind] = gMinloc[V, I]
}

func initGoKernels() {
	intKernels[int8](kI8)
	intKernels[uint8](kU8)
	intKernels[int16](kI16)
	intKernels[uint16](kU16)
	intKernels[int32](kI32)
	intKernels[uint32](kU32)
	intKernels[int64](kI64)
	intKernels[uint64](kU64)
	floatKernels[float32](kF32)
	floatKernels[float64](kF64)
	// No Go kernels for complex: GCC's AVX2/AVX-512 complex product uses fused
	// multiply-adds (even with -ffp-contract=off), so a Go product would round
	// differently for small counts than C does for large ones.
	locKernels[float32, int32](kFloatInt)
	locKernels[float64, int32](kDoubleInt)
	locKernels[int64, int32](kLongInt)
	locKernels[int32, int32](k2Int)
	locKernels[int16, int32](kShortInt)
	locKernels[float32, float32](k2Float)
	locKernels[float64, float64](k2Double)
}
