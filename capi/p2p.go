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
	"gompi/pml"
)

var sendNames = [...]string{"MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend"}

//export gompi_Send
func gompi_Send(buf unsafe.Pointer, count C.long, dt, dest, tag, comm, mode C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg(sendNames[mode], comm)
	if c == nil {
		return rc
	}
	t := mpi.TypeFromHandle(int32(dt))
	var err error
	switch uint8(mode) {
	case pml.ModeStandard:
		err = c.Send(buf, int(count), t, int(dest), int(tag))
	case pml.ModeSync:
		err = c.Ssend(buf, int(count), t, int(dest), int(tag))
	case pml.ModeReady:
		err = c.Rsend(buf, int(count), t, int(dest), int(tag))
	default:
		err = c.Bsend(buf, int(count), t, int(dest), int(tag))
	}
	return C.int(mpi.Code(err))
}

var isendNames = [2][4]string{{"MPI_Isend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend"},
	{"MPI_Send_init", "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Bsend_init"}}

//export gompi_Isend
func gompi_Isend(buf unsafe.Pointer, count C.long, dt, dest, tag, comm, mode C.int, req *C.int, persistent C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := isendNames[persistent][mode]
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if req == nil {
		return argErr(c, call, abi.ErrArg, "request pointer is NULL")
	}
	t := mpi.TypeFromHandle(int32(dt))
	var r *mpi.Request
	var err error
	switch {
	case persistent != 0:
		r, err = c.SendInit(buf, int(count), t, int(dest), int(tag), uint8(mode))
	case uint8(mode) == pml.ModeBuffered:
		err = c.Bsend(buf, int(count), t, int(dest), int(tag))
	default:
		r, err = c.Isend(buf, int(count), t, int(dest), int(tag), uint8(mode))
	}
	if err != nil {
		return C.int(mpi.Code(err))
	}
	if r == nil {
		*req = C.int(mpi.HandleSendDone)
	} else {
		*req = C.int(mpi.RequestHandle(r))
	}
	return 0
}

//export gompi_Recv
func gompi_Recv(buf unsafe.Pointer, count C.long, dt, src, tag, comm C.int, status C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Recv", comm)
	if c == nil {
		return rc
	}
	s, err := c.Recv(buf, int(count), mpi.TypeFromHandle(int32(dt)), int(src), int(tag))
	if mpi.Code(err) == 0 || mpi.Code(err) == abi.ErrTruncate {
		putStatus(status, &s)
	}
	return C.int(mpi.Code(err))
}

//export gompi_Irecv
func gompi_Irecv(buf unsafe.Pointer, count C.long, dt, src, tag, comm C.int, req *C.int, persistent C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Irecv"
	if persistent != 0 {
		call = "MPI_Recv_init"
	}
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if req == nil {
		return argErr(c, call, abi.ErrArg, "request pointer is NULL")
	}
	t := mpi.TypeFromHandle(int32(dt))
	var r *mpi.Request
	var err error
	if persistent != 0 {
		r, err = c.RecvInit(buf, int(count), t, int(src), int(tag))
	} else {
		r, err = c.Irecv(buf, int(count), t, int(src), int(tag))
	}
	if err != nil {
		return C.int(mpi.Code(err))
	}
	if r == nil {
		*req = C.int(mpi.HandleProcNullOp)
	} else {
		*req = C.int(mpi.RequestHandle(r))
	}
	return 0
}

//export gompi_Sendrecv
func gompi_Sendrecv(sbuf unsafe.Pointer, scount C.long, stype, dest, stag C.int, rbuf unsafe.Pointer,
	rcount C.long, rtype, src, rtag, comm C.int, status C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Sendrecv", comm)
	if c == nil {
		return rc
	}
	s, err := c.Sendrecv(sbuf, int(scount), mpi.TypeFromHandle(int32(stype)), int(dest), int(stag),
		rbuf, int(rcount), mpi.TypeFromHandle(int32(rtype)), int(src), int(rtag))
	if mpi.Code(err) == 0 || mpi.Code(err) == abi.ErrTruncate {
		putStatus(status, &s)
	}
	return C.int(mpi.Code(err))
}

//export gompi_Sendrecv_replace
func gompi_Sendrecv_replace(buf unsafe.Pointer, count C.long, dt, dest, stag, src, rtag, comm C.int, status C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Sendrecv_replace", comm)
	if c == nil {
		return rc
	}
	s, err := c.SendrecvReplace(buf, int(count), mpi.TypeFromHandle(int32(dt)), int(dest), int(stag), int(src), int(rtag))
	if mpi.Code(err) == 0 || mpi.Code(err) == abi.ErrTruncate {
		putStatus(status, &s)
	}
	return C.int(mpi.Code(err))
}

//export gompi_Buffer_attach
func gompi_Buffer_attach(buf unsafe.Pointer, size C.long, wide C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString(callC("MPI_Buffer_attach", wide != 0)))
	}
	return C.int(mpi.Code(mpi.BufferAttach(buf, int(size))))
}

//export gompi_Buffer_detach
func gompi_Buffer_detach(addr unsafe.Pointer, size unsafe.Pointer, wide C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := callC("MPI_Buffer_detach", wide != 0)
	if !mpi.Ready() {
		return gompi_NotReady(C.CString(call))
	}
	buf, n, err := mpi.BufferDetach()
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*(*unsafe.Pointer)(addr) = buf
	if !putCount(size, wide != 0, n) {
		return argErr(nil, call, abi.ErrValueTooLarge, "the buffer size does not fit an int: use MPI_Buffer_detach_c")
	}
	return 0
}

//export gompi_Probe
func gompi_Probe(src, tag, comm C.int, flag *C.int, status C.uintptr_t, blocking C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Iprobe"
	if blocking != 0 {
		call = "MPI_Probe"
	}
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	s, ok, err := c.Probe(call, int(src), int(tag), blocking != 0)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	if flag != nil {
		*flag = 0
		if ok {
			*flag = 1
		}
	}
	if ok {
		putStatus(status, &s)
	}
	return 0
}

//export gompi_Mprobe
func gompi_Mprobe(src, tag, comm C.int, flag *C.int, msg *C.int, status C.uintptr_t, blocking C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Improbe"
	if blocking != 0 {
		call = "MPI_Mprobe"
	}
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	h, s, ok, err := c.Mprobe(call, int(src), int(tag), blocking != 0)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	if flag != nil {
		*flag = 0
		if ok {
			*flag = 1
		}
	}
	if ok {
		*msg = C.int(h)
		putStatus(status, &s)
	}
	return 0
}

//export gompi_Mrecv
func gompi_Mrecv(buf unsafe.Pointer, count C.long, dt C.int, msg *C.int, status C.uintptr_t, req *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Mrecv"
	if req != nil {
		call = "MPI_Imrecv"
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString(call))
	}
	if msg == nil {
		return argErr(nil, call, abi.ErrArg, "message pointer is NULL")
	}
	r, s, err := mpi.Mrecv(call, buf, int(count), mpi.TypeFromHandle(int32(dt)), int32(*msg), req == nil)
	if err != nil && mpi.Code(err) != abi.ErrTruncate {
		return C.int(mpi.Code(err))
	}
	*msg = C.int(abi.MessageNull)
	if req != nil {
		if r == nil {
			*req = C.int(mpi.HandleProcNullOp)
		} else {
			*req = C.int(mpi.RequestHandle(r))
		}
		return 0
	}
	putStatus(status, &s)
	return C.int(mpi.Code(err))
}
