// Package group is the pure logic of MPI process groups: an ordered set of
// world ranks, rank lookups and the standard's set operations. It knows no
// handles and no communication; mpi/ and capi/ wrap it.
package group

import (
	"slices"
	"sort"

	"gompi/abi"
	"gompi/mpierr"
)

// Error is an argument error with its MPI error class.
type Error = mpierr.Error

var errorf = mpierr.New

// Group is an immutable ordered set of processes named by their world ranks.
type Group struct {
	world []int // world rank of group rank i
	// byWorld holds (world rank, group rank) pairs sorted by world rank, so
	// Rank is a binary search; nil when world is the identity 0..n-1.
	byWorld []pair
}

type pair struct{ world, rank int32 }

var empty = &Group{}

// Empty is the group with no members (MPI_GROUP_EMPTY).
func Empty() *Group { return empty }

// New makes a group of the given world ranks in group order. The ranks must be
// distinct and non-negative (callers build them from valid groups).
func New(worldRanks []int) *Group {
	if len(worldRanks) == 0 {
		return empty
	}
	g := &Group{world: slices.Clone(worldRanks)}
	identity := true
	for i, w := range g.world {
		if w != i {
			identity = false
			break
		}
	}
	if !identity {
		g.byWorld = make([]pair, len(g.world))
		for i, w := range g.world {
			g.byWorld[i] = pair{int32(w), int32(i)}
		}
		sort.Slice(g.byWorld, func(a, b int) bool { return g.byWorld[a].world < g.byWorld[b].world })
	}
	return g
}

// Range makes the group of world ranks 0..n-1 (MPI_COMM_WORLD's group).
func Range(n int) *Group {
	w := make([]int, n)
	for i := range w {
		w[i] = i
	}
	return New(w)
}

// Size is the number of members.
func (g *Group) Size() int { return len(g.world) }

// WorldRank is the world rank of group rank i.
func (g *Group) WorldRank(i int) int { return g.world[i] }

// WorldRanks returns a copy of the members' world ranks in group order.
func (g *Group) WorldRanks() []int { return slices.Clone(g.world) }

// Rank is the group rank of the process with the given world rank, or
// abi.Undefined when it is not a member.
func (g *Group) Rank(worldRank int) int {
	if g.byWorld == nil {
		if worldRank >= 0 && worldRank < len(g.world) {
			return worldRank
		}
		return abi.Undefined
	}
	i := sort.Search(len(g.byWorld), func(i int) bool { return int(g.byWorld[i].world) >= worldRank })
	if i < len(g.byWorld) && int(g.byWorld[i].world) == worldRank {
		return int(g.byWorld[i].rank)
	}
	return abi.Undefined
}

// Contains reports whether the world rank is a member.
func (g *Group) Contains(worldRank int) bool { return g.Rank(worldRank) != abi.Undefined }

// Translate maps ranks of g1 to ranks of g2 (MPI_Group_translate_ranks):
// MPI_PROC_NULL maps to itself, a non-member to MPI_UNDEFINED. A rank
// outside g1 is MPI_ERR_RANK.
func Translate(g1 *Group, ranks []int, g2 *Group) ([]int, error) {
	out := make([]int, len(ranks))
	for i, r := range ranks {
		if r == abi.ProcNull {
			out[i] = abi.ProcNull
			continue
		}
		if r < 0 || r >= g1.Size() {
			return nil, errorf(abi.ErrRank, "ranks1[%d] = %d is not a rank of group1 (size %d)", i, r, g1.Size())
		}
		out[i] = g2.Rank(g1.world[r])
	}
	return out, nil
}

// Compare is MPI_IDENT when both groups have the same members in the same
// order, MPI_SIMILAR when only the order differs, MPI_UNEQUAL otherwise.
func Compare(g1, g2 *Group) int {
	if g1.Size() != g2.Size() {
		return abi.Unequal
	}
	if slices.Equal(g1.world, g2.world) {
		return abi.Ident
	}
	for _, w := range g1.world {
		if !g2.Contains(w) {
			return abi.Unequal
		}
	}
	return abi.Similar
}

