package osc

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/op"
)

// loop is a Remote between windows of one process: a request is served at
// once by the target window (a lock waits for GrantLocks in Wait).
type loop struct {
	wins []*Window
	from int
}

type loopOp struct {
	t     int
	seq   uint32
	reply []byte
	n     int // -1 until the reply came
}

func (l *loop) Send(t int, msg, reply []byte) any {
	o := &loopOp{t: t, reply: reply, n: -1}
	o.seq, _ = AMSeq(msg)
	buf := make([]byte, AMMaxReply)
	if n := l.wins[t].Serve(l.from, msg, buf); n >= 0 {
		o.n = copy(reply, buf[:n])
	}
	return o
}

func (l *loop) Wait(h any) int {
	o := h.(*loopOp)
	for o.n < 0 {
		if l.wins[o.t].GrantLocks(func(to int, seq uint32, b []byte) {
			if to == l.from && seq == o.seq {
				o.n = copy(o.reply, b)
			}
		}) == 0 && o.n < 0 {
			panic("a lock is never granted")
		}
	}
	return o.n
}

// twoNodes makes two ranks of a window of flavour flavor that reach each
// other only by active messages: each has its own segment, as ranks on
// different nodes do. mem are their window memories (nil for dynamic).
func twoNodes(t testing.TB, flavor int, size int64) ([2]*Window, [2][]byte) {
	t.Helper()
	var ws [2]*Window
	var mem [2][]byte
	for me := 0; me < 2; me++ {
		seg, err := CreateSegment(2 * CtlSize(2))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(seg.Unmap)
		ts := make([]Target, 2)
		for r := range ts {
			ts[r] = Target{Size: size, DispUnit: 1, Peer: r, Path: PathAM}
		}
		if flavor == abi.WinFlavorDynamic {
			ts[0].Size, ts[1].Size = 0, 0
			ts[me].Path = PathDirect
		} else {
			mem[me] = make([]byte, size)
			ts[me] = Target{Ptr: unsafe.Pointer(&mem[me][0]), Size: size, DispUnit: 1, Peer: me, Path: PathDirect}
		}
		ws[me] = NewWindow(me, seg, ts, flavor, nil, nil)
	}
	for me := 0; me < 2; me++ {
		ws[me].Net = &loop{wins: ws[:], from: me}
	}
	return ws, mem
}

func vectorOf(t testing.TB, count, bl, stride int, base *datatype.Type) *datatype.Type {
	v, err := datatype.Vector(count, bl, stride, base)
	if err != nil {
		t.Fatal(err)
	}
	v.Commit()
	return v
}

func TestAMPutGetAccumulate(t *testing.T) {
	ws, mem := twoNodes(t, abi.WinFlavorCreate, 4096)
	w0 := ws[0]
	i64 := dt(abi.Long)
	w0.Epoch.fence = true
	src := []int64{1, 2, 3, 4}
	vec := vectorOf(t, 4, 1, 2, i64) // every other long at the target
	if e := w0.Put(unsafe.Pointer(&src[0]), 4, i64, 1, 8, 1, vec); e != nil {
		t.Fatal(e)
	}
	if e := w0.Flush(-1); e != nil && e.Class != abi.ErrRmaSync {
		t.Fatal(e)
	}
	if e := w0.FlushRemote(-1); e != nil {
		t.Fatal(e)
	}
	got := unsafe.Slice((*int64)(unsafe.Pointer(&mem[1][8])), 8)
	if got[0] != 1 || got[2] != 2 || got[4] != 3 || got[6] != 4 || got[1] != 0 {
		t.Fatalf("vector put: %v", got)
	}
	if e := w0.Accumulate(unsafe.Pointer(&src[0]), 4, i64, 1, 8, 1, vec, op.Sum); e != nil {
		t.Fatal(e)
	}
	res := make([]int64, 4)
	if e := w0.GetAccumulate(unsafe.Pointer(&src[0]), 4, i64, unsafe.Pointer(&res[0]), 4, i64, 1, 8, 1, vec, op.Sum); e != nil {
		t.Fatal(e)
	}
	back := make([]int64, 8)
	if e := w0.Get(unsafe.Pointer(&back[0]), 8, i64, 1, 8, 8, i64); e != nil {
		t.Fatal(e)
	}
	var old, one int64 = 0, 1
	if e := w0.FetchAndOp(unsafe.Pointer(&one), unsafe.Pointer(&old), i64, 1, 8, op.Sum); e != nil {
		t.Fatal(e)
	}
	cmp, nv, prev := int64(4), int64(99), int64(0)
	if e := w0.CompareAndSwap(unsafe.Pointer(&nv), unsafe.Pointer(&cmp), unsafe.Pointer(&prev), i64, 1, 8); e != nil {
		t.Fatal(e)
	}
	if e := w0.FlushRemote(1); e != nil {
		t.Fatal(e)
	}
	if res[0] != 2 || res[3] != 8 {
		t.Fatalf("get_accumulate fetched %v", res)
	}
	if back[0] != 3 || back[2] != 6 || back[6] != 12 || back[1] != 0 {
		t.Fatalf("get after accumulates: %v", back)
	}
	if old != 3 || prev != 4 || got[0] != 99 {
		t.Fatalf("fetch_and_op %d, cas %d, target %d", old, prev, got[0])
	}
	if len(w0.pend) != 0 {
		t.Fatalf("%d requests left after a flush", len(w0.pend))
	}
}

