package topo

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
	require.True(t, ok, "error %v is not a *topo.Error", err)
	return e.Class
}

func dims(t *testing.T, n int, in ...int) []int {
	t.Helper()
	d := append([]int(nil), in...)
	require.NoError(t, DimsCreate(n, d), "DimsCreate(%d, %v)", n, in)
	return d
}

func TestDimsCreate(t *testing.T) {
	// The standard's examples.
	assert.Equal(t, []int{3, 2}, dims(t, 6, 0, 0))
	assert.Equal(t, []int{7, 1}, dims(t, 7, 0, 0))
	assert.Equal(t, []int{2, 3, 1}, dims(t, 6, 0, 3, 0))
	assert.Equal(t, abi.ErrDims, class(t, DimsCreate(7, []int{0, 3, 0})))

	assert.Equal(t, []int{4}, dims(t, 4, 0))
	assert.Equal(t, []int{2, 2}, dims(t, 4, 0, 0))
	assert.Equal(t, []int{4, 4}, dims(t, 16, 0, 0))
	assert.Equal(t, []int{4, 2, 2}, dims(t, 16, 0, 0, 0))
	assert.Equal(t, []int{3, 2, 2}, dims(t, 12, 0, 0, 0))
	assert.Equal(t, []int{4, 3, 2}, dims(t, 24, 0, 0, 0))
	assert.Equal(t, []int{6, 6}, dims(t, 36, 0, 0))
	assert.Equal(t, []int{5, 4, 3}, dims(t, 60, 0, 0, 0))
	assert.Equal(t, []int{8, 8, 8}, dims(t, 512, 0, 0, 0))
	assert.Equal(t, []int{1, 1, 1}, dims(t, 1, 0, 0, 0))
	assert.Equal(t, []int{2, 2, 2, 1}, dims(t, 8, 0, 0, 0, 0))
	assert.Equal(t, []int{5, 4, 3, 3}, dims(t, 180, 0, 0, 0, 0))
	// Smallest spread, then the largest smallest factor (as MPICH answers).
	assert.Equal(t, []int{9, 8}, dims(t, 72, 0, 0))
	assert.Equal(t, []int{15, 12}, dims(t, 180, 0, 0))
	assert.Equal(t, []int{10, 6, 6}, dims(t, 360, 0, 0, 0))
	assert.Equal(t, []int{1024, 1024, 1024}, dims(t, 1<<30, 0, 0, 0))
	// Fixed entries are kept and the rest is balanced around them.
	assert.Equal(t, []int{3, 2, 2}, dims(t, 12, 3, 0, 0))
	assert.Equal(t, []int{3, 5, 2}, dims(t, 30, 0, 5, 0))
	assert.Equal(t, []int{2, 3}, dims(t, 6, 2, 3))
	assert.Empty(t, dims(t, 1))
	// A large prime has no balanced split.
	assert.Equal(t, []int{1000003, 1}, dims(t, 1000003, 0, 0))
	assert.Equal(t, []int{1000, 1000}, dims(t, 1000000, 0, 0))

	assert.Equal(t, abi.ErrDims, class(t, DimsCreate(6, []int{-1, 0})))
	assert.Equal(t, abi.ErrDims, class(t, DimsCreate(6, []int{4, 0})))
	assert.Equal(t, abi.ErrDims, class(t, DimsCreate(6, []int{2, 2})))
	assert.Equal(t, abi.ErrDims, class(t, DimsCreate(6, nil)))
	assert.Equal(t, abi.ErrArg, class(t, DimsCreate(-1, []int{0})))
}

func TestDimsCreateProducts(t *testing.T) {
	for n := 1; n <= 300; n++ {
		for k := 1; k <= 4; k++ {
			d := make([]int, k)
			require.NoError(t, DimsCreate(n, d))
			p := 1
			for i, x := range d {
				p *= x
				if i > 0 {
					assert.LessOrEqual(t, x, d[i-1], "%d into %d: %v", n, k, d)
				}
			}
			assert.Equal(t, n, p, "%d into %d: %v", n, k, d)
		}
	}
}

