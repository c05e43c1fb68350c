package main

import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
	"gompi/mpierr"
)

// commArg resolves a communicator handle; on failure it raises MPI_ERR_COMM
// through MPI_COMM_WORLD's handler and returns the code.
func commArg(call string, h C.int) (*mpi.Comm, C.int) {
	if !mpi.Ready() {
		return nil, C.int(mpi.Code(mpi.NotReady(call)))
	}
	c := mpi.CommFromHandle(int32(h))
	if c == nil {
		what := "invalid communicator handle"
		if int32(h) == abi.CommNull {
			what = "communicator is MPI_COMM_NULL"
		}
		return nil, argErr(nil, call, abi.ErrComm, what)
	}
	return c, 0
}

// argErr raises an argument error on c (MPI_COMM_WORLD when nil).
func argErr(c *mpi.Comm, call string, class int, detail string) C.int {
	return C.int(mpi.Code(mpi.Raise(c, class, call, detail)))
}

func errReport(c *mpi.Comm, class int, call, detail string) int {
	return mpi.Code(mpi.Raise(c, class, call, detail))
}

// objErr raises an error from one of the pure-logic packages (group, topo,
// info) or from mpi on c (MPI_COMM_WORLD when nil), keeping its class.
func objErr(c *mpi.Comm, call string, err error) C.int {
	class, detail := abi.ErrOther, err.Error()
	switch e := err.(type) {
	case *mpierr.Error:
		class = e.Class
	case *mpi.Error:
		class, detail = e.Class, e.Detail
	}
	return argErr(c, call, class, detail)
}

// intSlice copies n C ints into a Go slice.
func intSlice(p *C.int, n int) []int {
	if n <= 0 || p == nil {
		return nil
	}
	in := unsafe.Slice(p, n)
	out := make([]int, n)
	for i, v := range in {
		out[i] = int(v)
	}
	return out
}

// putInts writes vals into the C array at p.
func putInts(p *C.int, vals []int) {
	if len(vals) == 0 {
		return
	}
	out := unsafe.Slice(p, len(vals))
	for i, v := range vals {
		out[i] = C.int(v)
	}
}

// gompi_NullPtr reports a NULL pointer argument found by a C entry point
// (GOMPI_NONNULL in gompi.h): MPI_ERR_ARG through comm's handler, or
// MPI_COMM_WORLD's when comm is not a valid communicator (-1: none).
//
//export gompi_NullPtr
func gompi_NullPtr(comm C.int, call, arg *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(name)))
	}
	return argErr(mpi.CommFromHandle(int32(comm)), name, abi.ErrArg, C.GoString(arg)+" is NULL")
}

// nullArg reports a NULL pointer argument found on the Go side.
func nullArg(c *mpi.Comm, call, arg string) C.int {
	return argErr(c, call, abi.ErrArg, arg+" is NULL")
}
