package group

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/abi"
)

func class(t *testing.T, err error) int {
	t.Helper()
	require.Error(t, err)
	e, ok := err.(*Error)
	require.True(t, ok, "error %v is not a *group.Error", err)
	return e.Class
}

func TestNewAndRank(t *testing.T) {
	g := New([]int{7, 3, 9, 0})
	assert.Equal(t, 4, g.Size())
	assert.Equal(t, 9, g.WorldRank(2))
	assert.Equal(t, 0, g.Rank(7))
	assert.Equal(t, 1, g.Rank(3))
	assert.Equal(t, 2, g.Rank(9))
	assert.Equal(t, 3, g.Rank(0))
	assert.Equal(t, abi.Undefined, g.Rank(5))
	assert.Equal(t, abi.Undefined, g.Rank(-1))
	assert.Equal(t, []int{7, 3, 9, 0}, g.WorldRanks())

	w := Range(5)
	assert.Equal(t, 3, w.Rank(3))
	assert.Equal(t, abi.Undefined, w.Rank(5))
	assert.Equal(t, 0, Empty().Size())
	assert.Equal(t, abi.Undefined, Empty().Rank(0))
}

func TestNewCopiesInput(t *testing.T) {
	in := []int{2, 1}
	g := New(in)
	in[0] = 5
	assert.Equal(t, 2, g.WorldRank(0))
	out := g.WorldRanks()
	out[0] = 9
	assert.Equal(t, 2, g.WorldRank(0))
}

func TestLargeGroupLookup(t *testing.T) {
	const n = 100000
	w := make([]int, n)
	for i := range w {
		w[i] = (i*7919 + 13) % n // a permutation: 7919 is prime and coprime with n
	}
	g := New(w)
	for i := 0; i < n; i += 97 {
		assert.Equal(t, i, g.Rank(w[i]))
	}
}

func TestTranslate(t *testing.T) {
	g1 := New([]int{0, 1, 2, 3})
	g2 := New([]int{3, 1})
	out, err := Translate(g1, []int{0, 1, 3, abi.ProcNull}, g2)
	require.NoError(t, err)
	assert.Equal(t, []int{abi.Undefined, 1, 0, abi.ProcNull}, out)
	_, err = Translate(g1, []int{4}, g2)
	assert.Equal(t, abi.ErrRank, class(t, err))
	_, err = Translate(g1, []int{-5}, g2)
	assert.Equal(t, abi.ErrRank, class(t, err))
	out, err = Translate(g1, nil, g2)
	require.NoError(t, err)
	assert.Empty(t, out)
}

func TestCompare(t *testing.T) {
	a := New([]int{0, 1, 2})
	assert.Equal(t, abi.Ident, Compare(a, New([]int{0, 1, 2})))
	assert.Equal(t, abi.Similar, Compare(a, New([]int{2, 0, 1})))
	assert.Equal(t, abi.Unequal, Compare(a, New([]int{0, 1})))
	assert.Equal(t, abi.Unequal, Compare(a, New([]int{0, 1, 3})))
	assert.Equal(t, abi.Ident, Compare(Empty(), New(nil)))
}

func TestSetOperationsOrder(t *testing.T) {
	a := New([]int{5, 1, 3, 7})
	b := New([]int{2, 3, 9, 5})
	assert.Equal(t, []int{5, 1, 3, 7, 2, 9}, Union(a, b).WorldRanks())
	assert.Equal(t, []int{2, 3, 9, 5, 1, 7}, Union(b, a).WorldRanks())
	assert.Equal(t, []int{5, 3}, Intersection(a, b).WorldRanks())
	assert.Equal(t, []int{3, 5}, Intersection(b, a).WorldRanks())
	assert.Equal(t, []int{1, 7}, Difference(a, b).WorldRanks())
	assert.Equal(t, []int{2, 9}, Difference(b, a).WorldRanks())

	assert.Equal(t, 0, Intersection(a, New([]int{0})).Size())
	assert.Equal(t, 0, Difference(a, a).Size())
	assert.Equal(t, abi.Ident, Compare(Union(a, Empty()), a))
	assert.Equal(t, abi.Ident, Compare(Union(Empty(), a), a))
	assert.Equal(t, 0, Union(Empty(), Empty()).Size())
}