func TestCart(t *testing.T) {
	c, err := NewCart([]int{2, 3}, []bool{false, true}, 6)
	require.NoError(t, err)
	assert.Equal(t, 6, c.Size())
	assert.Equal(t, 2, c.Ndims())
	co := make([]int, 2)
	require.NoError(t, c.Coords(4, co))
	assert.Equal(t, []int{1, 1}, co)
	require.NoError(t, c.Coords(2, co))
	assert.Equal(t, []int{0, 2}, co)
	r, err := c.Rank([]int{1, 2})
	require.NoError(t, err)
	assert.Equal(t, 5, r)
	r, err = c.Rank([]int{1, -1}) // periodic wraps
	require.NoError(t, err)
	assert.Equal(t, 5, r)
	r, err = c.Rank([]int{0, 7})
	require.NoError(t, err)
	assert.Equal(t, 1, r)
	_, err = c.Rank([]int{2, 0})
	assert.Equal(t, abi.ErrArg, class(t, err))
	assert.Equal(t, abi.ErrRank, class(t, c.Coords(6, co)))

	// Shift along the non-periodic dimension 0 from rank 1 = (0,1).
	src, dst, err := c.Shift(1, 0, 1)
	require.NoError(t, err)
	assert.Equal(t, abi.ProcNull, src)
	assert.Equal(t, 4, dst)
	// Periodic dimension 1 from rank 3 = (1,0) by 1 and by -4.
	src, dst, err = c.Shift(3, 1, 1)
	require.NoError(t, err)
	assert.Equal(t, 5, src)
	assert.Equal(t, 4, dst)
	src, dst, err = c.Shift(3, 1, -4)
	require.NoError(t, err)
	assert.Equal(t, 4, src)
	assert.Equal(t, 5, dst)
	src, dst, err = c.Shift(3, 0, 0)
	require.NoError(t, err)
	assert.Equal(t, 3, src)
	assert.Equal(t, 3, dst)
	_, _, err = c.Shift(0, 2, 1)
	assert.Equal(t, abi.ErrArg, class(t, err))

	_, err = NewCart([]int{2, 0}, []bool{false, false}, 4)
	assert.Equal(t, abi.ErrDims, class(t, err))
	_, err = NewCart([]int{3, 2}, []bool{false, false}, 5)
	assert.Equal(t, abi.ErrArg, class(t, err))
	c0, err := NewCart(nil, nil, 1)
	require.NoError(t, err)
	assert.Equal(t, 1, c0.Size())
	r, err = c0.Rank(nil)
	require.NoError(t, err)
	assert.Equal(t, 0, r)
	assert.Equal(t, abi.ErrDims, class(t, CheckNdims(-1)))
}

func TestCartSub(t *testing.T) {
	// 2x3x2 grid; rank 9 = (1,1,1).
	c, err := NewCart([]int{2, 3, 2}, []bool{true, false, true}, 12)
	require.NoError(t, err)
	color, key, g, err := c.Sub(9, []bool{false, true, false})
	require.NoError(t, err)
	assert.Equal(t, 1*2+1, color)
	assert.Equal(t, 1, key)
	assert.Equal(t, []int{3}, g.Dims)
	assert.Equal(t, []bool{false}, g.Periods)

	color, key, g, err = c.Sub(9, []bool{true, false, true})
	require.NoError(t, err)
	assert.Equal(t, 1, color)
	assert.Equal(t, 1*2+1, key)
	assert.Equal(t, []int{2, 2}, g.Dims)
	assert.Equal(t, []bool{true, true}, g.Periods)

	// Every process of a sub-grid shares a color and has distinct keys.
	keys := map[int]map[int]bool{}
	for r := range 12 {
		color, key, _, err := c.Sub(r, []bool{true, false, false})
		require.NoError(t, err)
		if keys[color] == nil {
			keys[color] = map[int]bool{}
		}
		keys[color][key] = true
	}
	assert.Len(t, keys, 6)
	for _, k := range keys {
		assert.Equal(t, map[int]bool{0: true, 1: true}, k)
	}

	color, key, g, err = c.Sub(9, []bool{false, false, false})
	require.NoError(t, err)
	assert.Equal(t, 9, color)
	assert.Equal(t, 0, key)
	assert.Equal(t, 0, g.Ndims())
	assert.Equal(t, 1, g.Size())
}

func TestCartMap(t *testing.T) {
	r, err := CartMap([]int{2, 2}, []bool{false, false}, 6, 3)
	require.NoError(t, err)
	assert.Equal(t, 3, r)
	r, err = CartMap([]int{2, 2}, []bool{false, false}, 6, 4)
	require.NoError(t, err)
	assert.Equal(t, abi.Undefined, r)
	_, err = CartMap([]int{4, 2}, []bool{false, false}, 6, 0)
	assert.Equal(t, abi.ErrDims, class(t, err))
}

