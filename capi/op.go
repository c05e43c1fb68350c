package main

/*
#include "gompi.h"
void gompi_call_user_op(void *fn, void *in, void *inout, int len, int dt);
void gompi_call_user_op_c(void *fn, void *in, void *inout, MPI_Count len, int dt);
void gompi_op_user_set(int handle, void *fn);
*/
import "C"

import (
	"math"
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
	"gompi/op"
)

//export gompi_Op_create
func gompi_Op_create(fn unsafe.Pointer, commute C.int, out *C.int, large C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := callC("MPI_Op_create", large != 0)
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "op pointer is NULL")
	}
	if fn == nil {
		return argErr(nil, call, abi.ErrArg, "user function is NULL")
	}
	// fn is a C function pointer, not Go memory, so the closure may keep it.
	// An MPI_User_function_c takes its count as MPI_Count (MPI_Op_create_c).
	// An int-count function gets a large count (an _c collective) in
	// pieces of at most INT_MAX elements.
	f := func(in, inout unsafe.Pointer, count int, dt int32) {
		for count > math.MaxInt32 {
			C.gompi_call_user_op(fn, in, inout, C.int(math.MaxInt32), C.int(dt))
			step := uintptr(math.MaxInt32 * mpi.TypeFromHandle(dt).Extent)
			in, inout = unsafe.Add(in, step), unsafe.Add(inout, step)
			count -= math.MaxInt32
		}
		C.gompi_call_user_op(fn, in, inout, C.int(count), C.int(dt))
	}
	if large != 0 {
		f = func(in, inout unsafe.Pointer, count int, dt int32) {
			C.gompi_call_user_op_c(fn, in, inout, C.MPI_Count(count), C.int(dt))
		}
	}
	o, err := mpi.OpCreate(f, commute != 0)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	if large == 0 { // the C fast path of MPI_Reduce_local calls int-count functions only
		C.gompi_op_user_set(C.int(o.Handle), fn)
	}
	*out = C.int(o.Handle)
	return 0
}

//export gompi_Op_free
func gompi_Op_free(h *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Op_free"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if h == nil {
		return argErr(nil, call, abi.ErrArg, "op pointer is NULL")
	}
	o := op.Lookup(int32(*h))
	if o == nil {
		return argErr(nil, call, abi.ErrOp, "invalid op")
	}
	if err := mpi.OpFree(o); err != nil {
		return C.int(mpi.Code(err))
	}
	C.gompi_op_user_set(C.int(o.Handle), nil)
	*h = C.int(abi.OpNull)
	return 0
}

//export gompi_Op_commutative
func gompi_Op_commutative(h C.int, commute *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Op_commutative"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	o := op.Lookup(int32(h))
	if o == nil {
		return argErr(nil, call, abi.ErrOp, "invalid op")
	}
	if commute == nil {
		return argErr(nil, call, abi.ErrArg, "commute pointer is NULL")
	}
	*commute = 0
	if o.Commute {
		*commute = 1
	}
	return 0
}

//export gompi_Reduce_local
func gompi_Reduce_local(in, inout unsafe.Pointer, count C.long, dt, h C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Reduce_local"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	o := op.Lookup(int32(h))
	if o == nil {
		return argErr(nil, call, abi.ErrOp, "invalid op")
	}
	return C.int(mpi.Code(mpi.ReduceLocal(in, inout, int(count), mpi.TypeFromHandle(int32(dt)), o)))
}
