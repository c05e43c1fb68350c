// Package mtlock is the lock that makes gompi safe at MPI_THREAD_MULTIPLE:
// every C entry into Go takes it when On, and every wait loop releases it
// while it gives the core away, so threads blocked in MPI let the others
// progress. Below MULTIPLE On stays false and nobody touches the lock: the
// cost there is one predictable branch per call.
//
// It is a futex mutex (0 free, 1 held, 2 held with sleepers) rather than
// sync.Mutex: the callers are C threads locked to their Go threads, and
// parking a locked goroutine hands its P around through the scheduler
// (microseconds); here a contended lock yields the core a few times, then
// sleeps in the kernel and is woken directly.
package mtlock

import (
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// On is set once when MPI_THREAD_MULTIPLE is provided, before any second
// thread may call MPI; it is never cleared.
var On bool

var state int32

// waiters counts the threads inside lockSlow (Pass lets them in);
// released the threads between Release and Reacquire (waiting in MPI).
var waiters, released int32

// readers counts the C fast-path calls inside (capi/fastpath.h): they
// share the lock among themselves, each guarding what it touches with
// finer locks of its own (per ring, the request slots), and exclude every
// Go holder. A reader enters by raising readers and then finding state 0
// (else it backs out and takes its Go path); Lock, once it holds state,
// waits for readers to drain, and no new reader gets in meanwhile.
var readers int32

// slots are the C threads' own reader counts (one cache line each, so
// threads entering and leaving do not bounce one shared line between
// cores): a thread claims one at its first fast-path call (C raises nslots)
// and then enters with one exchange on its own line and leaves with a plain
// store; the shared readers count serves threads beyond MaxSlots. Lock
// waits for both.
var (
	slots  [MaxSlots]slot
	nslots int32
)

// MaxSlots is how many threads get a reader count of their own.
const MaxSlots = 128

// slot is one thread's reader count, alone on its cache line (128 bytes
// apart: no two counts share a line whatever the array's alignment).
type slot struct {
	n int32
	_ [124]byte
}

// yields: contended attempts that give the core away before sleeping.
const yields = 64

// FUTEX_WAIT and FUTEX_WAKE with FUTEX_PRIVATE_FLAG (the word is not shared
// with other processes).
const (
	futexWait = 0 | 128
	futexWake = 1 | 128
)

// owner is the g (getg) of the goroutine holding the lock, depth how many
// times it took it: an MPI call made from inside another (an error handler
// or attribute callback calling MPI, a Go API function calling another)
// takes it again without deadlock.
var (
	owner uintptr
	depth int32
)

// Lock takes the lock (callers check On first).
func Lock() {
	g := getg()
	if atomic.LoadUintptr(&owner) == g {
		depth++
		return
	}
	if !atomic.CompareAndSwapInt32(&state, 0, 1) {
		lockSlow()
	}
	if atomic.LoadInt32(&readers) != 0 || slotReaders() {
		waitReaders()
	}
	atomic.StoreUintptr(&owner, g)
	depth = 1
}

// waitReaders lets the C fast-path calls inside finish: each is short, or
// a wait that sees state taken and hands over to its Go path at its next
// fruitless poll.
func waitReaders() {
	for i := 0; atomic.LoadInt32(&readers) != 0 || slotReaders(); i++ {
		if i >= 16 {
			unix.RawSyscall(unix.SYS_SCHED_YIELD, 0, 0, 0)
		}
	}
}

// slotReaders reports a thread inside through its own reader count.
func slotReaders() bool {
	n := min(int(atomic.LoadInt32(&nslots)), MaxSlots)
	for i := 0; i < n; i++ {
		if atomic.LoadInt32(&slots[i].n) != 0 {
			return true
		}
	}
	return false
}

func lockSlow() {
	atomic.AddInt32(&waiters, 1)
	defer atomic.AddInt32(&waiters, -1)
	for i := 0; i < yields; i++ {
		unix.RawSyscall(unix.SYS_SCHED_YIELD, 0, 0, 0)
		if atomic.LoadInt32(&state) == 0 && atomic.CompareAndSwapInt32(&state, 0, 1) {
			return
		}
	}
	for atomic.SwapInt32(&state, 2) != 0 {
		// Syscall, not RawSyscall: the runtime may give our P to a thread
		// that holds the lock or needs a P to enter Go.
		unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&state)), futexWait, 2, 0, 0, 0)
	}
}

// Unlock undoes one Lock; the last wakes one sleeper if there is one.
func Unlock() {
	if depth--; depth > 0 {
		return
	}
	atomic.StoreUintptr(&owner, 0)
	if atomic.SwapInt32(&state, 0) == 2 {
		unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&state)), futexWake, 1, 0, 0, 0)
	}
}

// Release lets go of the lock entirely, however deeply the caller holds it,
// for one step of a wait; it returns what Reacquire needs. A caller that
// does not hold the lock (a Go API call at MULTIPLE outside any entry that
// takes it) gets 0 and keeps not holding it.
func Release() int32 {
	if atomic.LoadUintptr(&owner) != getg() {
		return 0
	}
	d := depth
	depth = 1
	atomic.AddInt32(&released, 1)
	Unlock()
	return d
}

// Reacquire takes the lock back after Release(d).
func Reacquire(d int32) {
	if d == 0 {
		return
	}
	Lock()
	depth = d
	atomic.AddInt32(&released, -1)
}

// Others reports whether another thread waits for the lock or waits
// inside MPI with it released: a wait loop should then give the core away
// rather than spin, since that thread may be the one with work to do.
func Others() bool { return atomic.LoadInt32(&waiters) > 0 || atomic.LoadInt32(&released) > 0 }

// Pass hands the lock to a thread waiting for it, if any, and takes it
// back: a wait loop calls it between polls, so a thread that only spins
// does not starve the threads that have work. Unlock alone would not do:
// the spinning thread takes the lock again before a woken one runs.
func Pass() {
	if atomic.LoadInt32(&waiters) == 0 {
		return
	}
	d := Release()
	for i := 0; i < 100 && atomic.LoadInt32(&state) == 0 && atomic.LoadInt32(&waiters) > 0; i++ {
		unix.RawSyscall(unix.SYS_SCHED_YIELD, 0, 0, 0)
	}
	Reacquire(d)
}

// Held reports whether some thread holds the lock (for tests).
func Held() bool { return atomic.LoadInt32(&state) != 0 }

// Words gives the C fast paths (capi/fastpath.h) the lock word, the two
// counts Others reads and the readers count, so C can share the lock
// without entering Go. C only ever tries (enters as a reader while state is
// 0) and never calls into Go while inside, so it needs no owner: a thread
// that already holds the lock in Go (a callback calling MPI) fails the C
// try and takes the lock again recursively through its Go entry. Package
// variables never move, so C may keep these addresses.
func Words() (lock, waiting, releasing, reading *int32) { return &state, &waiters, &released, &readers }

// Slots gives the C fast paths the per-thread reader counts: the first
// count, the distance between two in bytes, and claimed, one past the
// highest index a thread holds (threads raise it before their first entry
// and never lower it; Lock looks that far). A thread beyond MaxSlots uses
// the shared count of Words. A count is written only by its thread:
// raised from 0 by an exchange (a full fence before it reads the lock
// word), otherwise by plain stores.
func Slots() (first *int32, stride uintptr, claimed *int32) {
	return &slots[0].n, unsafe.Sizeof(slots[0]), &nslots
}
