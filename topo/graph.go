package topo

import (
	"slices"

	"gompi/abi"
)

// Graph is a general graph topology (MPI_Graph_create): Index[i] is the
// total number of neighbours of nodes 0..i and Edges lists them in order.
type Graph struct {
	Index []int
	Edges []int
}

// NewGraph validates the arguments of MPI_Graph_create on a communicator of
// commSize processes: 0 <= nnodes <= commSize and index non-decreasing from
// non-negative (MPI_ERR_ARG), every edge a node of the graph (MPI_ERR_RANK).
// Self-loops and repeated edges are allowed by the standard.
func NewGraph(nnodes int, index, edges []int, commSize int) (*Graph, error) {
	if nnodes < 0 {
		return nil, errorf(abi.ErrArg, "nnodes = %d is negative", nnodes)
	}
	if nnodes > commSize {
		return nil, errorf(abi.ErrArg, "nnodes = %d exceeds the %d processes of the communicator", nnodes, commSize)
	}
	if len(index) < nnodes {
		return nil, errorf(abi.ErrArg, "index has %d entries for %d nodes", len(index), nnodes)
	}
	prev := 0
	for i := range nnodes {
		if index[i] < prev {
			if i == 0 {
				return nil, errorf(abi.ErrArg, "index[0] = %d is negative", index[0])
			}
			return nil, errorf(abi.ErrArg, "index[%d] = %d is less than index[%d] = %d", i, index[i], i-1, prev)
		}
		prev = index[i]
	}
	if len(edges) < prev {
		return nil, errorf(abi.ErrArg, "edges has %d entries, index says %d", len(edges), prev)
	}
	for i := range prev {
		if edges[i] < 0 || edges[i] >= nnodes {
			return nil, errorf(abi.ErrArg, "edges[%d] = %d is not a node of the graph (nnodes %d)", i, edges[i], nnodes)
		}
	}
	return &Graph{Index: slices.Clone(index[:nnodes]), Edges: slices.Clone(edges[:prev])}, nil
}

// Nnodes is the number of nodes.
func (g *Graph) Nnodes() int { return len(g.Index) }

// Nedges is the number of edges (the length of Edges).
func (g *Graph) Nedges() int { return len(g.Edges) }

// Neighbors lists rank's neighbours in the order given at creation
// (MPI_Graph_neighbors). A rank outside the graph is MPI_ERR_RANK.
func (g *Graph) Neighbors(rank int) ([]int, error) {
	if rank < 0 || rank >= len(g.Index) {
		return nil, errorf(abi.ErrRank, "rank %d is not a node of the graph (nnodes %d)", rank, len(g.Index))
	}
	lo := 0
	if rank > 0 {
		lo = g.Index[rank-1]
	}
	return slices.Clone(g.Edges[lo:g.Index[rank]]), nil
}

// GraphMap is MPI_Graph_map without reordering: a process keeps its rank
// when it is a node, else gets MPI_UNDEFINED.
func GraphMap(nnodes int, index, edges []int, commSize, rank int) (int, error) {
	if _, err := NewGraph(nnodes, index, edges, commSize); err != nil {
		return 0, err
	}
	if rank < nnodes {
		return rank, nil
	}
	return abi.Undefined, nil
}
