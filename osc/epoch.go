package osc

import (
	"gompi/abi"
)

// Lock states per target (Epoch.locks).
const (
	lockNone      = 0
	lockShared    = 1
	lockExclusive = 2
	lockNoCheck   = 4 // taken with MPI_MODE_NOCHECK: nothing to release
)

// Epoch is the synchronisation state of one window at one rank: which
// targets it may access and which exposure epoch is open. It checks the
// order of the synchronisation calls (MPI_ERR_RMA_SYNC) and their
// assertions (MPI_ERR_ASSERT).
type Epoch struct {
	fence      bool // a fence opened an access epoch to every target
	lockAll    int  // 0, or lockShared (|lockNoCheck)
	locks      []uint8
	nlocks     int
	started    bool
	startOf    []bool
	startGroup []int
	posted     bool
	postGroup  []int
}

func newEpoch(n int) Epoch {
	return Epoch{locks: make([]uint8, n), startOf: make([]bool, n)}
}

// CanAccess reports whether an operation to target t is in an access epoch.
func (e *Epoch) CanAccess(t int) bool {
	return e.fence || e.lockAll != 0 || e.locks[t] != 0 || e.startOf[t]
}

// Passive reports whether target t is in a passive-target epoch (where a
// flush is legal); t < 0 asks whether any target is.
func (e *Epoch) Passive(t int) bool {
	if t < 0 {
		return e.lockAll != 0 || e.nlocks > 0
	}
	return e.lockAll != 0 || e.locks[t] != 0
}

func syncErr(msg string) *Error { return errf(abi.ErrRmaSync, msg) }

func checkAssert(assert, allowed int) *Error {
	if assert&^allowed != 0 {
		return errf(abi.ErrAssert, "invalid assertion for this call")
	}
	return nil
}

// Active reports whether a lock, lock_all, start or post epoch is open
// (MPI_Win_free and MPI_Win_fence must not be called then).
func (e *Epoch) Active() bool { return e.nlocks > 0 || e.lockAll != 0 || e.started || e.posted }

func (e *Epoch) fenceCheck(assert int) *Error {
	if err := checkAssert(assert, abi.ModeNostore|abi.ModeNoput|abi.ModeNoprecede|abi.ModeNosucceed); err != nil {
		return err
	}
	if e.Active() {
		return syncErr("a lock, lock_all, start or post epoch is open")
	}
	return nil
}

func (e *Epoch) fenceDone(assert int) { e.fence = assert&abi.ModeNosucceed == 0 }

func (e *Epoch) lockCheck(typ, t, assert int) *Error {
	if typ != abi.LockShared && typ != abi.LockExclusive {
		return errf(abi.ErrLocktype, "lock type must be MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE")
	}
	if err := checkAssert(assert, abi.ModeNocheck); err != nil {
		return err
	}
	if e.locks[t] != 0 || e.lockAll != 0 {
		return syncErr("the target is already locked by this process")
	}
	if e.started {
		return syncErr("an access epoch started by MPI_Win_start is open")
	}
	return nil
}

func (e *Epoch) setLock(t int, state uint8) {
	e.fence = false
	e.locks[t] = state
	e.nlocks++
}

func (e *Epoch) unlockCheck(t int) *Error {
	if e.locks[t] == 0 {
		return syncErr("the target is not locked by this process")
	}
	return nil
}

func (e *Epoch) clearLock(t int) uint8 {
	s := e.locks[t]
	e.locks[t] = 0
	e.nlocks--
	return s
}

func (e *Epoch) lockAllCheck(assert int) *Error {
	if err := checkAssert(assert, abi.ModeNocheck); err != nil {
		return err
	}
	if e.lockAll != 0 || e.nlocks > 0 {
		return syncErr("the window is already locked by this process")
	}
	if e.started {
		return syncErr("an access epoch started by MPI_Win_start is open")
	}
	return nil
}

func (e *Epoch) flushCheck(t int) *Error {
	if t >= 0 && e.locks[t] == 0 && e.lockAll == 0 {
		return syncErr("the target is not locked by this process")
	}
	if t < 0 && e.nlocks == 0 && e.lockAll == 0 {
		return syncErr("no passive-target epoch is open")
	}
	return nil
}

func (e *Epoch) startCheck(assert int) *Error {
	if err := checkAssert(assert, abi.ModeNocheck); err != nil {
		return err
	}
	if e.started {
		return syncErr("an access epoch started by MPI_Win_start is already open")
	}
	if e.nlocks > 0 || e.lockAll != 0 {
		return syncErr("a passive-target epoch is open")
	}
	return nil
}

func (e *Epoch) setStart(group []int) {
	e.fence = false
	e.started = true
	e.startGroup = append(e.startGroup[:0], group...)
	for _, t := range group {
		e.startOf[t] = true
	}
}

func (e *Epoch) completeCheck() *Error {
	if !e.started {
		return syncErr("no access epoch was started by MPI_Win_start")
	}
	return nil
}

func (e *Epoch) clearStart() {
	for _, t := range e.startGroup {
		e.startOf[t] = false
	}
	e.started = false
}

func (e *Epoch) postCheck(assert int) *Error {
	if err := checkAssert(assert, abi.ModeNocheck|abi.ModeNostore|abi.ModeNoput); err != nil {
		return err
	}
	if e.posted {
		return syncErr("an exposure epoch posted by MPI_Win_post is already open")
	}
	return nil
}

func (e *Epoch) waitCheck() *Error {
	if !e.posted {
		return syncErr("no exposure epoch was posted by MPI_Win_post")
	}
	return nil
}
