// Command anysource gathers every rank's number at rank 0 with
// MPI_ANY_SOURCE (and MPI_ANY_TAG in odd rounds): each rank must arrive
// exactly once per round, with the status naming who sent it.
package main

import (
	"gompi/abi"
	"gompi/mpi"
	"gompi/tests/go/progs/check"
)

const rounds = 20

func main() {
	c := check.Init()
	me, n := c.Rank(), c.Size()
	msg := make([]int64, 3)
	for round := 0; round < rounds; round++ {
		tag := 1000 + round
		if me != 0 {
			msg[0], msg[1], msg[2] = int64(me), int64(round), int64(me*me)
			check.NoErr(mpi.SendSlice(c, msg, 0, tag), "Send")
			// Rounds are separate: with MPI_ANY_TAG a fast sender's next
			// round would otherwise be a legal match.
			check.NoErr(c.Barrier(), "Barrier")
			continue
		}
		seen := make([]bool, n)
		for k := 1; k < n; k++ {
			want := tag
			if round%2 == 1 {
				want = abi.AnyTag
			}
			st, err := mpi.RecvSlice(c, msg, abi.AnySource, want)
			check.NoErr(err, "Recv")
			src := int(msg[0])
			check.True(st.Source == src, "round %d: status source %d but message from %d", round, st.Source, src)
			check.True(st.Tag == tag && msg[1] == int64(round), "round %d: tag %d round %d", round, st.Tag, msg[1])
			check.True(src > 0 && src < n && !seen[src], "round %d: rank %d arrived twice or is not a sender", round, src)
			check.True(msg[2] == int64(src*src) && mpi.Elements[int64](st) == 3, "round %d: bad payload from %d", round, src)
			seen[src] = true
		}
		check.NoErr(c.Barrier(), "Barrier")
	}
	// Every rank really took part: the count comes back to all.
	if me == 0 {
		msg[0] = int64(n - 1)
	}
	for p := 1; p < n; p++ {
		if me == 0 {
			check.NoErr(mpi.SendSlice(c, msg[:1], p, 1), "Send")
		} else if me == p {
			_, err := mpi.RecvSlice(c, msg[:1], 0, 1)
			check.NoErr(err, "Recv")
			check.True(msg[0] == int64(n-1), "rank 0 gathered %d, want %d", msg[0], n-1)
		}
	}
	check.Done(c, "anysource")
}
