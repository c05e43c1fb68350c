package osc

import (
	"math"
	"os"
	"sync"
	"testing"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/op"
)

// twoRanks makes the two views (ranks 0 and 1) of one window of
// MPI_Win_allocate flavour over one segment, mapped twice as two processes
// would (the second mapping through /proc/self/fd, as peers open it).
func twoRanks(t testing.TB, size int64) (*Window, *Window) {
	t.Helper()
	sizes := []int64{size, size}
	offs, total := Layout(sizes, false)
	seg0, err := CreateSegment(int(total))
	if err != nil {
		t.Fatal(err)
	}
	seg1, err := OpenSegment(os.Getpid(), seg0.FD, int(total))
	if err != nil {
		t.Fatal(err)
	}
	seg0.CloseFD()
	t.Cleanup(func() { seg0.Unmap(); seg1.Unmap() })
	mk := func(me int, seg *Segment) *Window {
		ts := make([]Target, 2)
		for r := range ts {
			ts[r] = Target{Ptr: unsafe.Add(seg.Base, offs[r]), Size: sizes[r], DispUnit: 1, Peer: r, Path: PathDirect}
		}
		w := NewWindow(me, seg, ts, abi.WinFlavorAllocate, nil, nil)
		w.Atomics = true
		return w
	}
	return mk(0, seg0), mk(1, seg1)
}

func dt(h int32) *datatype.Type { return datatype.Lookup(h) }

func opOf(i int) *op.Op { return op.Lookup(abi.OpMax + int32(i)) }

func TestRWLockExcludes(t *testing.T) {
	w0, w1 := twoRanks(t, 64)
	counter := (*int64)(w1.Targets[1].Ptr) // rank 1's memory, seen by rank 1
	var wg sync.WaitGroup
	const workers, iters = 8, 2000
	for g := 0; g < workers; g++ {
		w := w0
		if g%2 == 1 {
			w = w1 // the other mapping: locks work across processes' views
		}
		wg.Add(1)
		go func(c *Ctl, shared bool) {
			defer wg.Done()
			for i := 0; i < iters; i++ {
				if shared && i%4 == 0 {
					c.LockShared(DefaultIdle)
					_ = *(*int64)(unsafe.Pointer(counter))
					c.UnlockShared()
					continue
				}
				c.LockExclusive(DefaultIdle)
				v := *counter // a plain read-modify-write: only the lock protects it
				*counter = v + 1
				c.UnlockExclusive()
			}
		}(w.Ctl(1), g%3 == 0)
	}
	wg.Wait()
	want := int64(0)
	for g := 0; g < workers; g++ {
		if g%3 == 0 {
			want += iters - iters/4
		} else {
			want += iters
		}
	}
	if *counter != want {
		t.Fatalf("counter %d, want %d", *counter, want)
	}
	if v := w0.Ctl(1).lock; v != 0 {
		t.Fatalf("lock word %#x after all released", v)
	}
}

func TestMutex(t *testing.T) {
	w0, w1 := twoRanks(t, 64)
	n := (*int)(w0.Targets[0].Ptr)
	var wg sync.WaitGroup
	for g := 0; g < 6; g++ {
		c := w0.Ctl(0)
		if g%2 == 1 {
			c = w1.Ctl(0)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 3000; i++ {
				c.Lock(DefaultIdle)
				*n = *n + 1
				c.Unlock()
			}
		}()
	}
	wg.Wait()
	if *n != 18000 {
		t.Fatalf("count %d, want 18000", *n)
	}
}

// The atomic kernels must agree with op's kernels for every op and type
// they cover.
func TestAtomicKernelsMatchOp(t *testing.T) {
	types := []int32{abi.Int, abi.Unsigned, abi.Int64, abi.UnsignedLong, abi.Float, abi.Double, abi.Int32,
		abi.Char, abi.UnsignedChar, abi.Short, abi.UnsignedShort}
	vals := []float64{0, 1, -3, 7, 100, -250}
	for _, h := range types {
		ty := dt(h)
		kind := op.AtomicKind(ty)
		if kind == op.AtomNone {
			t.Fatalf("%s is not an atomic kind", ty.Name)
		}
		for i := 0; i <= op.INoOp; i++ {
			o := opOf(i)
			if !atomicFits(kind, i) || o.CheckAccumulate(ty) != 0 {
				continue
			}
			for _, a := range vals {
				for _, b := range vals {
					in, inout := encode(kind, a), encode(kind, b)
					want := inout
					o.Apply(unsafe.Pointer(&in), unsafe.Pointer(&want), 1, ty)
					got := inout
					old := atomicApply(kind, i, unsafe.Pointer(&got), in)
					es := elemBytes(kind)
					if mask(es, got) != mask(es, want) || mask(es, old) != mask(es, inout) {
						t.Errorf("%s %s: %v op %v: atomic %#x (old %#x), op kernel %#x", o.Name, ty.Name, a, b, got, old, want)
					}
				}
			}
		}
	}
}