func TestGraph(t *testing.T) {
	// The standard's example: 0-1, 0-3, 1-0, 2-3, 3-0, 3-2.
	index := []int{2, 3, 4, 6}
	edges := []int{1, 3, 0, 3, 0, 2}
	g, err := NewGraph(4, index, edges, 4)
	require.NoError(t, err)
	assert.Equal(t, 4, g.Nnodes())
	assert.Equal(t, 6, g.Nedges())
	want := [][]int{{1, 3}, {0}, {3}, {0, 2}}
	for r, w := range want {
		n, err := g.Neighbors(r)
		require.NoError(t, err)
		assert.Equal(t, w, n)
	}
	_, err = g.Neighbors(4)
	assert.Equal(t, abi.ErrRank, class(t, err))

	g, err = NewGraph(0, nil, nil, 3)
	require.NoError(t, err)
	assert.Equal(t, 0, g.Nnodes())

	_, err = NewGraph(5, []int{0, 0, 0, 0, 0}, nil, 4)
	assert.Equal(t, abi.ErrArg, class(t, err))
	_, err = NewGraph(-1, nil, nil, 4)
	assert.Equal(t, abi.ErrArg, class(t, err))
	_, err = NewGraph(2, []int{2, 1}, []int{1, 0}, 4)
	assert.Equal(t, abi.ErrArg, class(t, err))
	_, err = NewGraph(2, []int{-1, 1}, []int{1}, 4)
	assert.Equal(t, abi.ErrArg, class(t, err))
	_, err = NewGraph(2, []int{1, 2}, []int{1, 2}, 4)
	assert.Equal(t, abi.ErrArg, class(t, err))

	r, err := GraphMap(2, []int{1, 2}, []int{1, 0}, 4, 1)
	require.NoError(t, err)
	assert.Equal(t, 1, r)
	r, err = GraphMap(2, []int{1, 2}, []int{1, 0}, 4, 2)
	require.NoError(t, err)
	assert.Equal(t, abi.Undefined, r)
}

func TestDistGraphAdjacent(t *testing.T) {
	d, err := NewAdjacent([]int{2, 0}, nil, []int{1}, nil, false, 3)
	require.NoError(t, err)
	assert.Equal(t, 2, d.Indegree())
	assert.Equal(t, 1, d.Outdegree())
	assert.Equal(t, []int{2, 0}, d.Sources)
	assert.Nil(t, d.SourceWeights)

	d, err = NewAdjacent([]int{1}, []int{5}, []int{1, 1}, []int{7, 8}, true, 2)
	require.NoError(t, err)
	assert.Equal(t, []int{5}, d.SourceWeights)
	assert.Equal(t, []int{7, 8}, d.DestWeights)

	_, err = NewAdjacent([]int{3}, nil, nil, nil, false, 3)
	assert.Equal(t, abi.ErrRank, class(t, err))
	_, err = NewAdjacent(nil, nil, []int{-1}, nil, false, 3)
	assert.Equal(t, abi.ErrRank, class(t, err))
	_, err = NewAdjacent([]int{0}, []int{-2}, nil, nil, true, 3)
	assert.Equal(t, abi.ErrArg, class(t, err))
	assert.Equal(t, abi.ErrArg, class(t, CheckDegree("indegree", -1)))
	assert.NoError(t, CheckDegree("indegree", 0))
}

func TestDistGraphCreate(t *testing.T) {
	// Rank 0 contributes 0->1, 0->2; rank 1 contributes 2->0 (an edge it is
	// not part of) and 1->1.
	e0, err := Edges([]int{0}, []int{2}, []int{1, 2}, []int{10, 20}, true, 3)
	require.NoError(t, err)
	e1, err := Edges([]int{2, 1}, []int{1, 1}, []int{0, 1}, []int{30, 40}, true, 3)
	require.NoError(t, err)
	all := append(e0, e1...)
	assert.Equal(t, []Edge{{0, 1, 10}, {0, 2, 20}, {2, 0, 30}, {1, 1, 40}}, all)

	a0 := Adjacency(0, all, true)
	assert.Equal(t, []int{2}, a0.Sources)
	assert.Equal(t, []int{30}, a0.SourceWeights)
	assert.Equal(t, []int{1, 2}, a0.Dests)
	assert.Equal(t, []int{10, 20}, a0.DestWeights)
	a1 := Adjacency(1, all, true)
	assert.Equal(t, []int{0, 1}, a1.Sources)
	assert.Equal(t, []int{1}, a1.Dests)
	a2 := Adjacency(2, all, false)
	assert.Equal(t, []int{0}, a2.Sources)
	assert.Equal(t, []int{0}, a2.Dests)
	assert.Nil(t, a2.DestWeights)

	_, err = Edges([]int{0}, []int{-1}, nil, nil, false, 3)
	assert.Equal(t, abi.ErrArg, class(t, err))
	_, err = Edges([]int{5}, []int{0}, nil, nil, false, 3)
	assert.Equal(t, abi.ErrRank, class(t, err))
	_, err = Edges([]int{0}, []int{1}, []int{3}, nil, false, 3)
	assert.Equal(t, abi.ErrRank, class(t, err))
	_, err = Edges([]int{0}, []int{1}, []int{1}, []int{-1}, true, 3)
	assert.Equal(t, abi.ErrArg, class(t, err))
	e, err := Edges(nil, nil, nil, nil, false, 3)
	require.NoError(t, err)
	assert.Empty(t, e)
}
