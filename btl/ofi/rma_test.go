//go:build !noofi

package ofi

import (
	"bytes"
	"testing"
	"time"
	"unsafe"
)

// TestRead: a receiver reads an exposed buffer (4 MiB, and part of it at
// an offset through the cache); the cache registers a reused buffer once
// and stays bounded; a read with a wrong key reports failure, not a crash.
func TestRead(t *testing.T) {
	a, b := pair(t, nil, nil)
	if !a.CanGet(1) {
		t.Skipf("provider %s offers no RMA: reads are not used", a.Provider())
	}
	type res struct {
		id uint32
		ok bool
	}
	var done []res
	b.OnRead(func(id uint32, ok bool) { done = append(done, res{id, ok}) })
	wait := func(n int) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for len(done) < n && time.Now().Before(deadline) {
			a.Progress()
			b.Progress()
		}
		if len(done) < n {
			t.Fatalf("%d of %d reads finished", len(done), n)
		}
	}
	const n = 4 << 20
	src := bytes.Repeat([]byte("0123456789abcdef"), n/16)
	key, addr, ok := a.Expose(1, unsafe.Pointer(&src[0]), n)
	if !ok {
		t.Fatal("expose failed")
	}
	dst := make([]byte, n)
	for !b.ReadAsync(0, unsafe.Pointer(&dst[0]), n, addr, key, 7) {
		a.Progress()
		b.Progress()
	}
	wait(1)
	if done[0] != (res{7, true}) || !bytes.Equal(src, dst) {
		t.Fatalf("read: %+v, equal %v", done[0], bytes.Equal(src, dst))
	}
	// The same buffer again, a part at an offset: the cached registration.
	k2, a2, ok := a.Expose(1, unsafe.Pointer(&src[100]), 1000)
	if !ok || k2 != key || a2 != addr+100 || len(a.mrs.ents) != 1 {
		t.Fatalf("cache: key %d/%d addr %d/%d entries %d", k2, key, a2, addr+100, len(a.mrs.ents))
	}
	part := make([]byte, 1000)
	for !b.ReadAsync(0, unsafe.Pointer(&part[0]), 1000, a2, k2, 8) {
		a.Progress()
		b.Progress()
	}
	wait(2)
	if done[1] != (res{8, true}) || !bytes.Equal(part, src[100:1100]) {
		t.Fatalf("part read: %+v", done[1])
	}
	// A wrong key: the read fails and says so.
	for !b.ReadAsync(0, unsafe.Pointer(&part[0]), 1000, addr, key+12345, 9) {
		a.Progress()
		b.Progress()
	}
	wait(3)
	if done[2] != (res{9, false}) {
		t.Fatalf("bad key read: %+v", done[2])
	}
	a.Unexpose(key)
	a.Unexpose(key)
	// Many buffers: the cache keeps at most mrCacheSize unused ones.
	bufs := make([][]byte, 3*mrCacheSize)
	for i := range bufs {
		bufs[i] = make([]byte, 4096)
		k, _, ok := a.Expose(1, unsafe.Pointer(&bufs[i][0]), 4096)
		if !ok {
			t.Fatal("expose failed")
		}
		a.Unexpose(k)
	}
	if len(a.mrs.ents) > mrCacheSize {
		t.Fatalf("cache holds %d registrations, bound %d", len(a.mrs.ents), mrCacheSize)
	}
	if !a.Drain(10*time.Second) || !b.Drain(10*time.Second) {
		t.Fatal("drain")
	}
}
