package mpi

import (
	"fmt"

	"gompi/abi"
	"gompi/group"
	"gompi/osc"
)

func (w *Win) check(call string, e *osc.Error) error {
	if e != nil {
		return w.raiseOsc(call, e)
	}
	return nil
}

// Fence closes the previous fence epoch and opens the next (MPI_Win_fence):
// a barrier on the window's communicator and a memory fence.
func (w *Win) Fence(assert int) error {
	const call = "MPI_Win_fence"
	if e := w.w.FenceCheck(assert); e != nil {
		return w.raiseOsc(call, e)
	}
	// Operations to shared-memory targets completed at their calls, those
	// to other nodes complete here; the barrier orders them and the local
	// stores before the fence against the accesses after it.
	e := w.w.FlushRemote(-1)
	w.comm.Barrier()
	w.w.FenceDone(assert)
	if e != nil {
		return w.raiseOsc(call, e)
	}
	return nil
}

func (w *Win) rankArg(call string, t int) error {
	if t < 0 || t >= w.comm.size {
		return w.raise(call, abi.ErrRank, fmt.Sprintf("rank %d is not in the window", t))
	}
	return nil
}

// Lock opens a passive-target epoch to t (MPI_Win_lock).
func (w *Win) Lock(typ, t, assert int) error {
	const call = "MPI_Win_lock"
	if w.hints.noLocks {
		return w.raise(call, abi.ErrRmaSync, "the window was created with the no_locks hint")
	}
	if t == abi.ProcNull {
		return nil
	}
	if err := w.rankArg(call, t); err != nil {
		return err
	}
	return w.check(call, w.w.Lock(typ, t, assert))
}

// Unlock ends the epoch to t (MPI_Win_unlock).
func (w *Win) Unlock(t int) error {
	const call = "MPI_Win_unlock"
	if t == abi.ProcNull {
		return nil
	}
	if err := w.rankArg(call, t); err != nil {
		return err
	}
	return w.check(call, w.w.Unlock(t))
}

// LockAll is MPI_Win_lock_all.
func (w *Win) LockAll(assert int) error {
	const call = "MPI_Win_lock_all"
	if w.hints.noLocks {
		return w.raise(call, abi.ErrRmaSync, "the window was created with the no_locks hint")
	}
	return w.check(call, w.w.LockAll(assert))
}

// UnlockAll is MPI_Win_unlock_all.
func (w *Win) UnlockAll() error { return w.check("MPI_Win_unlock_all", w.w.UnlockAll()) }

// Flush completes the operations to t (MPI_Win_flush; they already are).
func (w *Win) Flush(t int) error { return w.flush("MPI_Win_flush", t) }

// FlushLocal is MPI_Win_flush_local.
func (w *Win) FlushLocal(t int) error { return w.flush("MPI_Win_flush_local", t) }

// FlushAll is MPI_Win_flush_all.
func (w *Win) FlushAll() error { return w.check("MPI_Win_flush_all", w.w.Flush(-1)) }

// FlushLocalAll is MPI_Win_flush_local_all.
func (w *Win) FlushLocalAll() error { return w.check("MPI_Win_flush_local_all", w.w.Flush(-1)) }

func (w *Win) flush(call string, t int) error {
	if t == abi.ProcNull {
		return nil
	}
	if err := w.rankArg(call, t); err != nil {
		return err
	}
	return w.check(call, w.w.Flush(t))
}

// Sync is MPI_Win_sync: public and private copies are one (unified model),
// so a memory barrier; on a window spanning nodes it also serves the
// operations other nodes sent (a target polling its memory sees them).
func (w *Win) Sync() error {
	w.w.Sync()
	if w.net != nil {
		st.eng.Progress()
	}
	return nil
}

// ranksOf translates a group into window ranks.
func (w *Win) ranksOf(call string, g *group.Group) ([]int, error) {
	out := make([]int, g.Size())
	for i := range out {
		wr := g.WorldRank(i)
		r := -1
		for j, x := range w.comm.group {
			if x == wr {
				r = j
				break
			}
		}
		if r < 0 {
			return nil, w.raise(call, abi.ErrGroup, "the group holds a process that is not in the window")
		}
		out[i] = r
	}
	return out, nil
}

// Post opens an exposure epoch for the origins in g (MPI_Win_post).
func (w *Win) Post(g *group.Group, assert int) error {
	const call = "MPI_Win_post"
	rs, err := w.ranksOf(call, g)
	if err != nil {
		return err
	}
	return w.check(call, w.w.Post(rs, assert))
}

// Start opens an access epoch to the targets in g (MPI_Win_start).
func (w *Win) Start(g *group.Group, assert int) error {
	const call = "MPI_Win_start"
	rs, err := w.ranksOf(call, g)
	if err != nil {
		return err
	}
	return w.check(call, w.w.Start(rs, assert))
}

// Complete ends the access epoch (MPI_Win_complete).
func (w *Win) Complete() error { return w.check("MPI_Win_complete", w.w.Complete()) }

// Wait ends the exposure epoch once every origin completed (MPI_Win_wait).
func (w *Win) Wait() error { return w.check("MPI_Win_wait", w.w.Wait()) }

// Test is MPI_Win_test.
func (w *Win) Test() (bool, error) {
	ok, e := w.w.Test()
	if e != nil {
		return false, w.raiseOsc("MPI_Win_test", e)
	}
	if !ok {
		st.eng.Progress()
	}
	return ok, nil
}
