package mpi

import (
	"cmp"
	"slices"

	"gompi/abi"
)

// swapLists gives every process of an intercommunicator the other group's
// list: the local leaders trade theirs and broadcast what they got.
func (c *Comm) swapLists(v *xview, mine []int) []int {
	n := []int{0}
	var theirs []int
	if c.rank == 0 {
		in := make([]byte, 8)
		exchange(c.cc, 0, tagCommBridge, intsBytes([]int{len(mine)}), in)
		theirs = make([]int, bytesInts(in)[0])
		b := make([]byte, 8*len(theirs))
		exchange(c.cc, 0, tagCommBridge, intsBytes(mine), b)
		theirs = bytesInts(b)
		n[0] = len(theirs)
	}
	v.bcastInts(n, 0)
	if c.rank != 0 {
		theirs = make([]int, n[0])
	}
	v.bcastInts(theirs, 0)
	return theirs
}

// interSplit is MPI_Comm_split on an intercommunicator: each colour joins
// its local members with the remote members of the same colour; a colour
// missing on either side gives nil.
func (c *Comm) interSplit(color, key int) (*Comm, error) {
	v := viewOf(c)
	mine := v.allgatherInts([]int{color, key})
	theirs := c.swapLists(v, mine)
	s, e := c.agreeSlots("MPI_Comm_split", v, 2)
	if e != nil {
		return nil, c.raise(e)
	}
	local, me := members(mine, c.group, color, c.rank)
	remote, _ := members(theirs, c.remote, color, -1)
	if color == abi.Undefined || len(remote) == 0 {
		ctxFree.set(s[0])
		ctxFree.set(s[1])
		return nil, nil
	}
	return newInter(s, local, me, remote, c), nil
}

// members picks, from (colour, key) pairs indexed by rank, the world ranks
// of colour ordered by key then rank, and the place of rank me among them.
func members(pairs, world []int, color, me int) ([]int, int) {
	type m struct{ key, rank int }
	var ms []m
	for r := 0; 2*r < len(pairs); r++ {
		if pairs[2*r] == color {
			ms = append(ms, m{pairs[2*r+1], r})
		}
	}
	slices.SortStableFunc(ms, func(a, b m) int { return cmp.Compare(a.key, b.key) })
	out := make([]int, len(ms))
	pos := -1
	for i, x := range ms {
		out[i] = world[x.rank]
		if x.rank == me {
			pos = i
		}
	}
	return out, pos
}

// interCreate is MPI_Comm_create on an intercommunicator: g is a subgroup of
// the local group; the result joins it with the group the other side chose.
func (c *Comm) interCreate(g []int) (*Comm, error) {
	const call = "MPI_Comm_create"
	pos := make(map[int]bool, len(c.group))
	for _, w := range c.group {
		pos[w] = true
	}
	me := -1
	for i, w := range g {
		if !pos[w] {
			return nil, c.raise(errf(abi.ErrGroup, call, "group member (world rank %d) is not in the local group", w))
		}
		if w == c.group[c.rank] {
			me = i
		}
	}
	v := viewOf(c)
	theirs := c.swapLists(v, g) // the leader's copy of g speaks for the group
	s, e := c.agreeSlots(call, v, 2)
	if e != nil {
		return nil, c.raise(e)
	}
	if me < 0 || len(theirs) == 0 {
		ctxFree.set(s[0])
		ctxFree.set(s[1])
		return nil, nil
	}
	return newInter(s, slices.Clone(g), me, theirs, c), nil
}
