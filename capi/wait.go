package main

/*
#include <stdint.h>
#include "fastslot.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// Request handle classes.
const (
	reqInactive = iota // MPI_REQUEST_NULL or an inactive persistent request
	reqSendDone        // completed before a request was needed
	reqRecvDone        // a receive the C fast path finished inside MPI_Irecv
	reqProcNull
	reqLive
	reqInvalid
)

func classify(h int32) (*mpi.Request, int) {
	switch h {
	case abi.RequestNull:
		return nil, reqInactive
	case mpi.HandleSendDone:
		return nil, reqSendDone
	case mpi.HandleProcNullOp:
		return nil, reqProcNull
	}
	if d := fastSlot(h); d != nil {
		switch d.state {
		case C.GOMPI_SLOT_DONE:
			return nil, reqRecvDone
		case C.GOMPI_SLOT_POSTED:
			adoptFast()
		}
		if d.state != C.GOMPI_SLOT_ADOPTED {
			return nil, reqInvalid
		}
		h = int32(d.goh)
	}
	r := mpi.RequestFromHandle(h)
	if r == nil {
		return nil, reqInvalid
	}
	if r.Persistent && !r.Active {
		return r, reqInactive
	}
	return r, reqLive
}

// reqArray views a C request array; a negative count or a NULL array with
// requests in it is an argument error reported for call.
func reqArray(call string, arr *C.int, n C.int) ([]C.int, C.int) {
	switch {
	case n < 0:
		return nil, argErr(nil, call, abi.ErrCount, fmt.Sprintf("count %d is negative", n))
	case n == 0:
		return nil, 0
	case arr == nil:
		return nil, argErr(nil, call, abi.ErrArg, "request array is NULL")
	}
	return unsafe.Slice(arr, int(n)), 0
}

// complete finishes one done request: status out, handle nulled unless
// persistent. It returns the error class recorded in the status.
func complete(h *C.int, r *mpi.Request, kind int, status C.uintptr_t) int {
	switch kind {
	case reqInactive:
		putEmpty(status)
		return 0
	case reqSendDone:
		putStatus(status, &mpi.Status{})
		*h = C.int(abi.RequestNull)
		return 0
	case reqProcNull:
		putStatus(status, &mpi.ProcNullStatus)
		*h = C.int(abi.RequestNull)
		return 0
	case reqRecvDone:
		s := slotStatus(fastSlot(int32(*h)))
		slotRelease(int32(*h))
		putStatus(status, &s)
		*h = C.int(abi.RequestNull)
		return 0
	}
	persistent := r.Persistent
	s := mpi.Finish(r)
	if fastSlot(int32(*h)) != nil {
		slotRelease(int32(*h))
	}
	if !persistent {
		*h = C.int(abi.RequestNull)
	}
	putStatus(status, &s)
	return s.Err
}

func badRequest(call string) C.int {
	return argErr(nil, call, abi.ErrRequest, "invalid request handle")
}

//export gompi_Wait
func gompi_Wait(req *C.int, status C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString("MPI_Wait"))
	}
	if req == nil {
		return argErr(nil, "MPI_Wait", abi.ErrArg, "request pointer is NULL")
	}
	r, kind := classify(int32(*req))
	if kind == reqInvalid {
		return badRequest("MPI_Wait")
	}
	if busy(r, kind) {
		return busyRequest("MPI_Wait")
	}
	if kind == reqLive {
		waitOne(r)
	}
	comm := (*mpi.Request)(nil)
	if kind == reqLive {
		comm = r
	}
	s := mpi.Status{}
	if code := complete(req, r, kind, status); code != 0 {
		if !statusIgnored(status) {
			cs := cstatus(status)
			s = mpi.Status{Source: int(cs.source), Tag: int(cs.tag)}
		}
		s.Err = code
		return C.int(mpi.Code(mpi.StatusError(comm, s, "MPI_Wait")))
	}
	return 0
}

//export gompi_Test
func gompi_Test(req *C.int, flag *C.int, status C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString("MPI_Test"))
	}
	if req == nil || flag == nil {
		return argErr(nil, "MPI_Test", abi.ErrArg, "request or flag pointer is NULL")
	}
	r, kind := classify(int32(*req))
	if kind == reqInvalid {
		return badRequest("MPI_Test")
	}
	if busy(r, kind) {
		return busyRequest("MPI_Test")
	}
	if kind == reqLive && !r.Done() {
		mpi.Progress()
		if !r.Done() {
			*flag = 0
			return 0
		}
	}
	*flag = 1
	if code := complete(req, r, kind, status); code != 0 {
		return C.int(mpi.Code(mpi.StatusError(r, mpi.Status{Err: code}, "MPI_Test")))
	}
	return 0
}

// gompi_Waitall implements MPI_Waitall, and MPI_Testall when flag is non-NULL.
//
//export gompi_Waitall
func gompi_Waitall(n C.int, arr *C.int, statuses C.uintptr_t, flag *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Waitall"
	if flag != nil {
		call = "MPI_Testall"
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString(call))
	}
	hs, rc := reqArray(call, arr, n)
	if rc != 0 {
		return rc
	}
	for _, h := range hs {
		r, kind := classify(int32(h))
		if kind == reqInvalid {
			return badRequest(call)
		}
		if busy(r, kind) {
			return busyRequest(call)
		}
	}
	spins := 0
	// A request found done stays done: each poll resumes at the first one
	// not yet done instead of classifying the whole array again (128
	// handles of a bandwidth window: 13% of the waiting time).
	first := 0
	for {
		for first < len(hs) {
			if r, kind := classify(int32(hs[first])); kind == reqLive && !r.Done() {
				break
			}
			first++
		}
		if first == len(hs) {
			break
		}
		if mpi.Progress() == 0 {
			if flag != nil {
				*flag = 0
				return 0
			}
			backoffMarked(hs, &spins)
		} else {
			spins = 0
		}
	}
	if flag != nil {
		*flag = 1
	}
	var failed *mpi.Request
	for i := range hs {
		r, kind := classify(int32(hs[i]))
		sp := statusAt(statuses, i)
		if code := complete(&hs[i], r, kind, sp); code != 0 {
			failed = r
			setStatusError(sp, code)
		} else {
			setStatusError(sp, 0)
		}
	}
	if failed != nil {
		return C.int(mpi.Code(mpi.RaiseInStatus(failed, call)))
	}
	return 0
}

// gompi_Waitany implements MPI_Waitany, and MPI_Testany when flag is non-NULL.
//
//export gompi_Waitany
func gompi_Waitany(n C.int, arr *C.int, index *C.int, status C.uintptr_t, flag *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Waitany"
	if flag != nil {
		call = "MPI_Testany"
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString(call))
	}
	hs, rc := reqArray(call, arr, n)
	if rc != 0 {
		return rc
	}
	spins := 0
	for {
		active := false
		for i := range hs {
			r, kind := classify(int32(hs[i]))
			switch {
			case kind == reqInvalid:
				return badRequest(call)
			case busy(r, kind):
				return busyRequest(call)
			}
			switch kind {
			case reqInactive:
				continue
			case reqLive:
				if !r.Done() {
					active = true
					continue
				}
			}
			*index = C.int(i)
			if flag != nil {
				*flag = 1
			}
			if code := complete(&hs[i], r, kind, status); code != 0 {
				return C.int(mpi.Code(mpi.StatusError(r, mpi.Status{Err: code}, call)))
			}
			return 0
		}
		if !active {
			*index = C.int(abi.Undefined)
			if flag != nil {
				*flag = 1
			}
			putEmpty(status)
			return 0
		}
		if mpi.Progress() == 0 {
			if flag != nil {
				*flag = 0
				*index = C.int(abi.Undefined)
				return 0
			}
			backoffMarked(hs, &spins)
		} else {
			spins = 0
		}
	}
}

//export gompi_Waitsome
func gompi_Waitsome(n C.int, arr *C.int, outcount *C.int, indices *C.int, statuses C.uintptr_t, blocking C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Testsome"
	if blocking != 0 {
		call = "MPI_Waitsome"
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString(call))
	}
	hs, rc := reqArray(call, arr, n)
	if rc != 0 {
		return rc
	}
	idx, _ := reqArray(call, indices, n)
	spins := 0
	for {
		done, active := 0, false
		var failed *mpi.Request
		for i := range hs {
			r, kind := classify(int32(hs[i]))
			switch {
			case kind == reqInvalid:
				return badRequest(call)
			case busy(r, kind):
				return busyRequest(call)
			}
			switch kind {
			case reqInactive:
				continue
			case reqLive:
				if !r.Done() {
					active = true
					continue
				}
			}
			active = true
			sp := statusAt(statuses, done)
			idx[done] = C.int(i)
			code := complete(&hs[i], r, kind, sp)
			setStatusError(sp, code)
			if code != 0 {
				failed = r
			}
			done++
		}
		if !active {
			*outcount = C.int(abi.Undefined)
			return 0
		}
		if done > 0 || blocking == 0 {
			*outcount = C.int(done)
			if failed != nil {
				return C.int(mpi.Code(mpi.RaiseInStatus(failed, call)))
			}
			if done == 0 {
				mpi.Progress()
			}
			return 0
		}
		if mpi.Progress() == 0 {
			backoffMarked(hs, &spins)
		} else {
			spins = 0
		}
	}
}

//export gompi_Request_get_status
func gompi_Request_get_status(h C.int, flag *C.int, status C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString("MPI_Request_get_status"))
	}
	r, kind := classify(int32(h))
	switch kind {
	case reqInvalid:
		return badRequest("MPI_Request_get_status")
	case reqInactive:
		putEmpty(status)
	case reqRecvDone:
		st := slotStatus(fastSlot(int32(h)))
		putStatus(status, &st)
	case reqSendDone:
		putStatus(status, &mpi.Status{})
	case reqProcNull:
		putStatus(status, &mpi.ProcNullStatus)
	case reqLive:
		if !r.Done() {
			mpi.Progress()
		}
		if !r.Done() {
			*flag = 0
			return 0
		}
		mpi.FinishData(r) // a non-contiguous receive's data reaches the user buffer now
		s := mpi.PeekStatus(r)
		putStatus(status, &s)
	}
	*flag = 1
	return 0
}

//export gompi_Request_free
func gompi_Request_free(req *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString("MPI_Request_free"))
	}
	if req == nil {
		return argErr(nil, "MPI_Request_free", abi.ErrArg, "request pointer is NULL")
	}
	r, kind := classify(int32(*req))
	if busy(r, kind) {
		return busyRequest("MPI_Request_free")
	}
	switch kind {
	case reqInvalid:
		return badRequest("MPI_Request_free")
	case reqInactive:
		if r == nil {
			return argErr(nil, "MPI_Request_free", abi.ErrRequest, "request is MPI_REQUEST_NULL")
		}
		mpi.Free(r)
	case reqLive:
		mpi.Free(r)
		if fastSlot(int32(*req)) != nil {
			slotRelease(int32(*req))
		}
	case reqRecvDone:
		slotRelease(int32(*req))
	}
	*req = C.int(abi.RequestNull)
	return 0
}

//export gompi_Startall
func gompi_Startall(n C.int, arr *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString("MPI_Start"))
	}
	hs, rc := reqArray("MPI_Startall", arr, n)
	if rc != 0 {
		return rc
	}
	for _, h := range hs {
		r := mpi.RequestFromHandle(int32(h))
		if r == nil || !r.Persistent {
			return argErr(nil, "MPI_Start", abi.ErrRequest, "not a persistent request")
		}
		if err := mpi.Start(r); err != nil {
			return C.int(mpi.Code(err))
		}
	}
	return 0
}

//export gompi_Cancel
func gompi_Cancel(req *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return gompi_NotReady(C.CString("MPI_Cancel"))
	}
	if int32(*req) == abi.RequestNull {
		return badRequest("MPI_Cancel") // MPICH and Open MPI reject MPI_REQUEST_NULL here
	}
	r, kind := classify(int32(*req))
	switch kind {
	case reqInvalid:
		return badRequest("MPI_Cancel")
	case reqLive:
		mpi.Cancel(r)
	}
	return 0
}
