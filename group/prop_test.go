package group

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"gompi/abi"
)

// randGroup draws a random subset of 0..world-1 in random order.
func randGroup(r *rand.Rand, world int) []int {
	p := r.Perm(world)
	return p[:r.Intn(world+1)]
}

// The set operations against the standard's definitions, written naively.
func TestSetOperationsAgainstModel(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 2000 {
		world := 1 + r.Intn(40)
		a, b := randGroup(r, world), randGroup(r, world)
		ga, gb := New(a), New(b)
		var union, inter, diff []int
		union = append(union, a...)
		for _, w := range b {
			if !slices.Contains(a, w) {
				union = append(union, w)
			}
		}
		for _, w := range a {
			if slices.Contains(b, w) {
				inter = append(inter, w)
			} else {
				diff = append(diff, w)
			}
		}
		require.Equal(t, union, nilIfEmpty(Union(ga, gb).WorldRanks()))
		require.Equal(t, inter, nilIfEmpty(Intersection(ga, gb).WorldRanks()))
		require.Equal(t, diff, nilIfEmpty(Difference(ga, gb).WorldRanks()))

		want := abi.Unequal
		if slices.Equal(a, b) {
			want = abi.Ident
		} else if len(a) == len(b) && len(inter) == len(a) {
			want = abi.Similar
		}
		require.Equal(t, want, Compare(ga, gb))

		for i, w := range a {
			require.Equal(t, i, ga.Rank(w))
		}
		for w := range world {
			if !slices.Contains(a, w) {
				require.Equal(t, abi.Undefined, ga.Rank(w))
			}
		}

		// Incl/Excl of a random rank list; RangeIncl/Excl of a random triplet.
		if len(a) == 0 {
			continue
		}
		sel := r.Perm(len(a))[:r.Intn(len(a)+1)]
		in, err := Incl(ga, sel)
		require.NoError(t, err)
		for i, k := range sel {
			require.Equal(t, a[k], in.WorldRank(i))
		}
		ex, err := Excl(ga, sel)
		require.NoError(t, err)
		var rest []int
		for k, w := range a {
			if !slices.Contains(sel, k) {
				rest = append(rest, w)
			}
		}
		require.Equal(t, rest, nilIfEmpty(ex.WorldRanks()))

		first, last := r.Intn(len(a)), r.Intn(len(a))
		stride := 1 + r.Intn(3)
		if first > last {
			stride = -stride
		}
		var ranks []int
		for k := first; (stride > 0 && k <= last) || (stride < 0 && k >= last); k += stride {
			ranks = append(ranks, k)
		}
		ri, err := RangeIncl(ga, [][3]int{{first, last, stride}})
		require.NoError(t, err)
		viaIncl, _ := Incl(ga, ranks)
		require.Equal(t, abi.Ident, Compare(ri, viaIncl))
		re, err := RangeExcl(ga, [][3]int{{first, last, stride}})
		require.NoError(t, err)
		viaExcl, _ := Excl(ga, ranks)
		require.Equal(t, abi.Ident, Compare(re, viaExcl))
	}
}

func nilIfEmpty(s []int) []int {
	if len(s) == 0 {
		return nil
	}
	return s
}
