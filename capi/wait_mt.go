package main

import "C"

import (
	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// At MPI_THREAD_MULTIPLE a thread waiting for requests releases the lock
// while it backs off; its requests are marked (Request.Waiter) meanwhile,
// so another thread's Wait, Test or Request_free of one of them is
// MPI_ERR_REQUEST instead of completing and freeing it under the waiter.

// busy reports a live request another thread is waiting for.
func busy(r *mpi.Request, kind int) bool { return mtlock.On && kind == reqLive && r.Waiter }

func busyRequest(call string) C.int {
	return argErr(nil, call, abi.ErrRequest, "another thread is waiting for this request")
}

// backoffMarked is mpi.Backoff with hs's live requests marked as waited for.
func backoffMarked(hs []C.int, spins *int) {
	if !mtlock.On {
		mpi.Backoff(spins)
		return
	}
	markWaiting(hs, true)
	mpi.Backoff(spins)
	markWaiting(hs, false)
}

func markWaiting(hs []C.int, on bool) {
	for _, h := range hs {
		if r, kind := classify(int32(h)); kind == reqLive {
			r.Waiter = on
		}
	}
}

// waitOne is mpi.WaitRequest with r marked as waited for.
func waitOne(r *mpi.Request) {
	if !mtlock.On {
		mpi.WaitRequest(r)
		return
	}
	r.Waiter = true
	mpi.WaitRequest(r)
	r.Waiter = false
}
