package op

// #cgo CFLAGS: -O3 -Wall
// #include "kernels.h"
import "C"

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"gompi/abi"
	"gompi/datatype"
)

// elemSize is the memory stride of one element of each kind (pairs include
// the C struct padding).
var elemSize = [nKind]int{
	kI8: 1, kU8: 1, kI16: 2, kU16: 2, kI32: 4, kU32: 4, kI64: 8, kU64: 8,
	kF32: 4, kF64: 8, kF80: 16, kC64: 8, kC128: 16, kCLD: 32,
	kFloatInt: 8, kDoubleInt: 16, kLongInt: 16, k2Int: 8, kShortInt: 8, kLDoubleInt: 32,
	k2Float: 8, k2Double: 16, kDoubleIntP: 12, kLongIntP: 12, kShortIntP: 6, kLDoubleIntP: 20,
	kF128: 16, kC256: 32,
}

// hasC[op][kind] mirrors the C kernel table, read once at startup.
var hasC [nPredef][nKind]bool

// Tier is the instruction-set tier of the C kernels: 0 x86-64, 1 AVX2, 2 AVX-512.
var Tier int

func initC() {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512DQ:
		Tier = 2
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		Tier = 1
	}
	C.gompi_op_init(C.int(Tier))
	for o := 0; o < int(C.GO_NOP); o++ {
		for k := 0; k < nKind; k++ {
			hasC[o][k] = C.gompi_op_has(C.int(o), C.int(k)) != 0
		}
	}
	publishFastPath()
}

// publishFastPath gives the C side of MPI_Reduce_local (capi/op.c) the
// valid (predefined op, builtin datatype) pairs and their kernels, decided by
// Check, so the C path and the Go path accept exactly the same calls.
func publishFastPath() {
	for _, t := range datatype.PredefinedTypes() {
		if abi.HandleKind(t.Handle) != abi.KindBuiltin || !t.Builtin {
			continue
		}
		C.gompi_op_set_builtin(C.int(t.Handle))
		ti := info(t)
		for o := 0; o < int(C.GO_NOP); o++ {
			if predef[o].Check(t) == 0 && hasC[o][ti.kind] {
				C.gompi_op_set_fast(C.int(o), C.int(t.Handle), C.int(ti.kind))
			}
		}
	}
}

func runC(op, kind int, in, inout unsafe.Pointer, n int) {
	C.gompi_op_run(C.int(op), C.int(kind), in, inout, C.size_t(n))
}

func runC3(op, kind int, a, b, out unsafe.Pointer, n int) {
	C.gompi_op_run3(C.int(op), C.int(kind), a, b, out, C.size_t(n))
}

// setTier switches the C kernels to another tier (benchmarks compare them).
func setTier(t int) { C.gompi_op_init(C.int(t)) }

// reduceBuiltin is the C fast path of MPI_Reduce_local, for tests: 0 when it
// ran the reduction, -1 when the call must take the Go path.
func reduceBuiltin(op, dt int32, in, inout unsafe.Pointer, count int) int {
	return int(C.gompi_op_reduce_builtin(C.int(op), C.int(dt), in, inout, C.int(count)))
}

// reduce3Builtin is the three-operand C kernel (out = a op b) behind the
// shared-memory collectives' folds, for tests: 0 when it ran, -1 as
// reduceBuiltin.
func reduce3Builtin(op, dt int32, a, b, out unsafe.Pointer, count int) int {
	return int(C.gompi_op_reduce3_builtin(C.int(op), C.int(dt), a, b, out, C.int(count)))
}
