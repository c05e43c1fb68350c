package main

import "C"

import (
	"fmt"
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

//export gompi_Pinit
func gompi_Pinit(buf unsafe.Pointer, parts C.int, count C.long, dt, peer, tag, comm, info C.int, req *C.int, recv C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Psend_init"
	if recv != 0 {
		call = "MPI_Precv_init"
	}
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if req == nil {
		return argErr(c, call, abi.ErrArg, "request pointer is NULL")
	}
	if int32(info) != abi.InfoNull && mpi.InfoFromHandle(int32(info)) == nil {
		return argErr(c, call, abi.ErrInfo, "invalid info handle")
	}
	t := mpi.TypeFromHandle(int32(dt))
	var r *mpi.Request
	var err error
	if recv != 0 {
		r, err = c.PrecvInit(buf, int(parts), int(count), t, int(peer), int(tag))
	} else {
		r, err = c.PsendInit(buf, int(parts), int(count), t, int(peer), int(tag))
	}
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*req = C.int(mpi.RequestHandle(r))
	return 0
}

// partReq resolves a partitioned request handle for call.
func partReq(call string, h C.int) (*mpi.Request, C.int) {
	if !mpi.Ready() {
		return nil, C.int(mpi.Code(mpi.NotReady(call)))
	}
	r := mpi.RequestFromHandle(int32(h))
	if ok, _ := mpi.IsPartitioned(r); !ok {
		return nil, argErr(nil, call, abi.ErrRequest, "not a partitioned request")
	}
	return r, 0
}

//export gompi_Pready
func gompi_Pready(lo, hi, h C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Pready_range"
	if lo == hi {
		call = "MPI_Pready"
	}
	r, rc := partReq(call, h)
	if r == nil {
		return rc
	}
	return C.int(mpi.Code(mpi.Pready(call, r, int(lo), int(hi))))
}

//export gompi_Pready_list
func gompi_Pready_list(n C.int, parts *C.int, h C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	r, rc := partReq("MPI_Pready_list", h)
	if r == nil {
		return rc
	}
	switch {
	case n < 0:
		return argErr(mpi.CommOf(r), "MPI_Pready_list", abi.ErrArg, fmt.Sprintf("length %d is negative", n))
	case n == 0:
		return 0
	case parts == nil:
		return argErr(mpi.CommOf(r), "MPI_Pready_list", abi.ErrArg, "array_of_partitions is NULL")
	}
	return C.int(mpi.Code(mpi.PreadyList(r, unsafe.Slice((*int32)(unsafe.Pointer(parts)), int(n)))))
}

//export gompi_Parrived
func gompi_Parrived(h, i C.int, flag *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	r, rc := partReq("MPI_Parrived", h)
	if r == nil {
		return rc
	}
	if flag == nil {
		return argErr(mpi.CommOf(r), "MPI_Parrived", abi.ErrArg, "flag is NULL")
	}
	ok, err := mpi.Parrived(r, int(i))
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*flag = 0
	if ok {
		*flag = 1
	}
	return 0
}