func TestAMLargeChunks(t *testing.T) {
	const n = 200000
	ws, mem := twoNodes(t, abi.WinFlavorAllocate, n+64)
	w0 := ws[0]
	w0.Epoch.fence = true
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i*13 + 1)
	}
	b := dt(abi.Byte)
	if e := w0.Put(unsafe.Pointer(&src[0]), n, b, 1, 3, n, b); e != nil {
		t.Fatal(e)
	}
	if len(w0.pend) < n/AMMaxData {
		t.Fatalf("%d requests for %d bytes", len(w0.pend), n)
	}
	back := make([]byte, n)
	if e := w0.Get(unsafe.Pointer(&back[0]), n, b, 1, 3, n, b); e != nil {
		t.Fatal(e)
	}
	if e := w0.FlushRemote(-1); e != nil {
		t.Fatal(e)
	}
	if !bytes.Equal(mem[1][3:3+n], src) || !bytes.Equal(back, src) {
		t.Fatal("large put/get differ")
	}
	// A fragmented target type: 1-byte blocks, so the block limit cuts.
	vec := vectorOf(t, 5000, 1, 2, b)
	if e := w0.Put(unsafe.Pointer(&src[0]), 5000, b, 1, 0, 1, vec); e != nil {
		t.Fatal(e)
	}
	if e := w0.FlushRemote(-1); e != nil {
		t.Fatal(e)
	}
	for i := 0; i < 5000; i++ {
		if mem[1][2*i] != src[i] {
			t.Fatalf("fragmented put: byte %d", i)
		}
	}
}

func TestAMPaddedPairs(t *testing.T) {
	ws, mem := twoNodes(t, abi.WinFlavorCreate, 4096)
	w0 := ws[0]
	w0.Epoch.fence = true
	si := dt(abi.ShortInt) // short, pad, int: a padded pair
	type shortInt struct {
		v int16
		i int32
	}
	tgt := unsafe.Slice((*shortInt)(unsafe.Pointer(&mem[1][0])), 3000/8)
	for k := range tgt {
		tgt[k] = shortInt{int16(k), 7}
	}
	n := len(tgt)
	src := make([]shortInt, n)
	for k := range src {
		src[k] = shortInt{int16(n - k), int32(k)}
	}
	if e := w0.Accumulate(unsafe.Pointer(&src[0]), n, si, 1, 0, n, si, op.Maxloc); e != nil {
		t.Fatal(e)
	}
	if e := w0.FlushRemote(-1); e != nil {
		t.Fatal(e)
	}
	for k := range tgt {
		want := shortInt{int16(k), 7}
		if n-k > k {
			want = shortInt{int16(n - k), int32(k)}
		}
		if tgt[k] != want {
			t.Fatalf("element %d: %v, want %v", k, tgt[k], want)
		}
	}
}

