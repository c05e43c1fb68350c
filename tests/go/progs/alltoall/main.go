// Command alltoall exchanges float64 slices between every pair of ranks
// (itself included) with Irecv/Isend and Wait, small and large, completing
// the requests in different orders; every receiver checks every slice.
package main

import (
	"gompi/mpi"
	"gompi/tests/go/progs/check"
)

func value(src, dst, round, i int) float64 {
	return float64(src)*1e6 + float64(dst)*1e3 + float64(round) + float64(i)*0.25
}

func main() {
	c := check.Init()
	me, n := c.Rank(), c.Size()
	for round, length := range []int{1, 500, 5000, 200_000, 0, 70_000} {
		send := make([][]float64, n)
		recv := make([][]float64, n)
		rreq := make([]*mpi.Request, n)
		sreq := make([]*mpi.Request, n)
		var err error
		for p := 0; p < n; p++ {
			recv[p] = make([]float64, length)
			rreq[p], err = mpi.IrecvSlice(c, recv[p], p, round)
			check.NoErr(err, "Irecv")
		}
		for k := 0; k < n; k++ {
			p := (me + k) % n // spread the load: not everyone to rank 0 first
			send[p] = make([]float64, length)
			for i := range send[p] {
				send[p][i] = value(me, p, round, i)
			}
			sreq[p], err = mpi.IsendSlice(c, send[p], p, round)
			check.NoErr(err, "Isend")
		}
		// Odd rounds complete receives first, newest first; even rounds sends first.
		order := append(append([]*mpi.Request{}, sreq...), rreq...)
		if round%2 == 1 {
			order = order[:0]
			for p := n - 1; p >= 0; p-- {
				order = append(order, rreq[p])
			}
			order = append(order, sreq...)
		}
		for _, r := range order {
			_, err := c.Wait(r)
			check.NoErr(err, "Wait")
		}
		for p := 0; p < n; p++ {
			for i, v := range recv[p] {
				if v != value(p, me, round, i) {
					check.Fail("round %d: from rank %d element %d is %v, want %v", round, p, i, v, value(p, me, round, i))
				}
			}
		}
	}
	check.Done(c, "alltoall")
}
