package mpi

import (
	"gompi/abi"
	"gompi/internal/mtlock"
)

// Test reports whether r completed; on completion it returns the status and
// frees r (unless persistent). A nil r is complete.
func Test(r *Request) (bool, Status, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if r == nil {
		return true, ProcNullStatus, nil
	}
	if !r.Done() {
		Progress()
		if !r.Done() {
			return false, Status{}, nil
		}
	}
	s := Finish(r)
	return true, s, StatusError(r, s, "MPI_Test")
}

// Waitall completes every request; nil entries are already complete. The
// error is MPI_ERR_IN_STATUS when any status carries an error.
func Waitall(reqs []*Request) ([]Status, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	spins := 0
	for {
		all := true
		for _, r := range reqs {
			if r != nil && !r.Done() {
				all = false
				break
			}
		}
		if all {
			break
		}
		if Progress() == 0 {
			Backoff(&spins)
		} else {
			spins = 0
		}
	}
	out := make([]Status, len(reqs))
	var failed *Request
	for i, r := range reqs {
		if r == nil {
			out[i] = ProcNullStatus
			continue
		}
		out[i] = Finish(r)
		if out[i].Err != 0 {
			failed = r
		}
	}
	if failed != nil {
		return out, RaiseInStatus(failed, "MPI_Waitall")
	}
	return out, nil
}

// Waitany completes one request and returns its index (abi.Undefined when
// every entry is nil).
func Waitany(reqs []*Request) (int, Status, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	spins := 0
	for {
		active := false
		for i, r := range reqs {
			if r == nil {
				continue
			}
			active = true
			if r.Done() {
				s := Finish(r)
				return i, s, StatusError(r, s, "MPI_Waitany")
			}
		}
		if !active {
			return abi.Undefined, Status{Source: abi.AnySource, Tag: abi.AnyTag}, nil
		}
		if Progress() == 0 {
			Backoff(&spins)
		} else {
			spins = 0
		}
	}
}