// Union is g1's members in g1's order followed by g2's members not in g1, in
// g2's order.
func Union(g1, g2 *Group) *Group {
	out := slices.Clone(g1.world)
	for _, w := range g2.world {
		if !g1.Contains(w) {
			out = append(out, w)
		}
	}
	return New(out)
}

// Intersection is g1's members that are also in g2, in g1's order.
func Intersection(g1, g2 *Group) *Group {
	var out []int
	for _, w := range g1.world {
		if g2.Contains(w) {
			out = append(out, w)
		}
	}
	return New(out)
}

// Difference is g1's members that are not in g2, in g1's order.
func Difference(g1, g2 *Group) *Group {
	var out []int
	for _, w := range g1.world {
		if !g2.Contains(w) {
			out = append(out, w)
		}
	}
	return New(out)
}

// checkRanks verifies that ranks are valid, distinct ranks of g.
func (g *Group) checkRanks(ranks []int) error {
	seen := make([]bool, g.Size())
	for i, r := range ranks {
		if r < 0 || r >= g.Size() {
			return errorf(abi.ErrRank, "ranks[%d] = %d is not a rank of the group (size %d)", i, r, g.Size())
		}
		if seen[r] {
			return errorf(abi.ErrRank, "ranks[%d] = %d appears twice", i, r)
		}
		seen[r] = true
	}
	return nil
}

// Incl is the group of g's ranks listed in ranks, in that order
// (MPI_Group_incl). Ranks must be valid and distinct (MPI_ERR_RANK).
func Incl(g *Group, ranks []int) (*Group, error) {
	if err := g.checkRanks(ranks); err != nil {
		return nil, err
	}
	out := make([]int, len(ranks))
	for i, r := range ranks {
		out[i] = g.world[r]
	}
	return New(out), nil
}

// Excl is g without the listed ranks, in g's order (MPI_Group_excl).
func Excl(g *Group, ranks []int) (*Group, error) {
	if err := g.checkRanks(ranks); err != nil {
		return nil, err
	}
	drop := make([]bool, g.Size())
	for _, r := range ranks {
		drop[r] = true
	}
	var out []int
	for i, w := range g.world {
		if !drop[i] {
			out = append(out, w)
		}
	}
	return New(out), nil
}

// Expand lists the ranks named by (first, last, stride) triplets in order,
// checking them as MPI_Group_range_incl/excl do. Every malformed triplet is
// MPI_ERR_ARG, as in MPICH: stride 0, a stride pointing away from last, an
// endpoint outside the group, a rank named twice.
func (g *Group) Expand(ranges [][3]int) ([]int, error) {
	n := g.Size()
	seen := make([]bool, n)
	var out []int
	for i, t := range ranges {
		first, last, stride := t[0], t[1], t[2]
		if first < 0 || first >= n {
			return nil, errorf(abi.ErrArg, "ranges[%d] first = %d is not a rank of the group (size %d)", i, first, n)
		}
		if last < 0 || last >= n {
			return nil, errorf(abi.ErrArg, "ranges[%d] last = %d is not a rank of the group (size %d)", i, last, n)
		}
		if stride == 0 {
			return nil, errorf(abi.ErrArg, "ranges[%d] stride is 0", i)
		}
		if (stride > 0 && first > last) || (stride < 0 && first < last) {
			return nil, errorf(abi.ErrArg, "ranges[%d] = (%d, %d, %d): the stride never reaches last", i, first, last, stride)
		}
		for r := first; (stride > 0 && r <= last) || (stride < 0 && r >= last); r += stride {
			if seen[r] {
				return nil, errorf(abi.ErrArg, "rank %d appears twice in ranges (ranges[%d])", r, i)
			}
			seen[r] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// RangeIncl is MPI_Group_range_incl.
func RangeIncl(g *Group, ranges [][3]int) (*Group, error) {
	ranks, err := g.Expand(ranges)
	if err != nil {
		return nil, err
	}
	return Incl(g, ranks)
}

// RangeExcl is MPI_Group_range_excl.
func RangeExcl(g *Group, ranges [][3]int) (*Group, error) {
	ranks, err := g.Expand(ranges)
	if err != nil {
		return nil, err
	}
	return Excl(g, ranks)
}