func TestIncl(t *testing.T) {
	g := New([]int{10, 11, 12, 13, 14})
	n, err := Incl(g, []int{4, 0, 2})
	require.NoError(t, err)
	assert.Equal(t, []int{14, 10, 12}, n.WorldRanks())
	n, err = Incl(g, nil)
	require.NoError(t, err)
	assert.Equal(t, 0, n.Size())
	_, err = Incl(g, []int{5})
	assert.Equal(t, abi.ErrRank, class(t, err))
	_, err = Incl(g, []int{-1})
	assert.Equal(t, abi.ErrRank, class(t, err))
	_, err = Incl(g, []int{1, 1})
	assert.Equal(t, abi.ErrRank, class(t, err))
}

func TestExcl(t *testing.T) {
	g := New([]int{10, 11, 12, 13, 14})
	n, err := Excl(g, []int{3, 0})
	require.NoError(t, err)
	assert.Equal(t, []int{11, 12, 14}, n.WorldRanks())
	n, err = Excl(g, nil)
	require.NoError(t, err)
	assert.Equal(t, abi.Ident, Compare(n, g))
	n, err = Excl(g, []int{0, 1, 2, 3, 4})
	require.NoError(t, err)
	assert.Equal(t, 0, n.Size())
	_, err = Excl(g, []int{5})
	assert.Equal(t, abi.ErrRank, class(t, err))
	_, err = Excl(g, []int{2, 2})
	assert.Equal(t, abi.ErrRank, class(t, err))
}

func TestRangeIncl(t *testing.T) {
	g := Range(10)
	n, err := RangeIncl(g, [][3]int{{0, 6, 3}, {9, 7, -1}, {1, 1, 1}})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 3, 6, 9, 8, 7, 1}, n.WorldRanks())
	n, err = RangeIncl(g, [][3]int{{2, 9, 4}})
	require.NoError(t, err)
	assert.Equal(t, []int{2, 6}, n.WorldRanks())
	n, err = RangeIncl(g, nil)
	require.NoError(t, err)
	assert.Equal(t, 0, n.Size())

	cases := []struct {
		r     [][3]int
		class int
	}{
		{[][3]int{{0, 3, 0}}, abi.ErrArg},
		{[][3]int{{3, 0, 1}}, abi.ErrArg},
		{[][3]int{{0, 3, -1}}, abi.ErrArg},
		{[][3]int{{10, 10, 1}}, abi.ErrArg},
		{[][3]int{{0, 10, 1}}, abi.ErrArg},
		{[][3]int{{-1, 2, 1}}, abi.ErrArg},
		{[][3]int{{0, 4, 2}, {4, 5, 1}}, abi.ErrArg},
	}
	for _, c := range cases {
		_, err := RangeIncl(g, c.r)
		assert.Equal(t, c.class, class(t, err), "%v", c.r)
		_, err = RangeExcl(g, c.r)
		assert.Equal(t, c.class, class(t, err), "%v", c.r)
	}
}

func TestRangeExcl(t *testing.T) {
	g := New([]int{20, 21, 22, 23, 24, 25, 26})
	n, err := RangeExcl(g, [][3]int{{0, 6, 2}})
	require.NoError(t, err)
	assert.Equal(t, []int{21, 23, 25}, n.WorldRanks())
	n, err = RangeExcl(g, [][3]int{{6, 0, -3}, {1, 2, 1}})
	require.NoError(t, err)
	assert.Equal(t, []int{24, 25}, n.WorldRanks())
}
