package main

/*
#define _GNU_SOURCE
#include <sched.h>
#include "gompi.h"
extern int gompi_world_model;
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

//export gompi_Init
func gompi_Init(required C.int, provided *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if mpi.Initialized() {
		return C.int(errReport(mpi.World(), abi.ErrOther, "MPI_Init", "MPI is already initialized"))
	}
	running := mpi.Ready() // a session started the runtime already
	if !running {
		mpi.SetCurrentCPU(currentCPU)
	}
	level, err := mpi.InitThread(int(required))
	if err != nil {
		return C.int(errReport(nil, abi.ErrOther, "MPI_Init", err.Error()))
	}
	if provided != nil {
		*provided = C.int(level)
	}
	if !running {
		runtimeStarted(level)
	}
	C.gompi_thread_level = C.int(level)
	C.gompi_world_model = 1
	return 0
}

//export gompi_Finalize
func gompi_Finalize() C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() || !mpi.Initialized() || mpi.Finalized() {
		return gompi_NotReady(nil)
	}
	if mpi.LiveSessions() == 0 {
		runtimeStopping()
	}
	rc := C.int(mpi.Code(mpi.Finalize()))
	if mpi.Finalized() {
		C.gompi_world_model = 2
	}
	runtimeStopped() // not before: attribute callbacks run inside
	return rc
}

//export gompi_NotReady
func gompi_NotReady(call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := "MPI_Finalize"
	if call != nil {
		name = C.GoString(call)
	}
	return C.int(mpi.Code(mpi.NotReady(name)))
}

//export gompi_Abort
func gompi_Abort(comm C.int, code C.int) C.int {
	// No MULTIPLE lock: the job must end even while another thread holds it.
	mpi.Abort(mpi.CommFromHandle(int32(comm)), int(code))
	return 0
}

//export gompi_Comm_rank
func gompi_Comm_rank(comm C.int, rank *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Comm_rank", comm)
	if c == nil {
		return rc
	}
	if rank == nil {
		return argErr(c, "MPI_Comm_rank", abi.ErrArg, "rank pointer is NULL")
	}
	*rank = C.int(c.Rank())
	return 0
}

//export gompi_Comm_size
func gompi_Comm_size(comm C.int, size *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Comm_size", comm)
	if c == nil {
		return rc
	}
	if size == nil {
		return argErr(c, "MPI_Comm_size", abi.ErrArg, "size pointer is NULL")
	}
	*size = C.int(c.Size())
	return 0
}

//export gompi_Get_processor_name
func gompi_Get_processor_name(name *C.char, n *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString("MPI_Get_processor_name"))
	}
	if name == nil {
		return nullArg(nil, "MPI_Get_processor_name", "name")
	}
	if n == nil {
		return nullArg(nil, "MPI_Get_processor_name", "resultlen")
	}
	s := mpi.ProcessorName()
	if len(s) > abi.MaxProcessorName-1 {
		s = s[:abi.MaxProcessorName-1]
	}
	putCString(name, s)
	*n = C.int(len(s))
	return 0
}

//export gompi_Error_string
func gompi_Error_string(code C.int, out *C.char, n *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if out == nil {
		return nullArg(nil, "MPI_Error_string", "string")
	}
	if n == nil {
		return nullArg(nil, "MPI_Error_string", "resultlen")
	}
	s, ok := mpi.ErrorString(int(code))
	if !ok {
		return argErr(nil, "MPI_Error_string", abi.ErrArg, "unknown error code")
	}
	if len(s) > abi.MaxErrorString-1 {
		s = s[:abi.MaxErrorString-1]
	}
	putCString(out, s)
	*n = C.int(len(s))
	return 0
}

//export gompi_Error_class
func gompi_Error_class(code C.int, class *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if class == nil {
		return nullArg(nil, "MPI_Error_class", "errorclass")
	}
	cl, ok := mpi.ErrorClass(int(code))
	if !ok {
		return argErr(nil, "MPI_Error_class", abi.ErrArg, "unknown error code")
	}
	*class = C.int(cl)
	return 0
}

//export gompi_ArgError
func gompi_ArgError(call *C.char, class C.int, msg *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return argErr(nil, C.GoString(call), int(class), C.GoString(msg))
}

func putCString(dst *C.char, s string) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(dst)), len(s)+1)
	copy(b, s)
	b[len(s)] = 0
}

// currentCPU is sched_getcpu through glibc (rseq or the vDSO: 30 ns with the
// call into C, where Go's getcpu system call takes 1.1 us on this KVM guest).
func currentCPU() int32 { return int32(C.sched_getcpu()) }
