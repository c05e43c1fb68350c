// Command coll exercises the collectives through the Go API: typed slice
// helpers for bcast, reduce, allreduce (in place too), scan, exscan, gather,
// scatter, allgather and alltoall, a nonblocking allreduce, a persistent
// barrier/allreduce pair started many times, and bcast, reduce and allreduce
// of 320 KB (past the shared-memory slots: several calls each).
package main

import (
	"unsafe"

	"gompi/mpi"
	"gompi/op"
	"gompi/tests/go/progs/check"
)

func main() {
	c := check.Init()
	me, n := c.Rank(), c.Size()

	b := []float64{0, 0, 0}
	if me == n-1 {
		b = []float64{1.5, 2.5, 3.5}
	}
	check.NoErr(mpi.BcastSlice(c, b, n-1), "BcastSlice")
	check.True(b[0] == 1.5 && b[2] == 3.5, "bcast got %v", b)

	in := []int32{int32(me), int32(2 * me), 1}
	out := make([]int32, 3)
	check.NoErr(mpi.AllreduceSlice(c, in, out, op.Sum), "AllreduceSlice")
	s := int32(n * (n - 1) / 2)
	check.True(out[0] == s && out[1] == 2*s && out[2] == int32(n), "allreduce got %v", out)
	x := []int64{int64(me)}
	check.NoErr(mpi.AllreduceSlice(c, nil, x, op.Max), "AllreduceSlice in place")
	check.True(x[0] == int64(n-1), "allreduce in place got %v", x)

	r := make([]int32, 3)
	check.NoErr(mpi.ReduceSlice(c, in, r, op.Sum, 0), "ReduceSlice")
	check.True(me != 0 || r[0] == s, "reduce got %v", r)

	sc := make([]int32, 1)
	check.NoErr(mpi.ScanSlice(c, []int32{int32(me + 1)}, sc, op.Sum), "ScanSlice")
	check.True(sc[0] == int32((me+1)*(me+2)/2), "scan got %v", sc)
	ex := []int32{-1}
	check.NoErr(mpi.ExscanSlice(c, []int32{int32(me + 1)}, ex, op.Sum), "ExscanSlice")
	check.True((me == 0 && ex[0] == -1) || (me > 0 && ex[0] == int32(me*(me+1)/2)), "exscan got %v", ex)

	g := make([]uint16, 2*n)
	check.NoErr(mpi.GatherSlice(c, []uint16{uint16(me), 7}, g, 0), "GatherSlice")
	for q := 0; q < n && me == 0; q++ {
		check.True(g[2*q] == uint16(q) && g[2*q+1] == 7, "gather got %v", g)
	}
	src := make([]uint16, 2*n)
	for q := range src {
		src[q] = uint16(100 + q)
	}
	got := make([]uint16, 2)
	check.NoErr(mpi.ScatterSlice(c, src, got, 0), "ScatterSlice")
	check.True(got[0] == uint16(100+2*me) && got[1] == uint16(101+2*me), "scatter got %v", got)

	ag := make([]float32, n)
	check.NoErr(mpi.AllgatherSlice(c, []float32{float32(me) / 2}, ag), "AllgatherSlice")
	for q := 0; q < n; q++ {
		check.True(ag[q] == float32(q)/2, "allgather got %v", ag)
	}
	ta, tr := make([]int32, n), make([]int32, n)
	for q := range ta {
		ta[q] = int32(me*100 + q)
	}
	check.NoErr(mpi.AlltoallSlice(c, ta, tr), "AlltoallSlice")
	for q := 0; q < n; q++ {
		check.True(tr[q] == int32(q*100+me), "alltoall got %v", tr)
	}

	large(c, me, n)

	req, err := mpi.IallreduceSlice(c, in, out, op.Min)
	check.NoErr(err, "IallreduceSlice")
	_, err = c.Wait(req)
	check.NoErr(err, "Wait")
	check.True(out[0] == 0 && out[2] == 1, "iallreduce got %v", out)

	// persistent: started 200 times with a changing input
	v, w := []int32{0}, []int32{0}
	pb, err := c.BarrierAs(mpi.Persistent)
	check.NoErr(err, "Barrier_init")
	pa, err := c.AllreduceAs(mpi.Persistent, mpiPtr(v), mpiPtr(w), 1, mpi.TypeOf[int32](), op.Sum)
	check.NoErr(err, "Allreduce_init")
	for it := 0; it < 200; it++ {
		v[0] = int32(me + it)
		check.NoErr(mpi.Start(pb), "Start barrier")
		check.NoErr(mpi.Start(pa), "Start allreduce")
		mpi.WaitRequest(pa)
		mpi.Finish(pa)
		mpi.WaitRequest(pb)
		mpi.Finish(pb)
		check.True(w[0] == s+int32(n*it), "persistent round %d got %d", it, w[0])
	}
	mpi.Free(pa)
	mpi.Free(pb)
	check.Done(c, "coll")
}

func mpiPtr(s []int32) unsafe.Pointer { return unsafe.Pointer(&s[0]) }

// large runs bcast, reduce and allreduce of 40,000 float64 (five big
// shared-memory slots' worth), with values that show any misplaced piece.
func large(c *mpi.Comm, me, n int) {
	const count = 40000
	in, out := make([]float64, count), make([]float64, count)
	for i := range in {
		in[i] = float64(me*count + i)
	}
	root := 1 % n
	b := make([]float64, count)
	if me == root {
		copy(b, in)
	}
	check.NoErr(mpi.BcastSlice(c, b, root), "BcastSlice large")
	for i := range b {
		if b[i] != float64(root*count+i) {
			check.True(false, "large bcast: element %d = %v", i, b[i])
			break
		}
	}
	// sum over ranks r of r*count+i: count*n(n-1)/2 + n*i, exact in float64
	want := func(i int) float64 { return float64(count*n*(n-1)/2 + n*i) }
	check.NoErr(mpi.ReduceSlice(c, in, out, op.Sum, root), "ReduceSlice large")
	for i := 0; me == root && i < count; i++ {
		if out[i] != want(i) {
			check.True(false, "large reduce: element %d = %v, want %v", i, out[i], want(i))
			break
		}
	}
	check.NoErr(mpi.AllreduceSlice(c, in, out, op.Sum), "AllreduceSlice large")
	for i := range out {
		if out[i] != want(i) {
			check.True(false, "large allreduce: element %d = %v, want %v", i, out[i], want(i))
			break
		}
	}
}
