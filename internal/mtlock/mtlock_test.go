package mtlock

import (
	"sync"
	"testing"
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