func mask(es int, v uint64) uint64 {
	if es < 8 {
		return v & (1<<(8*es) - 1)
	}
	return v
}

// Neighbouring bytes of one word, hammered at once, each keep every update.
func TestSubwordAtomics(t *testing.T) {
	w0, w1 := twoRanks(t, 64)
	w0.LockAll(0)
	w1.LockAll(0)
	c := dt(abi.UnsignedChar)
	sum := opOf(op.ISum)
	var wg sync.WaitGroup
	for g := 0; g < 6; g++ {
		w := []*Window{w0, w1}[g%2]
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			one, r := uint8(1), uint8(0)
			for i := 0; i < 200; i++ {
				w.FetchAndOp(unsafe.Pointer(&one), unsafe.Pointer(&r), c, 1, int64(g%3), sum)
				cur := uint8(0)
				for { // CAS increment of byte 3+g%3
					nv := cur + 1
					var prev uint8
					w.CompareAndSwap(unsafe.Pointer(&nv), unsafe.Pointer(&cur), unsafe.Pointer(&prev), c, 1, int64(3+g%3))
					if prev == cur {
						break
					}
					cur = prev
				}
			}
		}(g)
	}
	wg.Wait()
	got := (*[6]uint8)(w0.Targets[1].Ptr)
	for i, v := range got {
		if v != 400%256 {
			t.Fatalf("byte %d = %d, want %d (all %v)", i, v, 400%256, *got)
		}
	}
}

func encode(kind int, v float64) uint64 {
	switch kind {
	case op.AtomF32:
		return uint64(math.Float32bits(float32(v)))
	case op.AtomF64:
		return math.Float64bits(v)
	case op.AtomI32, op.AtomU32:
		return uint64(uint32(int32(v)))
	case op.AtomI8, op.AtomU8:
		return uint64(uint8(int8(v)))
	case op.AtomI16, op.AtomU16:
		return uint64(uint16(int16(v)))
	}
	return uint64(int64(v))
}

func TestFetchAndOpAndCASConcurrent(t *testing.T) {
	w0, w1 := twoRanks(t, 64)
	for _, w := range []*Window{w0, w1} {
		if err := w.LockAll(0); err != nil {
			t.Fatal(err)
		}
	}
	long := dt(abi.Long)
	sum := opOf(op.ISum)
	var wg sync.WaitGroup
	const iters = 5000
	for _, w := range []*Window{w0, w1} {
		wg.Add(1)
		go func(w *Window) {
			defer wg.Done()
			one, old := int64(1), int64(0)
			for i := 0; i < iters; i++ {
				if err := w.FetchAndOp(unsafe.Pointer(&one), unsafe.Pointer(&old), long, 0, 0, sum); err != nil {
					t.Error(err)
					return
				}
				var cur, prev int64
				for {
					nv := cur + 1
					if err := w.CompareAndSwap(unsafe.Pointer(&nv), unsafe.Pointer(&cur), unsafe.Pointer(&prev), long, 0, 8); err != nil {
						t.Error(err)
						return
					}
					if prev == cur {
						break
					}
					cur = prev
				}
			}
		}(w)
	}
	wg.Wait()
	p := (*[2]int64)(w0.Targets[0].Ptr)
	if p[0] != 2*iters || p[1] != 2*iters {
		t.Fatalf("counters %v, want %d", *p, 2*iters)
	}
}

func TestAccumulateMutexPath(t *testing.T) {
	w0, _ := twoRanks(t, 64)
	w0.LockAll(0)
	short := dt(abi.Short) // 2-byte elements: under the target's mutex
	in := []int16{1, 2, 3}
	res := make([]int16, 3)
	for i := 0; i < 3; i++ {
		if err := w0.GetAccumulate(unsafe.Pointer(&in[0]), 3, short, unsafe.Pointer(&res[0]), 3, short, 1, 0, 3, short, opOf(op.ISum)); err != nil {
			t.Fatal(err)
		}
	}
	got := (*[3]int16)(w0.Targets[1].Ptr)
	if *got != [3]int16{3, 6, 9} || res[2] != 6 {
		t.Fatalf("target %v, last fetched %v", *got, res)
	}
	// pair types: MAXLOC
	pair := dt(abi.TwoInt)
	v := [2]int32{50, 7}
	if err := w0.Accumulate(unsafe.Pointer(&v), 1, pair, 1, 16, 1, pair, opOf(op.IMaxloc)); err != nil {
		t.Fatal(err)
	}
	if p := (*[2]int32)(unsafe.Add(w0.Targets[1].Ptr, 16)); *p != v {
		t.Fatalf("maxloc gave %v", *p)
	}
	if err := w0.Accumulate(unsafe.Pointer(&v), 1, pair, 1, 0, 1, pair, op.NewUser(nil, true)); err == nil || err.Class != abi.ErrOp {
		t.Fatalf("user op: %v", err)
	}
}

