//go:build !noofi

package ofi

import (
	"bytes"
	"os"
	"testing"
	"time"
	"unsafe"
)

// pairChunked is pair with reads split into chunk-byte pieces, at most
// inflight of them at the provider.
func pairChunked(t *testing.T, chunk, inflight int) (*Module, *Module) {
	t.Helper()
	return openPair(t, Config{Size: 2, Provider: os.Getenv("GOMPI_OFI_PROVIDER"), Domain: "lo", ReadChunk: chunk, ReadsInFlight: inflight}, nil, nil)
}

// TestChunkedRead: reads split into odd-sized chunks (several reads at
// once, more chunks than may be in flight) deliver every byte at odd sizes
// and offsets, each read is reported once when all its chunks are in, and
// a bad key fails the whole read without disturbing the others.
func TestChunkedRead(t *testing.T) {
	a, b := pairChunked(t, 4099, 3)
	if !a.CanGet(1) {
		t.Skipf("provider %s offers no RMA: reads are not used", a.Provider())
	}
	done := map[uint32]bool{}
	calls := 0
	b.OnRead(func(id uint32, ok bool) {
		if _, dup := done[id]; dup {
			t.Errorf("read %d reported twice", id)
		}
		done[id] = ok
		calls++
	})
	const n = 1<<20 + 333
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i*7 + i>>9)
	}
	key, addr, ok := a.Expose(1, unsafe.Pointer(&src[0]), n)
	if !ok {
		t.Fatal("expose failed")
	}
	type rd struct{ off, size int }
	reads := []rd{{0, n}, {1, 4098}, {5, 4099}, {13, 4100}, {777, 3*4099 + 1}, {n - 12345, 12345}, {4096 + 3, 300001}, {n - 1, 1}}
	dsts := make([][]byte, len(reads))
	start := func(id uint32, dst []byte, raddr, k uint64) {
		deadline := time.Now().Add(20 * time.Second)
		for !b.ReadAsync(0, unsafe.Pointer(&dst[0]), len(dst), raddr, k, id) {
			if time.Now().After(deadline) {
				t.Fatalf("read %d never started", id)
			}
			a.Progress()
			b.Progress()
		}
	}
	for i, r := range reads {
		dsts[i] = make([]byte, r.size+2) // guard bytes after the read
		dsts[i][r.size], dsts[i][r.size+1] = 0xa5, 0x5a
		start(uint32(i+1), dsts[i][:r.size], addr+uint64(r.off), key)
	}
	bad := make([]byte, 50000)
	start(100, bad, addr, key+12345)
	deadline := time.Now().Add(30 * time.Second)
	for calls < len(reads)+1 && time.Now().Before(deadline) {
		a.Progress()
		b.Progress()
	}
	if calls != len(reads)+1 {
		t.Fatalf("%d of %d reads finished", calls, len(reads)+1)
	}
	for i, r := range reads {
		if !done[uint32(i+1)] {
			t.Errorf("read %d (offset %d, %d bytes) failed", i+1, r.off, r.size)
			continue
		}
		if !bytes.Equal(dsts[i][:r.size], src[r.off:r.off+r.size]) {
			t.Errorf("read %d (offset %d, %d bytes): wrong data", i+1, r.off, r.size)
		}
		if dsts[i][r.size] != 0xa5 || dsts[i][r.size+1] != 0x5a {
			t.Errorf("read %d wrote past its end", i+1)
		}
	}
	if done[100] {
		t.Error("a read with a wrong key reported success")
	}
	a.Unexpose(key)
	if !a.Drain(10*time.Second) || !b.Drain(10*time.Second) {
		t.Fatal("drain")
	}
}
