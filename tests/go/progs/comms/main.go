// Command comms builds communicators through the Go API: a duplicate, a
// split by parity reversed by key, a Cartesian ring, and an
// intercommunicator between the halves that is merged back; it checks
// ranks and sizes by hand and moves a message on each, where a message on
// one communicator must never satisfy a receive on another.
package main

import (
	"gompi/abi"
	"gompi/mpi"
	"gompi/tests/go/progs/check"
)

// shift sends our rank to the right neighbour on c and returns what came from the left.
func shift(c *mpi.Comm, tag int) int {
	n, me := c.Size(), c.Rank()
	out := []int32{int32(me)}
	in := []int32{-1}
	r, err := mpi.IsendSlice(c, out, (me+1)%n, tag)
	check.NoErr(err, "Isend")
	_, err = mpi.RecvSlice(c, in, (me+n-1)%n, tag)
	check.NoErr(err, "Recv")
	_, err = c.Wait(r)
	check.NoErr(err, "Wait")
	return int(in[0])
}

func main() {
	w := check.Init()
	me, n := w.Rank(), w.Size()

	d, err := w.Dup()
	check.NoErr(err, "Dup")
	check.True(mpi.Compare(d, w) == abi.Congruent, "Compare(dup, world) = %d", mpi.Compare(d, w))
	check.True(shift(d, 1) == (me+n-1)%n, "shift on dup")

	half, err := w.Split(me%2, -me)
	check.NoErr(err, "Split")
	hn := (n + 1 - me%2) / 2
	check.True(half.Size() == hn, "half size %d want %d", half.Size(), hn)
	check.True(half.Rank() == hn-1-me/2, "half rank %d want %d", half.Rank(), hn-1-me/2)
	got := shift(half, 1) // same tag as on d: must not cross
	check.True(got == (half.Rank()+hn-1)%hn, "shift on half got %d", got)

	ring, err := w.CartCreate([]int{n}, []bool{true}, false)
	check.NoErr(err, "CartCreate")
	in, out, err := ring.Neighbors("test")
	check.NoErr(err, "Neighbors")
	check.True(in[0] == (me+n-1)%n && out[1] == (me+1)%n, "ring neighbours %v %v", in, out)

	if n > 1 {
		low := me < n/2
		color := 0
		if !low {
			color = 1
		}
		part, err := w.Split(color, me)
		check.NoErr(err, "Split halves")
		remoteLeader := n / 2
		if !low {
			remoteLeader = 0
		}
		ic, err := mpi.IntercommCreate(part, 0, w, remoteLeader, 7)
		check.NoErr(err, "IntercommCreate")
		check.True(ic.IsInter() && ic.RemoteSize() == n-part.Size(), "remote size %d", ic.RemoteSize())
		m, err := ic.Merge(!low)
		check.NoErr(err, "Merge")
		check.True(m.Rank() == me && m.Size() == n, "merged rank %d size %d", m.Rank(), m.Size())
		check.True(shift(m, 1) == (me+n-1)%n, "shift on merged")
		for _, c := range []*mpi.Comm{m, ic, part} {
			check.NoErr(c.Free(), "Free")
		}
	}
	for _, c := range []*mpi.Comm{ring, half, d} {
		check.NoErr(c.Free(), "Free")
	}
	check.Done(w, "comms")
}
