package main

import "C"

import (
	"gompi/abi"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// gompi_Comm_split_type is MPI_Comm_split_type: the guided types read the
// resource from info (mpi.SplitTypeInfo); MPI_INFO_NULL is no resource.
//
//export gompi_Comm_split_type
func gompi_Comm_split_type(comm, kind, key, inh C.int, newcomm *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Comm_split_type"
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if newcomm == nil {
		return argErr(c, call, abi.ErrArg, "newcomm pointer is NULL")
	}
	var in *info.Info
	if int32(inh) != abi.InfoNull {
		if in, rc = infoArg(call, inh); in == nil {
			return rc
		}
	}
	d, err := c.SplitTypeInfo(int(kind), int(key), in)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(newcomm, d)
	return 0
}
