package mpi

// Topology is the process topology attached to a communicator.
type Topology struct {
	Kind    int // abi.TopoCart, abi.TopoGraph or abi.TopoDistGraph
	Dims    []int
	Periods []bool
	Index   []int // graph: cumulative neighbour counts
	Edges   []int
	// Distributed graph: neighbours and weights (nil weights: unweighted).
	Sources, Dests   []int
	SrcWeights, DstW []int
	Weighted         bool
}

// Topology returns the topology attached to c, or nil.
func (c *Comm) Topology() *Topology { return c.topo }
