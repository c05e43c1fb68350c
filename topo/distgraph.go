package topo

import (
	"slices"
	"strconv"

	"gompi/abi"
)

// DistGraph is one process's view of a distributed graph: the processes it
// receives from and sends to, with weights when the graph is weighted.
type DistGraph struct {
	Sources       []int
	SourceWeights []int
	Dests         []int
	DestWeights   []int
	Weighted      bool
}

// Indegree and Outdegree are the neighbour counts (MPI_Dist_graph_neighbors_count).
func (d *DistGraph) Indegree() int  { return len(d.Sources) }
func (d *DistGraph) Outdegree() int { return len(d.Dests) }

func checkRanks(what string, ranks []int, size int) error {
	for i, r := range ranks {
		if r < 0 || r >= size {
			return errorf(abi.ErrRank, "%s[%d] = %d is not a rank of the communicator (size %d)", what, i, r, size)
		}
	}
	return nil
}

func checkWeights(what string, w []int) error {
	for i, x := range w {
		if x < 0 {
			return errorf(abi.ErrArg, "%s[%d] = %d is negative", what, i, x)
		}
	}
	return nil
}

// NewAdjacent validates MPI_Dist_graph_create_adjacent's local arguments and
// keeps the neighbours in the given order. Nil weights mean MPI_UNWEIGHTED
// (both must be nil or both non-nil: the caller maps MPI_UNWEIGHTED and
// MPI_WEIGHTS_EMPTY). Negative degrees or weights are MPI_ERR_ARG; a
// neighbour outside the communicator is MPI_ERR_RANK.
func NewAdjacent(sources, sourceWeights, dests, destWeights []int, weighted bool, commSize int) (*DistGraph, error) {
	if err := checkRanks("sources", sources, commSize); err != nil {
		return nil, err
	}
	if err := checkRanks("destinations", dests, commSize); err != nil {
		return nil, err
	}
	d := &DistGraph{Sources: slices.Clone(sources), Dests: slices.Clone(dests), Weighted: weighted}
	if weighted {
		if len(sourceWeights) < len(sources) || len(destWeights) < len(dests) {
			return nil, errorf(abi.ErrArg, "fewer weights than neighbours")
		}
		if err := checkWeights("sourceweights", sourceWeights[:len(sources)]); err != nil {
			return nil, err
		}
		if err := checkWeights("destweights", destWeights[:len(dests)]); err != nil {
			return nil, err
		}
		d.SourceWeights = slices.Clone(sourceWeights[:len(sources)])
		d.DestWeights = slices.Clone(destWeights[:len(dests)])
	}
	return d, nil
}

// CheckDegree validates a count argument (indegree, outdegree, n, degrees[i]).
func CheckDegree(what string, n int) error {
	if n < 0 {
		return errorf(abi.ErrArg, "%s = %d is negative", what, n)
	}
	return nil
}

// Edge is one edge of a distributed graph given to MPI_Dist_graph_create.
type Edge struct {
	Src, Dst, Weight int
}

// Edges validates one process's arguments to MPI_Dist_graph_create (n
// sources, degrees[i] destinations each, flattened in destinations and
// weights; weights nil when unweighted) and flattens them into edges in the
// given order.
func Edges(sources, degrees, destinations, weights []int, weighted bool, commSize int) ([]Edge, error) {
	if len(degrees) < len(sources) {
		return nil, errorf(abi.ErrArg, "%d degrees for %d sources", len(degrees), len(sources))
	}
	if err := checkRanks("sources", sources, commSize); err != nil {
		return nil, err
	}
	total := 0
	for i := range sources {
		if err := CheckDegree("degrees["+strconv.Itoa(i)+"]", degrees[i]); err != nil {
			return nil, err
		}
		total += degrees[i]
	}
	if len(destinations) < total {
		return nil, errorf(abi.ErrArg, "destinations has %d entries, degrees say %d", len(destinations), total)
	}
	if err := checkRanks("destinations", destinations[:total], commSize); err != nil {
		return nil, err
	}
	if weighted {
		if len(weights) < total {
			return nil, errorf(abi.ErrArg, "weights has %d entries, degrees say %d", len(weights), total)
		}
		if err := checkWeights("weights", weights[:total]); err != nil {
			return nil, err
		}
	}
	out := make([]Edge, 0, total)
	k := 0
	for i, s := range sources {
		for range degrees[i] {
			e := Edge{Src: s, Dst: destinations[k]}
			if weighted {
				e.Weight = weights[k]
			}
			out = append(out, e)
			k++
		}
	}
	return out, nil
}

// Adjacency builds rank's view from every edge of the graph that touches it
// (the caller gathers them, in the order of the contributing ranks and then
// of their arguments, so every process sees a deterministic order).
func Adjacency(rank int, edges []Edge, weighted bool) *DistGraph {
	d := &DistGraph{Sources: []int{}, Dests: []int{}, Weighted: weighted}
	if weighted {
		d.SourceWeights, d.DestWeights = []int{}, []int{}
	}
	for _, e := range edges {
		if e.Dst == rank {
			d.Sources = append(d.Sources, e.Src)
			if weighted {
				d.SourceWeights = append(d.SourceWeights, e.Weight)
			}
		}
		if e.Src == rank {
			d.Dests = append(d.Dests, e.Dst)
			if weighted {
				d.DestWeights = append(d.DestWeights, e.Weight)
			}
		}
	}
	return d
}
