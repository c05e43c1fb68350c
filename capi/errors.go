package main

import "C"

import (
	"gompi/abi"
	"gompi/mpi"
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
