package main

import "C"

import (
	"gompi/abi"
	"gompi/group"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

//export gompi_Comm_group
func gompi_Comm_group(comm C.int, out *C.int, remote C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Comm_group"
	if remote != 0 {
		call = "MPI_Comm_remote_group"
	}
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if out == nil {
		return argErr(c, call, abi.ErrArg, "group pointer is NULL")
	}
	ranks := c.GroupRanks()
	if remote != 0 {
		if !c.IsInter() {
			return argErr(c, call, abi.ErrComm, "not an intercommunicator")
		}
		ranks = c.RemoteGroupRanks()
	}
	*out = C.int(mpi.NewGroupHandle(group.New(ranks)))
	return 0
}

//export gompi_Comm_create
func gompi_Comm_create(comm, grp, tag C.int, out *C.int, byGroup C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Comm_create"
	if byGroup != 0 {
		call = "MPI_Comm_create_group"
	}
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	g := mpi.GroupFromHandle(int32(grp))
	if g == nil {
		return argErr(c, call, abi.ErrGroup, "invalid group handle")
	}
	if out == nil {
		return argErr(c, call, abi.ErrArg, "newcomm pointer is NULL")
	}
	var n *mpi.Comm
	var err error
	if byGroup != 0 {
		n, err = c.CreateGroup(g.WorldRanks(), int(tag))
	} else {
		n, err = c.Create(g.WorldRanks())
	}
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(out, n)
	return 0
}

// gompi_Comm_info sets (set != 0) or gets the hints of a communicator.
//
//export gompi_Comm_info
func gompi_Comm_info(comm C.int, h *C.int, set C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Comm_get_info"
	if set != 0 {
		call = "MPI_Comm_set_info"
	}
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if h == nil {
		return argErr(c, call, abi.ErrArg, "info pointer is NULL")
	}
	if set == 0 {
		in := info.New()
		if c.Info() != nil {
			in = c.Info().Dup()
		}
		*h = C.int(mpi.NewInfoHandle(in))
		return 0
	}
	in := mpi.InfoFromHandle(int32(*h))
	if in == nil {
		return argErr(c, call, abi.ErrInfo, "invalid info handle")
	}
	c.SetInfo(in.Dup())
	return 0
}
