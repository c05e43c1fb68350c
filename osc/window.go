package osc

import (
	"sync/atomic"
	"unsafe"

	"gompi/abi"
)

// Path is how an origin reaches a target's memory.
type Path int8

const (
	PathDirect Path = iota + 1 // plain loads and stores through a mapping
	PathCMA                    // process_vm_readv/writev
	PathAM                     // active messages through a Remote (another node)
)

// Target is what an origin knows of one target of a window.
type Target struct {
	Ptr      unsafe.Pointer // PathDirect: the target's window base in this process
	Addr     uintptr        // the target's window base in its own process
	Size     int64
	DispUnit int64
	Peer     int // the Mover's name for the target (its world rank)
	Path     Path
	ctl      *Ctl
}

// Window is one rank's view of a window.
type Window struct {
	Me      int
	Flavor  int // abi.WinFlavor*
	Targets []Target
	Seg     *Segment
	Mover   Mover
	Idle    Idle
	Epoch   Epoch
	// Atomics is set when every rank reaches every target directly, so
	// accumulates on 4/8-byte elements may use CPU atomics (all origins
	// must agree on it, or atomics and the mutex would not exclude each
	// other).
	Atomics bool

	// Net carries operations to PathAM targets (nil when there are none).
	Net Remote

	consumed   []uint32 // per target: posts consumed by MPI_Win_start
	expectDone uint32   // completions MPI_Win_wait waits for, cumulated
	scratch    [3][]byte
	fenceWord  uint32

	// active messages, origin side (am_origin.go)
	pend     []amPend
	late     *Error // an error found by an early completion (bound)
	seq      uint32
	amBlocks []int64
	amOut    []int64
	// target side (am_target.go)
	held   []uint8 // per origin: the lock it holds here
	lockQ  []amLock
	amPtrs []unsafe.Pointer
	amCur  []byte
}

// Layout places the control blocks and, for MPI_Win_allocate(_shared),
// each rank's memory in a window segment: offsets of the memory and the
// segment size. contig packs ranks back to back (MPI_Win_allocate_shared's
// default); otherwise each rank's memory starts on a page.
func Layout(sizes []int64, contig bool) (offs []int64, total int64) {
	n := len(sizes)
	at := int64(roundUp(n*CtlSize(n), pageSize))
	offs = make([]int64, n)
	for r, s := range sizes {
		if !contig {
			at = int64(roundUp(int(at), pageSize))
		}
		offs[r] = at
		at += s
	}
	return offs, at
}

// NewWindow builds rank me's view of a window over seg (mapped), whose
// control blocks are at its start.
func NewWindow(me int, seg *Segment, targets []Target, flavor int, mv Mover, idle Idle) *Window {
	n := len(targets)
	w := &Window{Me: me, Flavor: flavor, Targets: targets, Seg: seg, Mover: mv, Idle: idle,
		Epoch: newEpoch(n), consumed: make([]uint32, n), held: make([]uint8, n)}
	if w.Idle == nil {
		w.Idle = DefaultIdle
	}
	for r := range targets {
		w.Targets[r].ctl = (*Ctl)(unsafe.Add(seg.Base, r*CtlSize(n)))
	}
	return w
}

// Size is the number of ranks of the window.
func (w *Window) Size() int { return len(w.Targets) }

// Ctl is rank r's control block.
func (w *Window) Ctl(r int) *Ctl { return w.Targets[r].ctl }

func (w *Window) fence() { atomic.AddUint32(&w.fenceWord, 1) } // a full barrier on amd64

// --- synchronisation ---

// FenceCheck validates MPI_Win_fence before its barrier; FenceDone after.
func (w *Window) FenceCheck(assert int) *Error { return w.Epoch.fenceCheck(assert) }

func (w *Window) FenceDone(assert int) {
	w.fence()
	w.Epoch.fenceDone(assert)
}

// Lock opens a passive-target epoch to t (MPI_Win_lock).
func (w *Window) Lock(typ, t, assert int) *Error {
	if err := w.Epoch.lockCheck(typ, t, assert); err != nil {
		return err
	}
	var state uint8 = lockShared
	if typ == abi.LockExclusive {
		state = lockExclusive
	}
	if assert&abi.ModeNocheck != 0 {
		state |= lockNoCheck
	} else if w.Remote(t) {
		if err := w.amLock([]int{t}, typ == abi.LockExclusive); err != nil {
			return err
		}
	} else if state == lockShared {
		w.Targets[t].ctl.LockShared(w.Idle)
	} else {
		w.Targets[t].ctl.LockExclusive(w.Idle)
	}
	w.Epoch.setLock(t, state)
	return nil
}

// Unlock ends the epoch to t; every operation is already complete.
func (w *Window) Unlock(t int) *Error {
	if err := w.Epoch.unlockCheck(t); err != nil {
		return err
	}
	w.fence()
	if w.Remote(t) {
		var err *Error
		if w.Epoch.clearLock(t)&lockNoCheck != 0 {
			err = w.amFlush(t)
		} else {
			err = w.amUnlock(t)
		}
		return err
	}
	switch w.Epoch.clearLock(t) {
	case lockShared:
		w.Targets[t].ctl.UnlockShared()
	case lockExclusive:
		w.Targets[t].ctl.UnlockExclusive()
	}
	return nil
}

