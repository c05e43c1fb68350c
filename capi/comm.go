package main

/*
#include <stdint.h>
*/
import "C"

import (
	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// commOut stores a new communicator's handle (MPI_COMM_NULL for nil).
func commOut(out *C.int, c *mpi.Comm) {
	if c == nil {
		*out = C.int(abi.CommNull)
		return
	}
	*out = C.int(c.Handle)
}

//export gompi_Comm_dup
func gompi_Comm_dup(comm C.int, newcomm *C.int, req *C.int, ccall *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := C.GoString(ccall)
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if newcomm == nil {
		return argErr(c, call, abi.ErrArg, "newcomm pointer is NULL")
	}
	if call == "MPI_Comm_idup" && req == nil {
		return argErr(c, call, abi.ErrArg, "request pointer is NULL")
	}
	if req != nil { // MPI_Comm_idup: the handle now, the communicator at completion
		h, r, err := c.IdupStart(nil)
		if err != nil {
			return C.int(mpi.Code(err))
		}
		*newcomm = C.int(h)
		*req = C.int(mpi.RequestHandle(r))
		return 0
	}
	d, err := c.Dup()
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(newcomm, d)
	return 0
}

//export gompi_Comm_split
func gompi_Comm_split(comm, color, key C.int, newcomm *C.int, byType C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Comm_split"
	if byType != 0 {
		call = "MPI_Comm_split_type"
	}
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if newcomm == nil {
		return argErr(c, call, abi.ErrArg, "newcomm pointer is NULL")
	}
	var d *mpi.Comm
	var err error
	if byType != 0 {
		d, err = c.SplitType(int(color), int(key))
	} else {
		d, err = c.Split(int(color), int(key))
	}
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(newcomm, d)
	return 0
}

//export gompi_Comm_free
func gompi_Comm_free(comm *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if comm == nil {
		return argErr(nil, "MPI_Comm_free", abi.ErrArg, "communicator pointer is NULL")
	}
	c, rc := commArg("MPI_Comm_free", *comm)
	if c == nil {
		return rc
	}
	if err := c.Free(); err != nil {
		return C.int(mpi.Code(err))
	}
	*comm = C.int(abi.CommNull)
	return 0
}

//export gompi_Comm_compare
func gompi_Comm_compare(comm1, comm2 C.int, result *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	a, rc := commArg("MPI_Comm_compare", comm1)
	if a == nil {
		return rc
	}
	b, rc := commArg("MPI_Comm_compare", comm2)
	if b == nil {
		return rc
	}
	if result == nil {
		return argErr(a, "MPI_Comm_compare", abi.ErrArg, "result pointer is NULL")
	}
	*result = C.int(mpi.Compare(a, b))
	return 0
}

//export gompi_Comm_test_inter
func gompi_Comm_test_inter(comm C.int, flag *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Comm_test_inter", comm)
	if c == nil {
		return rc
	}
	if flag == nil {
		return argErr(c, "MPI_Comm_test_inter", abi.ErrArg, "flag pointer is NULL")
	}
	*flag = cbool(c.IsInter())
	return 0
}

//export gompi_Comm_remote_size
func gompi_Comm_remote_size(comm C.int, size *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Comm_remote_size", comm)
	if c == nil {
		return rc
	}
	if size == nil {
		return argErr(c, "MPI_Comm_remote_size", abi.ErrArg, "size pointer is NULL")
	}
	if !c.IsInter() {
		return argErr(c, "MPI_Comm_remote_size", abi.ErrComm, "not an intercommunicator")
	}
	*size = C.int(c.RemoteSize())
	return 0
}

//export gompi_Comm_set_name
func gompi_Comm_set_name(comm C.int, name *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Comm_set_name", comm)
	if c == nil {
		return rc
	}
	if name == nil {
		return argErr(c, "MPI_Comm_set_name", abi.ErrArg, "name is NULL")
	}
	n := C.GoString(name)
	if len(n) > abi.MaxObjectName-1 {
		n = n[:abi.MaxObjectName-1] // the standard allows truncation
	}
	c.SetName(n)
	return 0
}

//export gompi_Comm_get_name
func gompi_Comm_get_name(comm C.int, name *C.char, resultlen *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Comm_get_name", comm)
	if c == nil {
		return rc
	}
	if name == nil || resultlen == nil {
		return argErr(c, "MPI_Comm_get_name", abi.ErrArg, "name or resultlen is NULL")
	}
	putCString(name, c.Name())
	*resultlen = C.int(len(c.Name()))
	return 0
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

//export gompi_Intercomm_create
func gompi_Intercomm_create(local C.int, localLeader C.int, peer C.int, remoteLeader, tag C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Intercomm_create"
	lc, rc := commArg(call, local)
	if lc == nil {
		return rc
	}
	if out == nil {
		return argErr(lc, call, abi.ErrArg, "newintercomm pointer is NULL")
	}
	// The peer communicator matters only at the local leader.
	pc := mpi.CommFromHandle(int32(peer))
	if pc == nil && int(localLeader) == lc.Rank() && int32(peer) != abi.CommNull {
		return argErr(lc, call, abi.ErrComm, "invalid peer communicator handle")
	}
	ic, err := mpi.IntercommCreate(lc, int(localLeader), pc, int(remoteLeader), int(tag))
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(out, ic)
	return 0
}

//export gompi_Intercomm_merge
func gompi_Intercomm_merge(comm C.int, high C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Intercomm_merge", comm)
	if c == nil {
		return rc
	}
	if out == nil {
		return argErr(c, "MPI_Intercomm_merge", abi.ErrArg, "newintracomm pointer is NULL")
	}
	m, err := c.Merge(high != 0)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(out, m)
	return 0
}
