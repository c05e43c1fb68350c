package main

/*
#include <stdint.h>
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/internal/mtlock"
	"gompi/mpi"
	"gompi/op"
)

// Every collective has one export taking the mode (0 blocking, 1 MPI_I*,
// 2 *_init) and a request pointer (NULL when blocking).

// collArg resolves the communicator and checks the request pointer.
func collArg(base string, mode C.int, comm C.int, req *C.int) (*mpi.Comm, string, C.int) {
	m := mpi.CollMode(mode &^ wideBit)
	call := callC(collCall(base, m), mode&wideBit != 0)
	c, rc := commArg(call, comm)
	if c == nil {
		return nil, call, rc
	}
	if m != mpi.Blocking && req == nil {
		return nil, call, argErr(c, call, abi.ErrArg, "request pointer is NULL")
	}
	return c, call, 0
}

func collCall(base string, m mpi.CollMode) string { return mpi.CallName(base, m) }

// collDone stores the request of a nonblocking or persistent call.
func collDone(req *C.int, r *mpi.Request, err error) C.int {
	if err != nil {
		return C.int(mpi.Code(err))
	}
	if req != nil && r != nil {
		*req = C.int(mpi.RequestHandle(r))
	}
	return 0
}

func typeArr(p *C.int, n int) []*datatype.Type {
	if p == nil {
		return nil
	}
	out := make([]*datatype.Type, n)
	for i, v := range unsafe.Slice(p, n) {
		out[i] = mpi.TypeFromHandle(int32(v))
	}
	return out
}

// isRoot reports whether the caller is the root of a rooted collective: its
// rank on an intracommunicator, MPI_ROOT on an intercommunicator.
func isRoot(c *mpi.Comm, root C.int) bool {
	if c.IsInter() {
		return int(root) == abi.Root
	}
	return c.Rank() == int(root)
}

func dtype(h C.int) *datatype.Type { return mpi.TypeFromHandle(int32(h)) }
func opOf(h C.int) *op.Op          { return op.Lookup(int32(h)) }

//export gompi_Barrier
func gompi_Barrier(comm C.int, req *C.int, mode C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, _, rc := collArg("Barrier", mode, comm, req)
	if c == nil {
		return rc
	}
	mode &^= wideBit
	r, err := c.BarrierAs(mpi.CollMode(mode))
	return collDone(req, r, err)
}

//export gompi_Bcast
func gompi_Bcast(buf unsafe.Pointer, count C.long, dt, root, comm C.int, req *C.int, mode C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, _, rc := collArg("Bcast", mode, comm, req)
	if c == nil {
		return rc
	}
	mode &^= wideBit
	r, err := c.BcastAs(mpi.CollMode(mode), buf, int(count), dtype(dt), int(root))
	return collDone(req, r, err)
}

// gompi_Gather serves Gather (rcounts NULL) and Gatherv.
//
//export gompi_Gather
func gompi_Gather(sbuf unsafe.Pointer, scount C.long, stype C.int, rbuf unsafe.Pointer, rcount C.long,
	rcounts, displs unsafe.Pointer, rtype, root, comm C.int, req *C.int, mode C.int, v C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	base := "Gather"
	if v != 0 {
		base = "Gatherv"
	}
	c, call, rc := collArg(base, mode, comm, req)
	if c == nil {
		return rc
	}
	wide := mode&wideBit != 0
	mode &^= wideBit
	m := mpi.CollMode(mode)
	var r *mpi.Request
	var err error
	if v == 0 {
		r, err = c.GatherAs(m, sbuf, int(scount), dtype(stype), rbuf, int(rcount), dtype(rtype), int(root))
	} else {
		n := 0
		if isRoot(c, root) {
			if rcounts == nil || displs == nil {
				return argErr(c, call, abi.ErrArg, "recvcounts or displs is NULL")
			}
			n = c.PeerSize()
		}
		r, err = c.GathervAs(m, sbuf, int(scount), dtype(stype), rbuf, countSlice(rcounts, n, wide), countSlice(displs, n, wide), dtype(rtype), int(root))
	}
	return collDone(req, r, err)
}

// gompi_Scatter serves Scatter (scounts NULL) and Scatterv.
//
//export gompi_Scatter
func gompi_Scatter(sbuf unsafe.Pointer, scount C.long, scounts, displs unsafe.Pointer, stype C.int,
	rbuf unsafe.Pointer, rcount C.long, rtype, root, comm C.int, req *C.int, mode C.int, v C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	base := "Scatter"
	if v != 0 {
		base = "Scatterv"
	}
	c, call, rc := collArg(base, mode, comm, req)
	if c == nil {
		return rc
	}
	wide := mode&wideBit != 0
	mode &^= wideBit
	m := mpi.CollMode(mode)
	var r *mpi.Request
	var err error
	if v == 0 {
		r, err = c.ScatterAs(m, sbuf, int(scount), dtype(stype), rbuf, int(rcount), dtype(rtype), int(root))
	} else {
		n := 0
		if isRoot(c, root) {
			if scounts == nil || displs == nil {
				return argErr(c, call, abi.ErrArg, "sendcounts or displs is NULL")
			}
			n = c.PeerSize()
		}
		r, err = c.ScattervAs(m, sbuf, countSlice(scounts, n, wide), countSlice(displs, n, wide), dtype(stype), rbuf, int(rcount), dtype(rtype), int(root))
	}
	return collDone(req, r, err)
}

// gompi_Allgather serves Allgather (rcounts NULL) and Allgatherv.
//
//export gompi_Allgather
func gompi_Allgather(sbuf unsafe.Pointer, scount C.long, stype C.int, rbuf unsafe.Pointer, rcount C.long,
	rcounts, displs unsafe.Pointer, rtype, comm C.int, req *C.int, mode C.int, v C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	base := "Allgather"
	if v != 0 {
		base = "Allgatherv"
	}
	c, call, rc := collArg(base, mode, comm, req)
	if c == nil {
		return rc
	}
	wide := mode&wideBit != 0
	mode &^= wideBit
	m := mpi.CollMode(mode)
	var r *mpi.Request
	var err error
	if v == 0 {
		r, err = c.AllgatherAs(m, sbuf, int(scount), dtype(stype), rbuf, int(rcount), dtype(rtype))
	} else {
		if rcounts == nil || displs == nil {
			return argErr(c, call, abi.ErrArg, "recvcounts or displs is NULL")
		}
		r, err = c.AllgathervAs(m, sbuf, int(scount), dtype(stype), rbuf, countSlice(rcounts, c.PeerSize(), wide), countSlice(displs, c.PeerSize(), wide), dtype(rtype))
	}
	return collDone(req, r, err)
}

//export gompi_Alltoall
func gompi_Alltoall(sbuf unsafe.Pointer, scount C.long, stype C.int, rbuf unsafe.Pointer, rcount C.long, rtype, comm C.int, req *C.int, mode C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, _, rc := collArg("Alltoall", mode, comm, req)
	if c == nil {
		return rc
	}
	mode &^= wideBit
	r, err := c.AlltoallAs(mpi.CollMode(mode), sbuf, int(scount), dtype(stype), rbuf, int(rcount), dtype(rtype))
	return collDone(req, r, err)
}

// gompi_Alltoallv serves Alltoallv (stypes, rtypes NULL: stype, rtype) and
// Alltoallw (per-peer types, byte displacements).
//
//export gompi_Alltoallv
func gompi_Alltoallv(sbuf unsafe.Pointer, scounts, sdispls unsafe.Pointer, stype C.int, stypes *C.int,
	rbuf unsafe.Pointer, rcounts, rdispls unsafe.Pointer, rtype C.int, rtypes *C.int, comm C.int, req *C.int, mode C.int, w C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	base := "Alltoallv"
	if w != 0 {
		base = "Alltoallw"
	}
	c, call, rc := collArg(base, mode, comm, req)
	if c == nil {
		return rc
	}
	wide := mode&wideBit != 0
	mode &^= wideBit
	n := c.PeerSize()
	inPlace := mpi.IsInPlace(sbuf)
	if rcounts == nil || rdispls == nil || (!inPlace && (scounts == nil || sdispls == nil)) {
		return argErr(c, call, abi.ErrArg, "a count or displacement array is NULL")
	}
	m := mpi.CollMode(mode)
	var r *mpi.Request
	var err error
	if w == 0 {
		r, err = c.AlltoallvAs(m, sbuf, countSlice(scounts, n, wide), countSlice(sdispls, n, wide), dtype(stype), rbuf, countSlice(rcounts, n, wide), countSlice(rdispls, n, wide), dtype(rtype))
	} else {
		if rtypes == nil || (!inPlace && stypes == nil) {
			return argErr(c, call, abi.ErrArg, "a datatype array is NULL")
		}
		rt := typeArr(rtypes, n)
		for _, t := range rt {
			if t == nil {
				return argErr(c, call, abi.ErrType, "invalid datatype in recvtypes")
			}
		}
		var st []*datatype.Type
		if !inPlace {
			st = typeArr(stypes, n)
			for _, t := range st {
				if t == nil {
					return argErr(c, call, abi.ErrType, "invalid datatype in sendtypes")
				}
			}
		}
		r, err = c.AlltoallwAs(m, sbuf, countSlice(scounts, n, wide), countSlice(sdispls, n, wide), st, rbuf, countSlice(rcounts, n, wide), countSlice(rdispls, n, wide), rt)
	}
	return collDone(req, r, err)
}

//export gompi_Reduce
func gompi_Reduce(sbuf, rbuf unsafe.Pointer, count C.long, dt, o, root, comm C.int, req *C.int, mode C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, _, rc := collArg("Reduce", mode, comm, req)
	if c == nil {
		return rc
	}
	mode &^= wideBit
	r, err := c.ReduceAs(mpi.CollMode(mode), sbuf, rbuf, int(count), dtype(dt), opOf(o), int(root))
	return collDone(req, r, err)
}

// Reductions over every rank, by kind.
const (
	redAllreduce = iota
	redScan
	redExscan
	redScatterBlock
)

var redNames = [...]string{"Allreduce", "Scan", "Exscan", "Reduce_scatter_block"}

//export gompi_Allreduce
func gompi_Allreduce(sbuf, rbuf unsafe.Pointer, count C.long, dt, o, comm C.int, req *C.int, mode C.int, kind C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, _, rc := collArg(redNames[kind], mode, comm, req)
	if c == nil {
		return rc
	}
	mode &^= wideBit
	m, t, p := mpi.CollMode(mode), dtype(dt), opOf(o)
	var r *mpi.Request
	var err error
	switch kind {
	case redAllreduce:
		r, err = c.AllreduceAs(m, sbuf, rbuf, int(count), t, p)
	case redScan:
		r, err = c.ScanAs(m, sbuf, rbuf, int(count), t, p)
	case redExscan:
		r, err = c.ExscanAs(m, sbuf, rbuf, int(count), t, p)
	default:
		r, err = c.ReduceScatterBlockAs(m, sbuf, rbuf, int(count), t, p)
	}
	return collDone(req, r, err)
}

//export gompi_Reduce_scatter
func gompi_Reduce_scatter(sbuf, rbuf unsafe.Pointer, rcounts unsafe.Pointer, dt, o, comm C.int, req *C.int, mode C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, call, rc := collArg("Reduce_scatter", mode, comm, req)
	if c == nil {
		return rc
	}
	wide := mode&wideBit != 0
	mode &^= wideBit
	if rcounts == nil {
		return argErr(c, call, abi.ErrArg, "recvcounts is NULL")
	}
	r, err := c.ReduceScatterAs(mpi.CollMode(mode), sbuf, rbuf, countSlice(rcounts, c.Size(), wide), dtype(dt), opOf(o))
	return collDone(req, r, err)
}
