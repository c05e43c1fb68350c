// Command win exercises one-sided communication from Go: a window from
// MPI_Win_allocate with fence-separated puts around the ring and gets back,
// a window over a Go slice (reached by single copy) with lock_all and
// fetch-and-op and compare-and-swap counters hammered by every rank, and
// accumulates under exclusive locks.
package main

import (
	"unsafe"

	"gompi/abi"
	"gompi/mpi"
	"gompi/op"
	"gompi/tests/go/progs/check"
)

func main() {
	c := check.Init()
	me, n := c.Rank(), c.Size()
	next, prev := (me+1)%n, (me+n-1)%n
	i64 := mpi.TypeOf[int64]()

	// Win_allocate + fence: put a slice into the next rank, get it back.
	w, err := c.WinAllocate(8*16, 8, nil)
	check.NoErr(err, "WinAllocate")
	mem := unsafe.Slice((*int64)(w.Base), 16)
	check.NoErr(w.Fence(0), "Fence")
	out := []int64{int64(me), int64(me) * 10, int64(me) * 100}
	check.NoErr(mpi.PutSlice(w, out, next, 2), "Put")
	check.NoErr(w.Fence(0), "Fence")
	check.True(mem[2] == int64(prev) && mem[4] == int64(prev)*100, "put landed %v, want from %d", mem[:5], prev)
	back := make([]int64, 3)
	check.NoErr(mpi.GetSlice(w, back, next, 2), "Get")
	check.NoErr(w.Fence(abi.ModeNosucceed), "Fence")
	check.True(back[1] == int64(me)*10, "got back %v", back)
	check.NoErr(w.Free(), "Win free")

	// A window over Go memory: lock_all, fetch-and-op and CAS counters on rank 0.
	buf := make([]int64, 2)
	w, err = c.WinCreate(unsafe.Pointer(&buf[0]), 16, 8, nil)
	check.NoErr(err, "WinCreate")
	sum := op.Lookup(abi.OpSum)
	const iters = 300
	check.NoErr(w.LockAll(0), "LockAll")
	for i := 0; i < iters; i++ {
		one, old := int64(1), int64(0)
		check.NoErr(w.FetchAndOp(unsafe.Pointer(&one), unsafe.Pointer(&old), i64, 0, 0, sum), "FetchAndOp")
		var cur, prevv int64
		for {
			nv := cur + 1
			check.NoErr(w.CompareAndSwap(unsafe.Pointer(&nv), unsafe.Pointer(&cur), unsafe.Pointer(&prevv), i64, 0, 1), "CAS")
			if prevv == cur {
				break
			}
			cur = prevv
		}
	}
	check.NoErr(w.UnlockAll(), "UnlockAll")
	check.NoErr(c.Barrier(), "Barrier")
	if me == 0 {
		check.True(buf[0] == int64(n*iters) && buf[1] == int64(n*iters), "counters %v, want %d", buf, n*iters)
	}
	check.NoErr(c.Barrier(), "Barrier") // checked before anyone accumulates
	// Accumulate under exclusive locks into every rank's buf[1].
	for t := 0; t < n; t++ {
		check.NoErr(w.Lock(abi.LockExclusive, t, 0), "Lock")
		check.NoErr(mpi.AccumulateSlice(w, []int64{int64(me + 1)}, t, 1, sum), "Accumulate")
		check.NoErr(w.Unlock(t), "Unlock")
	}
	check.NoErr(c.Barrier(), "Barrier")
	base := int64(0)
	if me == 0 {
		base = int64(n * iters)
	}
	check.True(buf[1] == base+int64(n*(n+1)/2), "accumulated %d, want %d", buf[1], base+int64(n*(n+1)/2))
	// An error comes back as *mpi.Error with the class.
	w.SetErrhandler(mpi.ErrorsReturn)
	err = mpi.PutSlice(w, []int64{1}, 0, 0)
	e, ok := err.(*mpi.Error)
	check.True(ok && e.Class == abi.ErrRmaSync, "put outside an epoch: %v", err)
	check.NoErr(w.Free(), "Win free")
	check.Done(c, "win")
}
