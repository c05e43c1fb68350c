package topo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cut counts grid edges (each neighbour pair once, periodic wrap included)
// whose ends sit in different domains after the permutation.
func cut(t *testing.T, c *Cart, node, perm []int) int {
	t.Helper()
	p := c.Size()
	at := make([]int, p) // domain of each new rank
	for old := range p {
		nw := old
		if perm != nil {
			nw = perm[old]
		}
		at[nw] = node[old]
	}
	n := 0
	for r := range p {
		for d := range c.Dims {
			_, dst, err := c.Shift(r, d, 1)
			require.NoError(t, err)
			if dst >= 0 && dst != r && at[dst] != at[r] {
				n++
			}
		}
	}
	return n
}

func isPerm(perm []int) bool {
	seen := make([]bool, len(perm))
	for _, v := range perm {
		if v < 0 || v >= len(perm) || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

func TestCartReorderBlocks(t *testing.T) {
	// 2x4 grid, two nodes of 4 ranks placed in blocks: rows are nodes
	// (4 cut edges); 2x2 blocks cut only 2.
	c, err := NewCart([]int{2, 4}, []bool{false, false}, 8)
	require.NoError(t, err)
	node := []int{0, 0, 0, 0, 1, 1, 1, 1}
	perm := CartReorder(c, node)
	require.NotNil(t, perm)
	assert.True(t, isPerm(perm))
	assert.Equal(t, 4, cut(t, c, node, nil))
	assert.Equal(t, 2, cut(t, c, node, perm))
	// Node 0's ranks hold the left 2x2 block.
	assert.Equal(t, []int{0, 1, 4, 5, 2, 3, 6, 7}, perm)
}

func TestCartReorderRoundRobin(t *testing.T) {
	// 8x8 periodic grid over 4 nodes placed round-robin (rank r on node
	// r%4): every row edge is cut (64); 4x4 blocks cut 32.
	c, err := NewCart([]int{8, 8}, []bool{true, true}, 64)
	require.NoError(t, err)
	node := make([]int, 64)
	for r := range node {
		node[r] = r % 4
	}
	perm := CartReorder(c, node)
	require.NotNil(t, perm)
	assert.True(t, isPerm(perm))
	assert.Equal(t, 64, cut(t, c, node, nil))
	assert.Equal(t, 32, cut(t, c, node, perm))
}

func TestCartReorderNothingBetter(t *testing.T) {
	c, err := NewCart([]int{3, 2}, []bool{false, false}, 6)
	require.NoError(t, err)
	assert.Nil(t, CartReorder(c, []int{0, 0, 0, 0, 0, 0}), "one node")
	assert.Nil(t, CartReorder(c, []int{0, 0, 0, 0, 1, 1}), "unequal nodes")
	// Rows already are the best blocks: identity.
	assert.Nil(t, CartReorder(c, []int{0, 0, 1, 1, 2, 2}))
	// 3 ranks per node cannot tile a 2x2 grid... nor 5x1 with 2 per node.
	c5, err := NewCart([]int{5}, []bool{false}, 10)
	require.NoError(t, err)
	assert.Nil(t, CartReorder(c5, []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}))
	// Only the grid's ranks matter: extra ranks are ignored.
	c4, err := NewCart([]int{2, 2}, []bool{false, false}, 6)
	require.NoError(t, err)
	perm := CartReorder(c4, []int{0, 1, 0, 1, 7, 7})
	require.NotNil(t, perm)
	assert.True(t, isPerm(perm))
}