func TestRegions(t *testing.T) {
	var c Ctl
	if c.Attach(1000, 100) != nil || c.Attach(2000, 50) != nil {
		t.Fatal("attach failed")
	}
	if e := c.Attach(1050, 10); e == nil || e.Class != abi.ErrRmaAttach {
		t.Fatalf("overlap: %v", e)
	}
	if !c.Covers(1000, 100, DefaultIdle) || !c.Covers(2010, 40, DefaultIdle) || c.Covers(1090, 20, DefaultIdle) || c.Covers(1200, 1, DefaultIdle) {
		t.Fatal("covers wrong")
	}
	if c.Detach(1001) == nil || c.Detach(1000) != nil || c.Covers(1000, 1, DefaultIdle) || !c.Covers(2000, 50, DefaultIdle) {
		t.Fatal("detach wrong")
	}
	for i := 0; i < MaxRegions-1; i++ {
		if c.Attach(uint64(10000+10*i), 10) != nil {
			t.Fatal("attach within the limit failed")
		}
	}
	if e := c.Attach(1, 1); e == nil || e.Class != abi.ErrRmaAttach {
		t.Fatalf("too many: %v", e)
	}
}

func TestEpochErrors(t *testing.T) {
	w0, _ := twoRanks(t, 64)
	x := int32(5)
	i32 := dt(abi.Int)
	class := func(e *Error) int {
		if e == nil {
			return 0
		}
		return e.Class
	}
	steps := []struct {
		name string
		err  *Error
		want int
	}{
		{"put outside epoch", w0.Put(unsafe.Pointer(&x), 1, i32, 1, 0, 1, i32), abi.ErrRmaSync},
		{"unlock unlocked", w0.Unlock(1), abi.ErrRmaSync},
		{"complete unstarted", w0.Complete(), abi.ErrRmaSync},
		{"wait unposted", w0.Wait(), abi.ErrRmaSync},
		{"bad lock type", w0.Lock(3, 1, 0), abi.ErrLocktype},
		{"bad assert", w0.Lock(abi.LockShared, 1, abi.ModeNoput), abi.ErrAssert},
		{"lock", w0.Lock(abi.LockShared, 1, 0), 0},
		{"lock twice", w0.Lock(abi.LockShared, 1, 0), abi.ErrRmaSync},
		{"lock_all while locked", w0.LockAll(0), abi.ErrRmaSync},
		{"fence while locked", w0.FenceCheck(0), abi.ErrRmaSync},
		{"free while locked", w0.FreeCheck(), abi.ErrRmaSync},
		{"range", w0.Put(unsafe.Pointer(&x), 1, i32, 1, 61, 1, i32), abi.ErrRmaRange},
		{"disp", w0.Put(unsafe.Pointer(&x), 1, i32, 1, -4, 1, i32), abi.ErrDisp},
		{"rank", w0.Put(unsafe.Pointer(&x), 1, i32, 2, 0, 1, i32), abi.ErrRank},
		{"put", w0.Put(unsafe.Pointer(&x), 1, i32, 1, 60, 1, i32), 0},
		{"other target not locked", w0.Put(unsafe.Pointer(&x), 1, i32, 0, 0, 1, i32), abi.ErrRmaSync},
		{"unlock", w0.Unlock(1), 0},
		{"attach on allocate", w0.Attach(unsafe.Pointer(&x), 4), abi.ErrRmaFlavor},
		{"fence assert", w0.FenceCheck(1), abi.ErrAssert},
	}
	for _, s := range steps {
		if got := class(s.err); got != s.want {
			t.Errorf("%s: class %d, want %d (%v)", s.name, got, s.want, s.err)
		}
	}
	if *(*int32)(unsafe.Add(w0.Targets[1].Ptr, 60)) != 5 {
		t.Error("put did not land")
	}
}

func TestPSCW(t *testing.T) {
	w0, w1 := twoRanks(t, 64)
	i32 := dt(abi.Int)
	done := make(chan *Error)
	for round := 0; round < 50; round++ {
		go func() { // rank 1 exposes to rank 0
			if e := w1.Post([]int{0}, 0); e != nil {
				done <- e
				return
			}
			done <- w1.Wait()
		}()
		v := int32(round)
		if e := w0.Start([]int{1}, 0); e != nil {
			t.Fatal(e)
		}
		if e := w0.Put(unsafe.Pointer(&v), 1, i32, 1, 0, 1, i32); e != nil {
			t.Fatal(e)
		}
		if e := w0.Complete(); e != nil {
			t.Fatal(e)
		}
		if e := <-done; e != nil {
			t.Fatal(e)
		}
		if got := *(*int32)(w1.Targets[1].Ptr); got != v {
			t.Fatalf("round %d: target holds %d", round, got)
		}
	}
	if ok, e := w1.Test(); ok || e == nil || e.Class != abi.ErrRmaSync {
		t.Fatalf("test without post: %v %v", ok, e)
	}
}

