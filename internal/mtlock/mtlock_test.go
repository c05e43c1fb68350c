package mtlock

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Many goroutines increment a plain counter under the lock; -race and the
// final count both check mutual exclusion.
func TestExclusion(t *testing.T) {
	const g, n = 8, 20000
	count := 0
	var wg sync.WaitGroup
	for i := 0; i < g; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < n; j++ {
				Lock()
				count++
				Unlock()
			}
		}()
	}
	wg.Wait()
	if count != g*n {
		t.Fatalf("count %d, want %d", count, g*n)
	}
	if Held() {
		t.Fatal("lock still held")
	}
}

// The holder may take the lock again (nested MPI calls); Release drops every
// level for a wait step and Reacquire restores them.
func TestNested(t *testing.T) {
	Lock()
	Lock()
	d := Release()
	if d != 2 || Held() {
		t.Fatalf("Release: depth %d, held %v", d, Held())
	}
	done := make(chan bool)
	go func() { Lock(); Unlock(); done <- true }() // another goroutine gets in
	<-done
	Reacquire(d)
	Unlock()
	if !Held() {
		t.Fatal("released one level too early")
	}
	Unlock()
	if Held() {
		t.Fatal("still held")
	}
	if Release() != 0 || Held() {
		t.Fatal("Release without holding")
	}
}

// The C fast paths take the lock through Words (a CAS 0 to 1 on the word,
// released by a swap that wakes sleepers): a Go Lock must wait for such a
// holder, see itself counted by Others meanwhile, and get the lock after.
func TestForeignHolder(t *testing.T) {
	st, waiting, _ := Words()
	if !atomic.CompareAndSwapInt32(st, 0, 1) {
		t.Fatal("lock not free")
	}
	got := make(chan struct{})
	go func() {
		Lock()
		close(got)
		Unlock()
	}()
	for atomic.LoadInt32(waiting) == 0 {
		runtime.Gosched()
	}
	if !Others() {
		t.Fatal("Others false while a goroutine waits")
	}
	select {
	case <-got:
		t.Fatal("Lock taken while a foreign holder has it")
	case <-time.After(50 * time.Millisecond):
	}
	// Let the waiter reach its futex sleep (state 2) at times, as C sees it.
	if atomic.SwapInt32(st, 0) == 2 {
		unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(st)), futexWake, 1, 0, 0, 0)
	}
	select {
	case <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("Lock never taken after the foreign holder released it")
	}
	for Held() {
		runtime.Gosched()
	}
}