// LockAll takes a shared lock on every target (MPI_Win_lock_all).
func (w *Window) LockAll(assert int) *Error {
	if err := w.Epoch.lockAllCheck(assert); err != nil {
		return err
	}
	w.Epoch.fence = false
	if assert&abi.ModeNocheck != 0 {
		w.Epoch.lockAll = lockShared | lockNoCheck
		return nil
	}
	var remote []int
	for r := range w.Targets {
		if w.Remote(r) {
			remote = append(remote, r)
		} else {
			w.Targets[r].ctl.LockShared(w.Idle)
		}
	}
	w.Epoch.lockAll = lockShared
	if len(remote) > 0 {
		return w.amLock(remote, false)
	}
	return nil
}

// UnlockAll ends MPI_Win_lock_all's epoch.
func (w *Window) UnlockAll() *Error {
	if w.Epoch.lockAll == 0 {
		return syncErr("the window is not locked by MPI_Win_lock_all")
	}
	w.fence()
	var err *Error
	if w.Net != nil {
		err = w.amFlush(-1)
	}
	if w.Epoch.lockAll&lockNoCheck == 0 {
		for r := range w.Targets {
			if w.Remote(r) {
				w.amCtl(r, AMUnlock, 0)
			} else {
				w.Targets[r].ctl.UnlockShared()
			}
		}
		if w.Net != nil {
			if e := w.amFlush(-1); err == nil {
				err = e
			}
		}
	}
	w.Epoch.lockAll = 0
	return err
}

// Flush completes operations to t (all targets for t < 0): those to
// shared-memory targets completed at their call, so for them it only
// orders memory; those to remote targets wait for their replies.
func (w *Window) Flush(t int) *Error {
	if err := w.Epoch.flushCheck(t); err != nil {
		return err
	}
	w.fence()
	if w.Net != nil {
		return w.amFlush(t)
	}
	return nil
}

// Sync is MPI_Win_sync: a memory barrier.
func (w *Window) Sync() { w.fence() }

// Post opens an exposure epoch to the origins in group (window ranks).
func (w *Window) Post(group []int, assert int) *Error {
	if err := w.Epoch.postCheck(assert); err != nil {
		return err
	}
	w.fence()
	w.expectDone += uint32(len(group))
	for _, o := range group {
		if w.Remote(o) {
			w.amCtl(o, AMPost, 0)
		} else {
			atomic.AddUint32(w.Targets[o].ctl.post(w.Me), 1)
		}
	}
	w.Epoch.posted = true
	w.Epoch.postGroup = append(w.Epoch.postGroup[:0], group...)
	return nil
}

// Start opens an access epoch to the targets in group, waiting for each
// one's post unless the assertion says it happened.
func (w *Window) Start(group []int, assert int) *Error {
	if err := w.Epoch.startCheck(assert); err != nil {
		return err
	}
	me := w.Targets[w.Me].ctl
	for _, t := range group {
		w.consumed[t]++
		if assert&abi.ModeNocheck != 0 {
			continue
		}
		p := me.post(t)
		for spins := 0; int32(atomic.LoadUint32(p)-w.consumed[t]) < 0; spins = w.Idle(spins) {
		}
	}
	w.Epoch.setStart(group)
	return nil
}

// Complete ends the access epoch: each target learns it is done.
func (w *Window) Complete() *Error {
	if err := w.Epoch.completeCheck(); err != nil {
		return err
	}
	w.fence()
	var err *Error
	if w.Net != nil {
		err = w.amFlush(-1) // the operations are done before the target hears so
	}
	for _, t := range w.Epoch.startGroup {
		if w.Remote(t) {
			w.amCtl(t, AMDone, 0)
		} else {
			atomic.AddUint32(&w.Targets[t].ctl.done, 1)
		}
	}
	w.Epoch.clearStart()
	return err
}

func (w *Window) allDone() bool {
	return int32(atomic.LoadUint32(&w.Targets[w.Me].ctl.done)-w.expectDone) >= 0
}

// Wait ends the exposure epoch once every origin of the post completed.
func (w *Window) Wait() *Error {
	if err := w.Epoch.waitCheck(); err != nil {
		return err
	}
	for spins := 0; !w.allDone(); spins = w.Idle(spins) {
	}
	w.fence()
	w.Epoch.posted = false
	return nil
}

// Test is Wait's nonblocking form.
func (w *Window) Test() (bool, *Error) {
	if err := w.Epoch.waitCheck(); err != nil {
		return false, err
	}
	if !w.allDone() {
		return false, nil
	}
	w.fence()
	w.Epoch.posted = false
	return true, nil
}

// FreeCheck refuses to free a window with an epoch open.
func (w *Window) FreeCheck() *Error {
	if w.Epoch.Active() {
		return syncErr("an epoch is still open on the window")
	}
	return nil
}

// Attach records a region of a dynamic window.
func (w *Window) Attach(base unsafe.Pointer, size int64) *Error {
	if w.Flavor != abi.WinFlavorDynamic {
		return errf(abi.ErrRmaFlavor, "the window was not created by MPI_Win_create_dynamic")
	}
	if size < 0 {
		return errf(abi.ErrSize, "negative size")
	}
	return w.Targets[w.Me].ctl.Attach(uint64(uintptr(base)), uint64(size))
}

// Detach removes a region of a dynamic window.
func (w *Window) Detach(base unsafe.Pointer) *Error {
	if w.Flavor != abi.WinFlavorDynamic {
		return errf(abi.ErrRmaFlavor, "the window was not created by MPI_Win_create_dynamic")
	}
	return w.Targets[w.Me].ctl.Detach(uint64(uintptr(base)))
}
