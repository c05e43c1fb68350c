package main

/*
#include "gompi.h"
void gompi_call_user_op(void *fn, void *in, void *inout, int len, int dt);
void gompi_op_user_set(int handle, void *fn);
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
	"gompi/op"
)

//export gompi_Op_create
func gompi_Op_create(fn unsafe.Pointer, commute C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Op_create"
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
	o, err := mpi.OpCreate(func(in, inout unsafe.Pointer, count int, dt int32) {
		C.gompi_call_user_op(fn, in, inout, C.int(count), C.int(dt))
	}, commute != 0)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	C.gompi_op_user_set(C.int(o.Handle), fn)
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
func gompi_Reduce_local(in, inout unsafe.Pointer, count, dt, h C.int) C.int {
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
