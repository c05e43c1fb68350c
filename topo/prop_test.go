package topo

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"gompi/abi"
)

// Random grids: coordinates and ranks are inverse, shifts are inverse of
// each other, and Cart_sub partitions the grid into equal sub-grids whose
// keys are the ranks of the sub-grid's own coordinates.
func TestCartProperties(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for range 300 {
		nd := 1 + r.Intn(4)
		dims := make([]int, nd)
		periods := make([]bool, nd)
		for i := range dims {
			dims[i] = 1 + r.Intn(4)
			periods[i] = r.Intn(2) == 0
		}
		c, err := NewCart(dims, periods, 256)
		require.NoError(t, err)
		co := make([]int, nd)
		for rank := range c.Size() {
			require.NoError(t, c.Coords(rank, co))
			back, err := c.Rank(co)
			require.NoError(t, err)
			require.Equal(t, rank, back)
			dir, disp := r.Intn(nd), r.Intn(7)-3
			src, dst, err := c.Shift(rank, dir, disp)
			require.NoError(t, err)
			if dst != abi.ProcNull {
				s2, _, _ := c.Shift(dst, dir, disp)
				require.Equal(t, rank, s2, "the source of my destination is me")
			}
			if src != abi.ProcNull {
				_, d2, _ := c.Shift(src, dir, disp)
				require.Equal(t, rank, d2)
			}
		}
		remain := make([]bool, nd)
		for i := range remain {
			remain[i] = r.Intn(2) == 0
		}
		keys := map[int]map[int]bool{}
		var subSize int
		for rank := range c.Size() {
			color, key, g, err := c.Sub(rank, remain)
			require.NoError(t, err)
			subSize = g.Size()
			require.Less(t, key, g.Size())
			if keys[color] == nil {
				keys[color] = map[int]bool{}
			}
			require.False(t, keys[color][key], "two processes share a key in one sub-grid")
			keys[color][key] = true
			require.NoError(t, c.Coords(rank, co))
			var sub []int
			for i := range nd {
				if remain[i] {
					sub = append(sub, co[i])
				}
			}
			k, err := g.Rank(sub)
			require.NoError(t, err)
			require.Equal(t, key, k)
		}
		require.Equal(t, c.Size(), len(keys)*subSize)
	}
}