// Derived datatypes on both sides, both directions.
func TestDerivedCopies(t *testing.T) {
	w0, _ := twoRanks(t, 256)
	w0.LockAll(0)
	i32 := dt(abi.Int)
	vec, err := datatype.Vector(4, 1, 3, i32) // ints 0, 3, 6, 9
	if err != nil {
		t.Fatal(err)
	}
	vec.Commit()
	src := []int32{10, 20, 30, 40}
	if e := w0.Put(unsafe.Pointer(&src[0]), 4, i32, 1, 8, 1, vec); e != nil {
		t.Fatal(e)
	}
	tgt := (*[16]int32)(unsafe.Add(w0.Targets[1].Ptr, 8))
	for i, v := range src {
		if tgt[3*i] != v {
			t.Fatalf("target %v", *tgt)
		}
	}
	dst := make([]int32, 12)
	if e := w0.Get(unsafe.Pointer(&dst[0]), 1, vec, 1, 8, 1, vec); e != nil {
		t.Fatal(e)
	}
	if dst[0] != 10 || dst[3] != 20 || dst[9] != 40 || dst[1] != 0 {
		t.Fatalf("get %v", dst)
	}
	if e := w0.Accumulate(unsafe.Pointer(&src[0]), 4, i32, 1, 8, 1, vec, opOf(op.ISum)); e != nil {
		t.Fatal(e)
	}
	if tgt[0] != 20 || tgt[9] != 80 || tgt[1] != 0 {
		t.Fatalf("accumulate %v", *tgt)
	}
}

// The hot operations allocate nothing.
func TestNoAllocs(t *testing.T) {
	w0, _ := twoRanks(t, 64)
	w0.LockAll(0)
	l, c := dt(abi.Long), dt(abi.Char)
	sum := opOf(op.ISum)
	v, r := int64(1), int64(0)
	pv, pr := unsafe.Pointer(&v), unsafe.Pointer(&r)
	if n := testing.AllocsPerRun(100, func() {
		w0.Put(pv, 1, l, 1, 0, 1, l)
		w0.Get(pr, 1, l, 1, 0, 1, l)
		w0.FetchAndOp(pv, pr, l, 1, 8, sum)
		w0.CompareAndSwap(pv, pr, pr, l, 1, 16)
		w0.Accumulate(pv, 1, l, 1, 24, 1, l, sum)
		w0.FetchAndOp(pv, pr, c, 1, 32, sum) // 1-byte elements: the mutex path
		w0.Flush(1)
	}); n != 0 {
		t.Fatalf("%v allocations per round", n)
	}
}

func BenchmarkPut8(b *testing.B) {
	w0, _ := twoRanksB(b)
	w0.LockAll(0)
	l := dt(abi.Long)
	v := int64(1)
	for i := 0; i < b.N; i++ {
		w0.Put(unsafe.Pointer(&v), 1, l, 1, 0, 1, l)
	}
}

func BenchmarkFetchAndOp(b *testing.B) {
	w0, _ := twoRanksB(b)
	w0.LockAll(0)
	l := dt(abi.Long)
	sum := opOf(op.ISum)
	v, r := int64(1), int64(0)
	for i := 0; i < b.N; i++ {
		w0.FetchAndOp(unsafe.Pointer(&v), unsafe.Pointer(&r), l, 1, 0, sum)
	}
}

func twoRanksB(b *testing.B) (*Window, *Window) { return twoRanks(b, 64) }

func BenchmarkFetchAndOpChar(b *testing.B) {
	w0, _ := twoRanksB(b)
	w0.LockAll(0)
	c := dt(abi.Char)
	sum := opOf(op.ISum)
	v, r := int8(1), int8(0)
	for i := 0; i < b.N; i++ {
		w0.FetchAndOp(unsafe.Pointer(&v), unsafe.Pointer(&r), c, 1, 0, sum)
	}
}

func TestLayout(t *testing.T) {
	sizes := []int64{10, 0, 5000}
	offs, total := Layout(sizes, true)
	ctl := int64(roundUp(3*CtlSize(3), pageSize))
	if offs[0] != ctl || offs[1] != ctl+10 || offs[2] != ctl+10 || total != ctl+5010 {
		t.Fatalf("contiguous layout %v %d", offs, total)
	}
	offs, total = Layout(sizes, false)
	if offs[1] != ctl+pageSize || offs[2] != ctl+pageSize || total != ctl+pageSize+5000 {
		t.Fatalf("page-aligned layout %v %d", offs, total)
	}
}
