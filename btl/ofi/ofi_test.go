//go:build !noofi

package ofi

import (
	"bytes"
	"os"
	"testing"
	"time"
	"unsafe"
)

// pair opens two endpoints of a 2-rank job in this process, connected.
func pair(t *testing.T, h0, h1 func(int, uint8, []byte)) (*Module, *Module) {
	t.Helper()
	return openPair(t, Config{Me: 0, Size: 2, Provider: os.Getenv("GOMPI_OFI_PROVIDER"), Domain: "lo"}, h0, h1)
}

// openPair opens ranks 0 and 1 of cfg (rank 1 on the provider rank 0 got)
// and connects them; without libfabric it skips, or fails under CI=true.
func openPair(t *testing.T, cfg Config, h0, h1 func(int, uint8, []byte)) (*Module, *Module) {
	t.Helper()
	cfg.Me = 0
	a, err := Open(cfg, h0)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("libfabric: %v", err)
		}
		t.Skipf("no usable libfabric provider here: %v", err)
	}
	cfg.Me, cfg.Provider = 1, a.Provider()
	b, err := Open(cfg, h1)
	if err != nil {
		a.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	aa, err := a.Address()
	if err != nil {
		t.Fatal(err)
	}
	ba, err := b.Address()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Connect(1, ba); err != nil {
		t.Fatal(err)
	}
	if err := b.Connect(0, aa); err != nil {
		t.Fatal(err)
	}
	return a, b
}

func TestSendRecv(t *testing.T) {
	type got struct {
		src  int
		tag  uint8
		data []byte
	}
	var in []got
	a, b := pair(t, nil, func(src int, tag uint8, d []byte) {
		in = append(in, got{src, tag, append([]byte(nil), d...)})
	})
	hdr := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	sizes := []int{0, 1, 100, 4096, a.EagerLimit() - len(hdr)}
	for i, n := range sizes {
		p := bytes.Repeat([]byte{byte(i + 1)}, n+1)
		for !a.SendI(1, uint8(i+1), unsafe.Pointer(&hdr[0]), len(hdr), unsafe.Pointer(&p[0]), n) {
			a.Progress()
			b.Progress() // the peer's progress accepts the connection
		}
	}
	// A frame larger than a buffer is refused, not truncated.
	big := make([]byte, a.EagerLimit()+1)
	if a.SendI(1, 1, unsafe.Pointer(&big[0]), len(big), nil, 0) {
		t.Fatal("a frame larger than the eager limit was accepted")
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(in) < len(sizes) && time.Now().Before(deadline) {
		a.Progress()
		if b.Progress() == 0 {
			b.Idle(time.Millisecond)
		}
	}
	if len(in) != len(sizes) {
		t.Fatalf("received %d of %d frames", len(in), len(sizes))
	}
	for i, g := range in {
		n := sizes[i]
		if g.src != 0 || g.tag != uint8(i+1) || len(g.data) != len(hdr)+n {
			t.Fatalf("frame %d: src %d tag %d len %d", i, g.src, g.tag, len(g.data))
		}
		if !bytes.Equal(g.data[:len(hdr)], hdr[:]) || !bytes.Equal(g.data[len(hdr):], bytes.Repeat([]byte{byte(i + 1)}, n)) {
			t.Fatalf("frame %d: wrong bytes", i)
		}
	}
	if !a.Drain(10 * time.Second) {
		t.Fatal("sends did not complete")
	}
}

// Many frames in flight: the send pool and the receive buffers recycle.
func TestFlood(t *testing.T) {
	const n = 2000
	count, sum := 0, 0
	a, b := pair(t, nil, func(src int, tag uint8, d []byte) {
		count++
		sum += int(d[0])
	})
	p := make([]byte, 1000)
	want := 0
	deadline := time.Now().Add(60 * time.Second)
	for i := 0; i < n; i++ {
		p[0] = byte(i)
		want += i & 255
		for !a.SendI(1, 1, unsafe.Pointer(&p[0]), len(p), nil, 0) {
			a.Progress()
			b.Progress()
			if time.Now().After(deadline) {
				t.Fatal("no room for sends")
			}
		}
	}
	for count < n && time.Now().Before(deadline) {
		a.Progress()
		b.Progress()
	}
	if count != n || sum != want {
		t.Fatalf("received %d frames (sum %d), want %d (sum %d)", count, sum, n, want)
	}
}

func TestCorruptDropped(t *testing.T) {
	delivered := 0
	a, b := pair(t, nil, func(int, uint8, []byte) { delivered++ })
	b.check = func(src int, tag uint8, body []byte) error {
		if tag == 99 {
			return os.ErrInvalid
		}
		return nil
	}
	hdr := [8]byte{}
	deadline := time.Now().Add(20 * time.Second)
	for _, tag := range []uint8{99, 1} {
		for !a.SendI(1, tag, unsafe.Pointer(&hdr[0]), 8, nil, 0) && time.Now().Before(deadline) {
			a.Progress()
			b.Progress()
		}
	}
	for delivered < 1 && time.Now().Before(deadline) {
		a.Progress()
		b.Progress()
	}
	if delivered != 1 || b.Corrupt() != 1 {
		t.Fatalf("delivered %d, dropped %d; want 1 and 1", delivered, b.Corrupt())
	}
}
