package sock

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"
	"time"
	"unsafe"
)

type got struct {
	src int
	tag uint8
	b   []byte
}

func pair(t *testing.T) (a, b *Module, ra, rb *[]got) {
	base := uint64(os.Getpid())<<20 | uint64(rand.IntN(1<<19))<<1
	ra, rb = new([]got), new([]got)
	var err error
	a, err = New(base, func(s int, tag uint8, d []byte) { *ra = append(*ra, got{s, tag, bytes.Clone(d)}) })
	if err != nil {
		t.Fatal(err)
	}
	b, err = New(base+1, func(s int, tag uint8, d []byte) { *rb = append(*rb, got{s, tag, bytes.Clone(d)}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b, ra, rb
}

func until(t *testing.T, cond func() bool, ms ...*Module) {
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		for _, m := range ms {
			m.Progress()
		}
	}
}

func send(m *Module, peer int, tag uint8, hdr, payload []byte) bool {
	var p unsafe.Pointer
	if len(payload) > 0 {
		p = unsafe.Pointer(&payload[0])
	}
	return m.SendI(peer, tag, unsafe.Pointer(&hdr[0]), len(hdr), p, len(payload))
}

func TestFramesInOrder(t *testing.T) {
	a, b, _, rb := pair(t)
	a.AddPeer(5, b.me)
	b.AddPeer(7, a.me)
	big := make([]byte, 3<<20) // larger than the receive buffer and one write
	for i := range big {
		big[i] = byte(i * 7)
	}
	for i := range 100 {
		if !send(a, 5, uint8(i), []byte{byte(i), 1, 2}, nil) {
			t.Fatal("SendI refused")
		}
	}
	if !send(a, 5, 200, []byte{9, 9, 9, 9, 9, 9, 9, 9}, big) {
		t.Fatal("SendI refused the big frame")
	}
	until(t, func() bool { return len(*rb) == 101 }, a, b)
	for i, g := range (*rb)[:100] {
		if g.src != 7 || g.tag != uint8(i) || !bytes.Equal(g.b, []byte{byte(i), 1, 2}) {
			t.Fatalf("frame %d: %+v", i, g)
		}
	}
	last := (*rb)[100]
	if last.tag != 200 || len(last.b) != 8+len(big) || !bytes.Equal(last.b[8:], big) {
		t.Fatalf("big frame: tag %d len %d", last.tag, len(last.b))
	}
}

// A stream from a process not introduced yet waits, then delivers in order.
func TestLateIntroduction(t *testing.T) {
	a, b, _, rb := pair(t)
	a.AddPeer(0, b.me)
	for i := range 10 {
		send(a, 0, uint8(i), []byte{byte(i)}, nil)
	}
	for range 50 {
		a.Progress()
		b.Progress()
	}
	if len(*rb) != 0 {
		t.Fatalf("delivered %d frames from an unknown process", len(*rb))
	}
	b.AddPeer(3, a.me)
	until(t, func() bool { return len(*rb) == 10 }, a, b)
	for i, g := range *rb {
		if g.src != 3 || g.tag != uint8(i) {
			t.Fatalf("frame %d: %+v", i, g)
		}
	}
}

func TestDialUnknown(t *testing.T) {
	a, _, _, _ := pair(t)
	a.AddPeer(0, 1) // nobody listens as process 1
	a.warn = true   // keep the test output clean
	if send(a, 0, 1, []byte{1}, nil) {
		t.Fatal("SendI to a missing process succeeded")
	}
}
