package topo

import (
	"slices"
)

// CartReorder proposes a rank reordering for MPI_Cart_create/MPI_Cart_map
// with reorder true, given where each process sits: node[r] names the node
// (or socket, or any locality domain) of rank r of the old communicator.
// The grid points go to ranks 0..Size-1 as without reordering, but each
// domain receives one compact block of the grid, so most neighbour
// exchanges stay inside a domain. It returns perm with perm[old] = new for
// the ranks 0..Size-1, or nil when no better layout exists (one domain,
// domains of unequal sizes, or no block shape that tiles the grid); nil
// means "keep the ranks".
func CartReorder(c *Cart, node []int) []int {
	p := c.Size()
	if p > len(node) || len(c.Dims) == 0 {
		return nil
	}
	// The participants' ranks by domain, domains in order of first rank.
	var order []int
	members := map[int][]int{}
	for r := range p {
		if _, ok := members[node[r]]; !ok {
			order = append(order, node[r])
		}
		members[node[r]] = append(members[node[r]], r)
	}
	if len(order) < 2 {
		return nil
	}
	s := len(members[order[0]])
	for _, d := range order {
		if len(members[d]) != s {
			return nil
		}
	}
	block := blockShape(c.Dims, s)
	if block == nil {
		return nil
	}
	nd := len(c.Dims)
	grid := make([]int, nd) // blocks per dimension
	for i := range nd {
		grid[i] = c.Dims[i] / block[i]
	}
	perm := make([]int, p)
	bc := make([]int, nd) // block coordinates
	lc := make([]int, nd) // coordinates inside the block
	co := make([]int, nd)
	for g, d := range order {
		rowMajor(g, grid, bc)
		for k, r := range members[d] {
			rowMajor(k, block, lc)
			for i := range nd {
				co[i] = bc[i]*block[i] + lc[i]
			}
			perm[r], _ = c.Rank(co)
		}
	}
	if isIdentity(perm) {
		return nil
	}
	return perm
}

// blockShape picks the block of s grid points that divides the grid in
// every dimension with the smallest surface (sum over dimensions of s/b[i],
// the faces a block exposes), or nil if no block tiles the grid.
func blockShape(dims []int, s int) []int {
	var best []int
	bestSurf := -1
	cur := make([]int, len(dims))
	var rec func(i, rem int)
	rec = func(i, rem int) {
		if i == len(dims) {
			if rem != 1 {
				return
			}
			surf := 0
			for _, b := range cur {
				surf += s / b
			}
			if bestSurf < 0 || surf < bestSurf {
				bestSurf = surf
				best = slices.Clone(cur)
			}
			return
		}
		for b := 1; b <= rem && b <= dims[i]; b++ {
			if rem%b == 0 && dims[i]%b == 0 {
				cur[i] = b
				rec(i+1, rem/b)
			}
		}
	}
	rec(0, s)
	return best
}

// rowMajor writes the coordinates of index k in a grid of the given extents.
func rowMajor(k int, ext, out []int) {
	for i := len(ext) - 1; i >= 0; i-- {
		out[i] = k % ext[i]
		k /= ext[i]
	}
}

func isIdentity(perm []int) bool {
	for i, v := range perm {
		if i != v {
			return false
		}
	}
	return true
}