func TestAMErrorsAndLocks(t *testing.T) {
	ws, _ := twoNodes(t, abi.WinFlavorCreate, 64)
	w0, w1 := ws[0], ws[1]
	i32 := dt(abi.Int)
	v := int32(1)
	if e := w0.Lock(abi.LockExclusive, 1, 0); e != nil {
		t.Fatal(e)
	}
	if w1.held[0] != heldExclusive || w1.Ctl(1).lock&writer == 0 {
		t.Fatal("exclusive lock not taken at the target")
	}
	if e := w0.Put(unsafe.Pointer(&v), 1, i32, 1, 16, 1, i32); e != nil || len(w0.pend) != 1 {
		t.Fatalf("%v %d", e, len(w0.pend))
	}
	if e := w0.Put(unsafe.Pointer(&v), 1, i32, 1, 64, 1, i32); e == nil || e.Class != abi.ErrRmaRange {
		t.Fatalf("past the end: %v", e)
	}
	if e := w0.Unlock(1); e != nil {
		t.Fatal(e)
	}
	if w1.held[0] != 0 || w1.Ctl(1).lock != 0 {
		t.Fatalf("lock word %#x after unlock", w1.Ctl(1).lock)
	}
	// A shared lock waits while the target itself holds it exclusively.
	w1.Ctl(1).LockExclusive(DefaultIdle)
	w0.amCtl(1, AMLock, 0)
	if w1.GrantLocks(func(int, uint32, []byte) {}) != 0 {
		t.Fatal("a shared lock granted under an exclusive one")
	}
	w1.Ctl(1).UnlockExclusive()
	if e := w0.amFlush(1); e != nil || w1.held[0] != heldShared {
		t.Fatalf("shared lock after release: %v", e)
	}
	w0.amCtl(1, AMUnlock, 0)
	w0.amCtl(1, AMUnlock, 0) // one too many: refused, the lock word untouched
	if e := w0.amFlush(1); e == nil || e.Class != abi.ErrRmaSync || w1.Ctl(1).lock != 0 {
		t.Fatalf("second unlock: %v, lock %#x", e, w1.Ctl(1).lock)
	}
}

var dynRegion [8]int64

func TestAMDynamic(t *testing.T) {
	ws, _ := twoNodes(t, abi.WinFlavorDynamic, 0)
	w0, w1 := ws[0], ws[1]
	region := dynRegion[:] // not on the stack, which may move
	if e := w1.Attach(unsafe.Pointer(&region[0]), 64); e != nil {
		t.Fatal(e)
	}
	w0.Epoch.fence = true
	i64 := dt(abi.Long)
	v := int64(42)
	addr := int64(uintptr(unsafe.Pointer(&region[0])))
	if e := w0.Put(unsafe.Pointer(&v), 1, i64, 1, addr+8, 1, i64); e != nil {
		t.Fatal(e)
	}
	if e := w0.FlushRemote(1); e != nil || region[1] != 42 {
		t.Fatalf("%v %d", e, region[1])
	}
	if e := w0.Put(unsafe.Pointer(&v), 1, i64, 1, addr+64, 1, i64); e != nil {
		t.Fatal(e)
	}
	if e := w0.FlushRemote(1); e == nil || e.Class != abi.ErrRmaRange {
		t.Fatalf("outside the region: %v", e)
	}
}

// amMsg builds a request by hand.
func amMsg(kind, flags, opi uint8, dtype int32, addr uint64, blocks []int64, data []byte) []byte {
	h := amHdr{kind: kind, flags: flags, op: opi, dtype: dtype, seq: 7, nblk: uint32(len(blocks) / 2), dlen: uint32(len(data)), addr: addr}
	msg := make([]byte, AMHeader+8*len(blocks)+len(data))
	h.put(msg)
	for i, v := range blocks {
		binary.LittleEndian.PutUint64(msg[AMHeader+8*i:], uint64(v))
	}
	copy(msg[AMHeader+8*len(blocks):], data)
	return msg
}

// guarded is a window (rank 1 of two, create flavour) whose 64 bytes of
// memory sit between guard bytes that no request may touch.
func guarded(t testing.TB) (*Window, []byte) {
	ws, _ := twoNodes(t, abi.WinFlavorCreate, 64)
	w := ws[1]
	buf := bytes.Repeat([]byte{0xAA}, 64*3)
	w.Targets[1].Ptr = unsafe.Pointer(&buf[64])
	return w, buf
}

func checkGuards(t testing.TB, buf []byte) {
	for i := range 64 {
		if buf[i] != 0xAA || buf[128+i] != 0xAA {
			t.Fatalf("a request wrote outside the window (byte %d)", i)
		}
	}
}

func replyClass(rep []byte, n int) int {
	if n < AMReplyHeader {
		return -1
	}
	return int(int32(binary.LittleEndian.Uint32(rep)))
}

