// Command ring passes typed slices (int32, float64, complex128) around the
// ring of all ranks, n hops, so every slice comes home; each hop adds 1 to
// every element and every receiver checks source, tag, count and contents.
// Lengths cover empty, eager and rendezvous messages.
package main

import (
	"gompi/mpi"
	"gompi/tests/go/progs/check"
)

var lengths = []int{0, 1, 17, 3000, 100_000, 300_000}

// base is the value element i of origin's slice starts with: exact in every
// element type used here (below 2^24). The conversions are linear, so adding
// conv(1) per hop gives conv(base+hop).
func base(origin, i int) int { return (origin*7919 + i*13) % (1 << 20) }

func ring[T int32 | float64 | complex128](c *mpi.Comm, name string, conv func(int) T, n int) {
	me, size := c.Rank(), c.Size()
	right, left := (me+1)%size, (me-1+size)%size
	out := make([]T, n)
	for i := range out {
		out[i] = conv(base(me, i))
	}
	in := make([]T, n)
	for hop := 1; hop <= size; hop++ {
		for i := range out {
			out[i] += conv(1)
		}
		tag := 100 + hop
		r, err := mpi.IsendSlice(c, out, right, tag)
		check.NoErr(err, "Isend")
		st, err := mpi.RecvSlice(c, in, left, tag)
		check.NoErr(err, "Recv")
		_, err = c.Wait(r)
		check.NoErr(err, "Wait")
		check.True(st.Source == left && st.Tag == tag, "%s len %d hop %d: status source %d tag %d, want %d %d",
			name, n, hop, st.Source, st.Tag, left, tag)
		check.True(mpi.Elements[T](st) == n, "%s len %d hop %d: received %d elements", name, n, hop, mpi.Elements[T](st))
		origin := (me - hop%size + size) % size
		for i, v := range in {
			if want := conv(base(origin, i) + hop); v != want {
				check.Fail("%s len %d hop %d: element %d is %v, want %v (from rank %d)", name, n, hop, i, v, want, origin)
			}
		}
		out, in = in, out
	}
	// After size hops the slice is our own again, size larger.
	for i, v := range out {
		check.True(v == conv(base(me, i)+size), "%s len %d: own slice came back wrong at %d", name, n, i)
	}
}

func main() {
	c := check.Init()
	for _, n := range lengths {
		ring(c, "int32", func(v int) int32 { return int32(v) }, n)
		ring(c, "float64", func(v int) float64 { return float64(v) * 0.5 }, n)
		ring(c, "complex128", func(v int) complex128 { return complex(float64(v), -float64(v)/4) }, n)
	}
	check.Done(c, "ring")
}
