package pml

import (
	"testing"
	"unsafe"
)

// checked is a receiver (engine 0 of three) with a communicator, a posted
// receive from rank 1 that a rendezvous of 50 bytes has matched (so
// fragments for it are expected) and the buffer it writes into.
type checked struct {
	net *fakeNet
	e   *Engine
	r   *Request
	buf []byte
}

func newChecked(t testing.TB) *checked {
	f := newFakeNet(3, false)
	e := f.engines[0]
	world := []int{0, 1, 2}
	c := NewComm(10, 0, world)
	e.Register(c)
	k := &checked{net: f, e: e, buf: make([]byte, 64+100+64)}
	k.r = e.Irecv(c, unsafe.Pointer(&k.buf[64]), 100, 1, 5)
	rv := rndvHdr{matchHdr: matchHdr{ctx: 10, src: 1, tag: 5}, size: 50}
	d := hdrBytes(unsafe.Pointer(&rv), rndvHdrLen)
	if err := e.CheckFrag(1, tagRndv, d); err != nil {
		t.Fatalf("a good rendezvous was refused: %v", err)
	}
	e.onFrag(1, tagRndv, d)
	if k.r.total != 50 {
		t.Fatalf("rendezvous not matched: total %d", k.r.total)
	}
	return k
}

func hdrBytes(p unsafe.Pointer, n int) []byte {
	w := make([]uint64, (n+7)/8)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*8), unsafe.Slice((*byte)(p), n))
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), n)
}

func fragBytes(rreq uint32, off uint64, n int) []byte {
	h := fragHdr{rreq: rreq, offset: off}
	b := append(hdrBytes(unsafe.Pointer(&h), fragHdrLen), make([]byte, n)...)
	return hdrBytes(unsafe.Pointer(&b[0]), len(b))
}

func TestCheckFrag(t *testing.T) {
	k := newChecked(t)
	e := k.e
	good := []struct {
		src  int
		tag  uint8
		data []byte
	}{
		{1, tagFrag, fragBytes(k.r.ID, 0, 50)},
		{1, tagFrag, fragBytes(k.r.ID, 40, 10)},
		{2, tagMatch, hdrBytes(unsafe.Pointer(&matchHdr{ctx: 10, src: 2}), matchHdrLen)},
		{2, tagMatch, hdrBytes(unsafe.Pointer(&matchHdr{ctx: 99, src: 7}), matchHdrLen)}, // not created yet
	}
	for i, g := range good {
		if err := e.CheckFrag(g.src, g.tag, g.data); err != nil {
			t.Errorf("good fragment %d refused: %v", i, err)
		}
	}
	bad := []struct {
		src  int
		tag  uint8
		data []byte
	}{
		{1, tagFrag, fragBytes(k.r.ID, 40, 20)},                                           // beyond the message
		{1, tagFrag, fragBytes(k.r.ID, 1<<63, 1)},                                         // offset wraps
		{2, tagFrag, fragBytes(k.r.ID, 0, 1)},                                             // another sender
		{1, tagFrag, fragBytes(k.r.ID+1<<21, 0, 1)},                                       // stale generation
		{1, tagFrag, fragBytes(k.r.ID, 0, 0)[:4]},                                         // short
		{1, tagMatch, hdrBytes(unsafe.Pointer(&matchHdr{ctx: 10, src: 2}), matchHdrLen)},  // claims another rank
		{1, tagMatch, hdrBytes(unsafe.Pointer(&matchHdr{ctx: 10, src: -1}), matchHdrLen)}, // negative rank
		{1, tagMatch, hdrBytes(unsafe.Pointer(&matchHdr{ctx: 1 << 30}), matchHdrLen)},     // absurd context
		{1, tagAck, hdrBytes(unsafe.Pointer(&ackHdr{sreq: k.r.ID}), ackHdrLen)},           // a receive, not a send
		{1, tagPutReq, hdrBytes(unsafe.Pointer(&ackHdr{}), ackHdrLen)},                    // shared memory only
		{1, 200, hdrBytes(unsafe.Pointer(&ackHdr{}), ackHdrLen)},                          // unknown type
		{9, tagMatch, hdrBytes(unsafe.Pointer(&matchHdr{ctx: 10, src: 1}), matchHdrLen)},  // not a peer
	}
	for i, b := range bad {
		if err := e.CheckFrag(b.src, b.tag, b.data); err == nil {
			t.Errorf("bad fragment %d accepted", i)
		}
	}
	// The good fragments complete the receive with the right bytes.
	d := fragBytes(k.r.ID, 0, 50)
	for i := range d[fragHdrLen:] {
		d[fragHdrLen+i] = byte(i + 1)
	}
	e.onFrag(1, tagFrag, d)
	if !k.r.Done() || k.buf[64] != 1 || k.buf[64+49] != 50 || k.buf[64+50] != 0 {
		t.Fatalf("receive: done %v, bytes %v", k.r.Done(), k.buf[64:64+51])
	}
}

// FuzzCheckFrag: any fragment CheckFrag accepts is handled without a panic
// and without writing outside the receive buffer.
func FuzzCheckFrag(f *testing.F) {
	k := newChecked(f)
	f.Add(byte(1), tagFrag, fragBytes(k.r.ID, 0, 50))
	f.Add(byte(1), tagFrag, fragBytes(k.r.ID, 30, 30))
	f.Add(byte(2), tagMatch, hdrBytes(unsafe.Pointer(&matchHdr{ctx: 10, src: 2, tag: 5}), matchHdrLen+8))
	f.Add(byte(1), tagRndv, hdrBytes(unsafe.Pointer(&rndvHdr{matchHdr: matchHdr{ctx: 10, src: 1, seq: 1}, size: 1 << 40}), rndvHdrLen))
	f.Add(byte(2), tagCancel, hdrBytes(unsafe.Pointer(&cancelHdr{ctx: 10, src: 2}), cancelHdrLen))
	f.Add(byte(1), tagPartInit, make([]byte, partInitHdrLen))
	f.Add(byte(1), tagSyncAck, make([]byte, ackHdrLen))
	f.Fuzz(func(t *testing.T, src byte, tag byte, data []byte) {
		k := newChecked(t)
		if len(data) == 0 {
			return
		}
		d := hdrBytes(unsafe.Pointer(&data[0]), len(data))
		if k.e.CheckFrag(int(src), tag, d) != nil {
			return
		}
		k.e.onFrag(int(src), tag, d)
		k.e.Progress()
		for _, b := range append(k.buf[:64], k.buf[164:]...) {
			if b != 0 {
				t.Fatalf("a fragment wrote outside the receive buffer")
			}
		}
	})
}