func TestAMCorruptRequests(t *testing.T) {
	w, buf := guarded(t)
	d8 := make([]byte, 8)
	sum := uint8(op.Sum.Index())
	for _, c := range []struct {
		name  string
		msg   []byte
		class int
	}{
		{"past the end", amMsg(AMPut, 0, 0, 0, 60, []int64{0, 8}, d8), abi.ErrRmaRange},
		{"negative offset", amMsg(AMPut, 0, 0, 0, 0, []int64{-8, 8}, d8), abi.ErrRmaRange},
		{"huge address", amMsg(AMPut, 0, 0, 0, 1<<63, []int64{0, 8}, d8), abi.ErrRmaRange},
		{"wrapping offset", amMsg(AMPut, 0, 0, 0, 8, []int64{-1 << 63, 8}, d8), abi.ErrRmaRange},
		{"zero block", amMsg(AMPut, 0, 0, 0, 0, []int64{0, 0}, nil), abi.ErrOther},
		{"data short", amMsg(AMPut, 0, 0, 0, 0, []int64{0, 16}, d8), abi.ErrOther},
		{"get with data", amMsg(AMGet, 0, 0, 0, 0, []int64{0, 8}, d8), abi.ErrOther},
		{"bad kind", amMsg(99, 0, 0, 0, 0, nil, nil), abi.ErrOther},
		{"bad datatype", amMsg(AMAcc, 0, sum, 12345, 0, []int64{0, 8}, d8), abi.ErrOther},
		{"bad op", amMsg(AMAcc, 0, 200, abi.Long, 0, []int64{0, 8}, d8), abi.ErrOther},
		{"partial element", amMsg(AMAcc, 0, sum, abi.Long, 0, []int64{0, 4}, d8[:4]), abi.ErrOther},
		{"op not for type", amMsg(AMAcc, 0, uint8(op.Band.Index()), abi.Double, 0, []int64{0, 8}, d8), abi.ErrOther},
		{"cas shape", amMsg(AMCas, 0, 0, 0, 0, []int64{0, 8}, d8), abi.ErrOther},
		{"unlock unheld", amMsg(AMUnlock, 0, 0, 0, 0, nil, nil), abi.ErrRmaSync},
		{"lock with payload", amMsg(AMLock, 0, 0, 0, 0, []int64{0, 8}, nil), abi.ErrOther},
	} {
		rep := make([]byte, AMMaxReply)
		n := w.Serve(0, c.msg, rep)
		if got := replyClass(rep, n); got != c.class {
			t.Errorf("%s: reply class %d, want %d", c.name, got, c.class)
		}
		checkGuards(t, buf)
	}
	rep := make([]byte, AMMaxReply)
	if n := w.Serve(0, []byte{1, 2, 3}, rep); n != -1 {
		t.Errorf("a 3-byte request got a %d-byte reply", n)
	}
	msg := amMsg(AMPut, 0, 0, 0, 0, []int64{0, 8}, d8)
	binary.LittleEndian.PutUint32(msg[8:], 0) // no reply tag
	if n := w.Serve(0, msg, rep); n != -1 {
		t.Errorf("a request without a sequence number got a reply")
	}
	if n := w.Serve(5, amMsg(AMPut, 0, 0, 0, 0, []int64{0, 8}, d8), rep); n != -1 {
		t.Errorf("a request from rank 5 of 2 got a reply")
	}
}

func FuzzAMServe(f *testing.F) {
	d8 := make([]byte, 8)
	f.Add(amMsg(AMPut, 0, 0, 0, 8, []int64{0, 8, 16, 8}, append(d8, d8...)))
	f.Add(amMsg(AMGet, 0, 0, 0, 0, []int64{0, 64}, nil))
	f.Add(amMsg(AMAcc, AMFetch, uint8(op.Sum.Index()), abi.Int, 4, []int64{0, 8}, d8))
	f.Add(amMsg(AMAcc, 0, uint8(op.Minloc.Index()), abi.ShortInt, 0, []int64{0, 2, 4, 4}, d8[:6]))
	f.Add(amMsg(AMCas, 0, 0, 0, 56, []int64{0, 4}, d8))
	f.Add(amMsg(AMLock, AMExclusive, 0, 0, 0, nil, nil))
	f.Add(amMsg(AMPost, 0, 0, 0, 0, nil, nil))
	f.Fuzz(func(t *testing.T, msg []byte) {
		w, buf := guarded(t)
		rep := make([]byte, AMMaxReply)
		n := w.Serve(0, msg, rep)
		if n > len(rep) {
			t.Fatalf("reply of %d bytes", n)
		}
		w.GrantLocks(func(int, uint32, []byte) {})
		checkGuards(t, buf)
	})
}
