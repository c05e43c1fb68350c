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
// thread whose wait makes no progress releases the lock for each backoff
// step, so other threads run their calls and progress meanwhile (and may
// complete this thread's requests). Of the threads that reach the sleeping
// stage one sleeps on the transport's doorbell (other processes ring it),
// the rest on mtWait.word, which any completion rings.

// BellIdler is an Idler whose sleep starts from a doorbell value read
// before the lock is released, and that another thread can ring.
type BellIdler interface {
	Bell() uint32
	IdleAfter(v uint32, d time.Duration)
	WakeSelf()
}

// mtWait: who sleeps (written under the lock) and the futex word of the
// sleepers that are not on the doorbell.
type mtWait struct {
	bell     bool // a thread sleeps on the transport's doorbell
	sleepers int  // threads sleeping on word
	word     uint32
}

// backoffMT is Backoff's MULTIPLE form: the same spin, yield and sleep
// stages, each with the lock released.
func (e *Engine) backoffMT(spins *int) {
	*spins++
	if *spins < e.spinMax {
		mtlock.Unlock() // a thread spinning for the lock may take it here
		mtlock.Lock()
		return
	}
	if *spins < e.spinMax+e.yieldMax || e.pendHead != nil || len(e.ctrlQ) > 0 {
		mtlock.Unlock()
		osYield()
		mtlock.Lock()
		return
	}
	d := 5 * time.Millisecond
	if e.cfg.Oversubscribed {
		d = time.Millisecond
	}
	if e.idleCap > 0 {
		d = min(d, e.idleCap)
	}
	if bi, ok := e.idler.(BellIdler); ok && !e.mt.bell {
		e.mt.bell = true
		v := bi.Bell()
		mtlock.Unlock()
		bi.IdleAfter(v, d)
		mtlock.Lock()
		e.mt.bell = false
		return
	}
	e.mt.sleepers++
	v := atomic.LoadUint32(&e.mt.word)
	mtlock.Unlock()
	ts := unix.NsecToTimespec(int64(d))
	unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&e.mt.word)), futexWaitPrivate, uintptr(v),
		uintptr(unsafe.Pointer(&ts)), 0, 0)
	mtlock.Lock()
	e.mt.sleepers--
}

const (
	futexWaitPrivate = 0 | 128
	futexWakePrivate = 1 | 128
)

// wakeMT wakes the sleeping threads after a completion: the request may be
// the one one of them waits for.
func (e *Engine) wakeMT() {
	if e.mt.sleepers > 0 {
		atomic.AddUint32(&e.mt.word, 1)
		unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&e.mt.word)), futexWakePrivate, 1<<30, 0, 0, 0)
	}
	if e.mt.bell {
		if bi, ok := e.idler.(BellIdler); ok {
			bi.WakeSelf()
		}
	}
}
