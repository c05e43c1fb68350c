package mpi

import (
	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/pml"
)

// Progress drives the engine once; Backoff gives the core away when a wait
// loop made no progress for a while.
func Progress() int          { return st.eng.Progress() }
func Backoff(spins *int)     { st.eng.Backoff(spins) }
func WaitRequest(r *Request) { st.eng.Wait(r) }

// Finish collects a completed request's status and frees it unless it is
// persistent (which just becomes inactive).
func Finish(r *Request) Status {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if r.Kind == KindExt {
		finishExt(r)
	}
	finishRecv(r)
	finishPart(r)
	s := r.Status
	if r.Persistent {
		r.Active = false
	} else {
		st.eng.Release(r)
	}
	return s
}

// Free releases a request the user no longer wants (MPI_Request_free): at
// once if inactive, at completion otherwise.
func Free(r *Request) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	freePart(r)
	if r.Kind == KindExt {
		freeExt(r)
	}
	if r.Active && !r.Done() {
		r.Freed = true
		return
	}
	st.eng.Release(r)
}

// Cancel cancels a pending receive, or asks the receiver to withdraw a send
// it has not matched yet (MPI_Test_cancelled tells which happened).
func Cancel(r *Request) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if r.Kind == KindExt {
		cancelExt(r)
		return
	}
	if r.Kind == pml.KindColl || r.Kind == pml.KindPart {
		return // collectives and partitioned cannot be cancelled (erroneous in MPI); ignore
	}
	if r.Kind == pml.KindRecv {
		st.eng.CancelRecv(r)
	} else {
		st.eng.CancelSend(r)
	}
}

// StatusError raises the error recorded in a completed request's status.
func StatusError(r *Request, s Status, call string) error {
	if s.Err == 0 {
		return nil
	}
	if err, ok := raiseFileStatus(s.Err); ok {
		return err
	}
	return CommOf(r).raise(errf(s.Err, call, "message from rank %d with tag %d is longer than the receive buffer", s.Source, s.Tag))
}

// RaiseInStatus reports MPI_ERR_IN_STATUS from a multiple-completion call.
func RaiseInStatus(r *Request, call string) error {
	if ff := lastFileErr; ff.f != nil {
		lastFileErr = fileFailure{}
		return ff.f.raise(errf(abi.ErrInStatus, call, "one or more requests failed; see the statuses"))
	}
	return CommOf(r).raise(errf(abi.ErrInStatus, call, "one or more requests failed; see the statuses"))
}
