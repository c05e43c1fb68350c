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
	st, waiting, _, _ := Words()
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

// tryShared and unshared are the C fast path's reader entry and exit
// (gompi_fast_lock and gompi_fast_unlock in capi/fastpath.h), in Go.
func tryShared() bool {
	st, _, _, rd := Words()
	atomic.AddInt32(rd, 1)
	if atomic.LoadInt32(st) == 0 {
		return true
	}
	atomic.AddInt32(rd, -1)
	return false
}

func unshared() {
	_, _, _, rd := Words()
	atomic.AddInt32(rd, -1)
}

// Readers (C fast-path calls) share the lock among themselves and exclude
// every Go holder: Go holders write a plain word that readers read (-race
// checks the ordering both ways), readers count themselves inside and a
// holder must never see one; several readers are inside at once at some
// point; no holder waits forever for readers that keep coming.
func TestReaders(t *testing.T) {
	const g, n = 4, 20000
	var inside, maxInside, writerIn int32
	plain := 0
	withGoHolders(t, g, n, &writerIn, &inside, &plain, func() { // a C thread: many short fast-path calls
		for j := 0; j < n; j++ {
			if !tryShared() {
				runtime.Gosched()
				continue
			}
			k := atomic.AddInt32(&inside, 1)
			for {
				m := atomic.LoadInt32(&maxInside)
				if k <= m || atomic.CompareAndSwapInt32(&maxInside, m, k) {
					break
				}
			}
			if atomic.LoadInt32(&writerIn) != 0 {
				t.Error("a reader is inside while a Go holder is")
			}
			if plain < 0 { // read what holders write (-race)
				t.Error("negative")
			}
			for s := 0; s < 50; s++ {
				if atomic.LoadInt32(&writerIn) != 0 {
					t.Error("a Go holder got in while a reader is inside")
				}
			}
			atomic.AddInt32(&inside, -1)
			unshared()
		}
	})
	if Held() {
		t.Fatal("lock still held")
	}
	if _, _, _, rd := Words(); atomic.LoadInt32(rd) != 0 {
		t.Fatalf("%d readers left inside", atomic.LoadInt32(rd))
	}
	t.Logf("at most %d readers inside at once", maxInside)
}

// slotReader is a C thread's own reader count (gompi_fast_lock's per-thread
// protocol in capi/fastpath.h), in Go.
type slotReader struct{ p *int32 }

func claimSlot() slotReader {
	first, stride, claimed := Slots()
	i := atomic.AddInt32(claimed, 1) - 1
	if i >= MaxSlots {
		return slotReader{}
	}
	return slotReader{(*int32)(unsafe.Add(unsafe.Pointer(first), uintptr(i)*stride))}
}

func (r slotReader) try() bool {
	if r.p == nil {
		return tryShared()
	}
	d := atomic.LoadInt32(r.p)
	if d != 0 { // already inside: a Go holder waits for us, so it has not started
		atomic.StoreInt32(r.p, d+1)
		return true
	}
	atomic.SwapInt32(r.p, 1)
	st, _, _, _ := Words()
	if atomic.LoadInt32(st) == 0 {
		return true
	}
	atomic.StoreInt32(r.p, 0)
	return false
}

func (r slotReader) leave() {
	if r.p == nil {
		unshared()
		return
	}
	atomic.StoreInt32(r.p, atomic.LoadInt32(r.p)-1)
}

// Threads entering through their own reader counts (nested entries too)
// and Go holders exclude each other, as with the shared count; the count
// lines are MaxSlots apart-padded and each thread's stays its own.
func TestReaderSlots(t *testing.T) {
	const g, n = 4, 20000
	var inside, writerIn int32
	plain := 0
	withGoHolders(t, g, n, &writerIn, &inside, &plain, func() {
		r := claimSlot()
		if r.p == nil {
			t.Error("no slot for one of the first threads")
			return
		}
		for j := 0; j < n; j++ {
			if !r.try() {
				runtime.Gosched()
				continue
			}
			atomic.AddInt32(&inside, 1)
			nested := j%3 == 0 && r.try() // a nested entry always gets in
			if j%3 == 0 && !nested {
				t.Error("a nested entry failed")
			}
			for s := 0; s < 50; s++ {
				if atomic.LoadInt32(&writerIn) != 0 {
					t.Error("a Go holder got in while a reader is inside")
				}
			}
			if plain < 0 { // read what holders write (-race)
				t.Error("negative")
			}
			if nested {
				r.leave()
			}
			atomic.AddInt32(&inside, -1)
			r.leave()
		}
		if atomic.LoadInt32(r.p) != 0 {
			t.Error("reader count left raised")
		}
	})
	if _, stride, _ := Slots(); stride < 64 {
		t.Fatalf("reader counts %d bytes apart share cache lines", stride)
	}
}

// withGoHolders runs g goroutines of reader against g Go holders of n/20
// rounds each (goHolder), then checks that every holder round ran.
func withGoHolders(t *testing.T, g, n int, writerIn, inside *int32, plain *int, reader func()) {
	var wg sync.WaitGroup
	for i := 0; i < g; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			reader()
		}()
		go func() { // a Go entry
			defer wg.Done()
			goHolder(t, n/20, writerIn, inside, plain)
		}()
	}
	wg.Wait()
	if *plain != g*(n/20) {
		t.Fatalf("plain %d, want %d", *plain, g*(n/20))
	}
}

// goHolder takes the lock rounds times as a Go entry does, checking that no
// reader is inside while it holds it and counting its rounds in plain
// (unsynchronised, so -race sees any overlap with readers).
func goHolder(t *testing.T, rounds int, writerIn, inside *int32, plain *int) {
	for j := 0; j < rounds; j++ {
		Lock()
		atomic.StoreInt32(writerIn, 1)
		if atomic.LoadInt32(inside) != 0 {
			t.Error("a Go holder is inside with readers")
		}
		*plain++
		atomic.StoreInt32(writerIn, 0)
		Unlock()
		runtime.Gosched()
	}
}
