package pml

import (
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"gompi/internal/mtlock"
)

// At MPI_THREAD_MULTIPLE every entry into the library holds mtlock, so the
// engine's state needs no locks of its own; what changes is waiting. A
// thread whose wait makes no progress spins as at lower levels while it is
// the only thread in MPI; otherwise (and after the spin) it releases the
// lock and yields the core between polls (the other thread may be the one
// with work, on this core), then sleeps, so other threads run their calls
// and progress meanwhile (and may complete this thread's requests). Sleepers sleep on the transport's doorbell
// (other processes ring it; it counts its sleepers), or on mtWait.word
// without one; any completion while some thread sleeps rings both.

// BellIdler is an Idler whose sleep starts from a doorbell value read
// before the lock is released, and that another thread can ring.
type BellIdler interface {
	Bell() uint32
	IdleAfter(v uint32, d time.Duration)
	WakeSelf()
}

// mtWait: how many threads sleep (written under the lock), and the futex
// word of sleepers when there is no doorbell.
type mtWait struct {
	sleepers int
	word     uint32
}

// backoffMT is Backoff's MULTIPLE form: the same spin, yield and sleep
// stages, each letting other threads in.
func (e *Engine) backoffMT(spins *int) {
	*spins++
	if *spins < e.spinMax && !mtlock.Others() {
		return // alone in MPI: spin as at lower levels
	}
	if *spins < e.spinMax+e.yieldMax || e.pendHead != nil || len(e.ctrlQ) > 0 || e.KeepAwake > 0 {
		d := mtlock.Release()
		osYield()
		mtlock.Reacquire(d)
		return
	}
	d := 5 * time.Millisecond
	if e.cfg.Oversubscribed {
		d = time.Millisecond
	}
	if e.idleCap > 0 {
		d = min(d, e.idleCap)
	}
	e.mt.sleepers++
	if bi := e.bellIdler(); bi != nil {
		v := bi.Bell()
		l := mtlock.Release()
		bi.IdleAfter(v, d)
		mtlock.Reacquire(l)
	} else {
		// No single doorbell (a network transport, or several): the
		// transports are not called without the lock, so sleep on our own
		// word, briefly enough that their traffic is noticed soon.
		if !e.waits.empty() {
			d = min(d, turnCap)
		}
		v := atomic.LoadUint32(&e.mt.word)
		l := mtlock.Release()
		ts := unix.NsecToTimespec(int64(d))
		unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&e.mt.word)), futexWaitPrivate, uintptr(v),
			uintptr(unsafe.Pointer(&ts)), 0, 0)
		mtlock.Reacquire(l)
	}
	e.mt.sleepers--
}

const (
	futexWaitPrivate = 0 | 128
	futexWakePrivate = 1 | 128
)

// wakeMT wakes the sleeping threads after a completion: the request may be
// the one one of them waits for.
func (e *Engine) wakeMT() {
	for _, i := range e.waits.idlers {
		if bi, ok := i.(BellIdler); ok {
			bi.WakeSelf()
		}
	}
	if e.bellIdler() != nil {
		return
	}
	atomic.AddUint32(&e.mt.word, 1)
	unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&e.mt.word)), futexWakePrivate, 1<<30, 0, 0, 0)
}

// bellIdler is the doorbell sleepers use: the only transport that can put
// the process to sleep, when it has one.
func (e *Engine) bellIdler() BellIdler {
	if len(e.waits.idlers) != 1 {
		return nil
	}
	bi, _ := e.waits.idlers[0].(BellIdler)
	return bi
}
