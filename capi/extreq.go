package main

/*
#include <stdint.h>
#include <stdlib.h>
#include "gompi.h"
int gompi_call_grequest_query(void *fn, void *extra, MPI_Status *s);
int gompi_call_grequest_free(void *fn, void *extra);
int gompi_call_grequest_cancel(void *fn, void *extra, int complete);
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// fromCStatus reads a status a user callback filled (count in bytes, as
// MPI_Status_set_elements stores it).
func fromCStatus(cs *C.MPI_Status) mpi.Status {
	p := (*cStatus)(unsafe.Pointer(cs))
	return mpi.Status{
		Source:    int(p.source),
		Tag:       int(p.tag),
		Err:       int(p.err),
		Count:     int(uint32(p.countLo)) | int(uint32(p.countHiCancelled)>>1)<<32,
		Cancelled: p.countHiCancelled&1 != 0,
	}
}

//export gompi_Grequest_start
func gompi_Grequest_start(query, free, cancel unsafe.Pointer, extra C.uintptr_t, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Grequest_start"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "request pointer is NULL")
	}
	if query == nil || free == nil || cancel == nil {
		return argErr(nil, call, abi.ErrArg, "a callback is NULL")
	}
	// extra_state is the user's opaque value: kept as an integer, handed back as is.
	ex := uintptr(extra)
	xp := func() unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&ex)) }
	g := &mpi.Grequest{
		Query: func(s *mpi.Status) int {
			cs := (*C.MPI_Status)(C.calloc(1, C.size_t(abi.StatusSize)))
			defer C.free(unsafe.Pointer(cs))
			// Defaults a query that sets nothing leaves: an empty status.
			p := (*cStatus)(unsafe.Pointer(cs))
			p.source, p.tag = int32(abi.AnySource), int32(abi.AnyTag)
			rc := int(C.gompi_call_grequest_query(query, xp(), cs))
			*s = fromCStatus(cs)
			s.Err = 0
			return rc
		},
		Free:   func() int { return int(C.gompi_call_grequest_free(free, xp())) },
		Cancel: func(done bool) int { return int(C.gompi_call_grequest_cancel(cancel, xp(), boolInt(done))) },
	}
	*out = C.int(mpi.RequestHandle(mpi.StartGrequest(g)))
	return 0
}

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

//export gompi_Grequest_complete
func gompi_Grequest_complete(h C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Grequest_complete"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	r := mpi.RequestFromHandle(int32(h))
	if r == nil {
		return badRequest(call)
	}
	return C.int(mpi.Code(mpi.CompleteGrequest(r)))
}

//export gompi_Isendrecv
func gompi_Isendrecv(sbuf unsafe.Pointer, scount C.long, stype, dest, stag C.int, rbuf unsafe.Pointer,
	rcount C.long, rtype, src, rtag, comm C.int, req *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Isendrecv", comm)
	if c == nil {
		return rc
	}
	if req == nil {
		return argErr(c, "MPI_Isendrecv", abi.ErrArg, "request pointer is NULL")
	}
	r, err := c.Isendrecv(sbuf, int(scount), mpi.TypeFromHandle(int32(stype)), int(dest), int(stag),
		rbuf, int(rcount), mpi.TypeFromHandle(int32(rtype)), int(src), int(rtag))
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*req = C.int(mpi.RequestHandle(r))
	return 0
}

//export gompi_Isendrecv_replace
func gompi_Isendrecv_replace(buf unsafe.Pointer, count C.long, dt, dest, stag, src, rtag, comm C.int, req *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Isendrecv_replace", comm)
	if c == nil {
		return rc
	}
	if req == nil {
		return argErr(c, "MPI_Isendrecv_replace", abi.ErrArg, "request pointer is NULL")
	}
	r, err := c.IsendrecvReplace(buf, int(count), mpi.TypeFromHandle(int32(dt)), int(dest), int(stag), int(src), int(rtag))
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*req = C.int(mpi.RequestHandle(r))
	return 0
}

// gompi_Request_get_status_multi is MPI_Request_get_status_any (mode 0),
// _all (1) and _some (2): like the Test family, but no request is freed
// or made inactive.
//
//export gompi_Request_get_status_multi
func gompi_Request_get_status_multi(n C.int, arr *C.int, index *C.int, flag *C.int, indices *C.int, statuses C.uintptr_t, mode C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := [...]string{"MPI_Request_get_status_any", "MPI_Request_get_status_all", "MPI_Request_get_status_some"}[mode]
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	hs, rc := reqArray(call, arr, n)
	if rc != 0 {
		return rc
	}
	if (mode == 0 && (index == nil || flag == nil)) || (mode == 1 && flag == nil) || (mode == 2 && (index == nil || (n > 0 && indices == nil))) {
		return argErr(nil, call, abi.ErrArg, "an output pointer is NULL")
	}
	if statuses == 0 && (mode == 0 || n > 0) { // MPI_STATUS(ES)_IGNORE is not NULL
		return argErr(nil, call, abi.ErrArg, "the status argument is NULL (use MPI_STATUS_IGNORE or MPI_STATUSES_IGNORE)")
	}
	mpi.Progress()
	done := make([]bool, len(hs))
	st := make([]mpi.Status, len(hs))
	active, ndone := 0, 0
	for i, h := range hs {
		r, kind := classify(int32(h))
		switch kind {
		case reqInvalid:
			return badRequest(call)
		case reqInactive:
			st[i] = emptyStatus
			continue
		case reqRecvDone:
			st[i] = slotStatus(fastSlot(int32(h)))
			done[i] = true
		case reqSendDone:
			done[i] = true
		case reqProcNull:
			st[i] = mpi.ProcNullStatus
			done[i] = true
		case reqLive:
			if r.Done() {
				mpi.FinishData(r)
				st[i] = mpi.PeekStatus(r)
				done[i] = true
			}
		}
		active++
		if done[i] {
			ndone++
		}
	}
	switch mode {
	case 0: // any
		*flag = 0
		*index = C.int(abi.Undefined)
		if active == 0 {
			*flag = 1
			putEmpty(statuses)
			return 0
		}
		for i := range hs {
			if done[i] {
				*flag, *index = 1, C.int(i)
				putStatus(statuses, &st[i])
				break
			}
		}
	case 1: // all
		*flag = boolInt(ndone == active)
		if ndone == active {
			for i := range hs {
				if done[i] {
					putStatus(statusAt(statuses, i), &st[i])
				} else {
					putEmpty(statusAt(statuses, i))
				}
			}
		}
	case 2: // some
		if active == 0 {
			*index = C.int(abi.Undefined)
			return 0
		}
		out := unsafe.Slice(indices, len(hs))
		k := 0
		for i := range hs {
			if done[i] {
				out[k] = C.int(i)
				putStatus(statusAt(statuses, k), &st[i])
				k++
			}
		}
		*index = C.int(k)
	}
	return 0
}
