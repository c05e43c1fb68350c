package main

/*
#include <stdint.h>
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

var neighborNames = [3][5]string{
	{"MPI_Neighbor_allgather", "MPI_Neighbor_allgatherv", "MPI_Neighbor_alltoall", "MPI_Neighbor_alltoallv", "MPI_Neighbor_alltoallw"},
	{"MPI_Ineighbor_allgather", "MPI_Ineighbor_allgatherv", "MPI_Ineighbor_alltoall", "MPI_Ineighbor_alltoallv", "MPI_Ineighbor_alltoallw"},
	{"MPI_Neighbor_allgather_init", "MPI_Neighbor_allgatherv_init", "MPI_Neighbor_alltoall_init", "MPI_Neighbor_alltoallv_init", "MPI_Neighbor_alltoallw_init"},
}

// Neighbourhood collective kinds.
const (
	nbAllgather = iota
	nbAllgatherv
	nbAlltoall
	nbAlltoallv
	nbAlltoallw
)

func aints(p unsafe.Pointer, n int) []int {
	if p == nil {
		return nil
	}
	out := make([]int, n)
	for i, v := range unsafe.Slice((*C.long)(p), n) {
		out[i] = int(v)
	}
	return out
}

// gompi_Neighbor serves every neighbourhood collective: kind picks which
// arguments matter (sdispls/rdispls are MPI_Aint arrays for alltoallw).
//
//export gompi_Neighbor
func gompi_Neighbor(kind C.int, sbuf unsafe.Pointer, scount C.long, scounts unsafe.Pointer, sdispls unsafe.Pointer, stype C.int, stypes *C.int,
	rbuf unsafe.Pointer, rcount C.long, rcounts unsafe.Pointer, rdispls unsafe.Pointer, rtype C.int, rtypes *C.int,
	comm C.int, req *C.int, mode C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	wide := mode&wideBit != 0
	mode &^= wideBit
	call := callC(neighborNames[mode][kind], wide)
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	m := mpi.CollMode(mode)
	if m != mpi.Blocking && req == nil {
		return argErr(c, call, abi.ErrArg, "request pointer is NULL")
	}
	in, out, err := c.Neighbors(call)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	ni, no := len(in), len(out)
	null := func(ps ...unsafe.Pointer) bool {
		for _, p := range ps {
			if p == nil {
				return true
			}
		}
		return false
	}
	var r *mpi.Request
	switch kind {
	case nbAllgather:
		r, err = c.NeighborAllgatherAs(m, sbuf, int(scount), dtype(stype), rbuf, int(rcount), dtype(rtype))
	case nbAllgatherv:
		if ni > 0 && null(rcounts, rdispls) {
			return argErr(c, call, abi.ErrArg, "recvcounts or displs is NULL")
		}
		r, err = c.NeighborAllgathervAs(m, sbuf, int(scount), dtype(stype), rbuf, countSlice(rcounts, ni, wide), countSlice(rdispls, ni, wide), dtype(rtype))
	case nbAlltoall:
		r, err = c.NeighborAlltoallAs(m, sbuf, int(scount), dtype(stype), rbuf, int(rcount), dtype(rtype))
	case nbAlltoallv:
		if (no > 0 && null(scounts, sdispls)) || (ni > 0 && null(rcounts, rdispls)) {
			return argErr(c, call, abi.ErrArg, "a count or displacement array is NULL")
		}
		r, err = c.NeighborAlltoallvAs(m, sbuf, countSlice(scounts, no, wide), countSlice(sdispls, no, wide), dtype(stype),
			rbuf, countSlice(rcounts, ni, wide), countSlice(rdispls, ni, wide), dtype(rtype))
	default:
		if (no > 0 && null(scounts, sdispls, unsafe.Pointer(stypes))) ||
			(ni > 0 && null(rcounts, rdispls, unsafe.Pointer(rtypes))) {
			return argErr(c, call, abi.ErrArg, "a count, displacement or type array is NULL")
		}
		r, err = c.NeighborAlltoallwAs(m, sbuf, countSlice(scounts, no, wide), aints(sdispls, no), typeArr(stypes, no),
			rbuf, countSlice(rcounts, ni, wide), aints(rdispls, ni), typeArr(rtypes, ni))
	}
	return collDone(req, r, err)
}
