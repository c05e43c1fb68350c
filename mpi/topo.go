package mpi

import (
	"errors"

	"gompi/abi"
	"gompi/mpierr"
	"gompi/topo"
)

// Topology is the process topology attached to a communicator: exactly one
// of Cart, Graph and Dist is set.
type Topology struct {
	Cart  *topo.Cart
	Graph *topo.Graph
	Dist  *topo.DistGraph
}

// Kind is what MPI_Topo_test reports.
func (t *Topology) Kind() int {
	switch {
	case t == nil:
		return abi.Undefined
	case t.Cart != nil:
		return abi.TopoCart
	case t.Graph != nil:
		return abi.TopoGraph
	}
	return abi.TopoDistGraph
}

// Topology returns the topology attached to c, or nil.
func (c *Comm) Topology() *Topology { return c.topo }

// topoErr turns a validation error of package topo into an MPI error of call.
func topoErr(call string, err error) *Error {
	var te *mpierr.Error
	if errors.As(err, &te) {
		return &Error{Class: te.Class, Call: call, Detail: te.Detail}
	}
	return errf(abi.ErrArg, call, "%v", err)
}

// withTopo splits c into the processes of rank < n (ordered as in c) and
// attaches t; the others get nil. Reordering is allowed but never done: the
// identity is always a valid placement.
func (c *Comm) withTopo(call string, n int, t *Topology) (*Comm, error) {
	if c.inter {
		return nil, c.raise(errf(abi.ErrComm, call, "topologies need an intracommunicator"))
	}
	color := 0
	if c.rank >= n {
		color = abi.Undefined
	}
	d, err := c.Split(color, c.rank)
	if err != nil || d == nil {
		return nil, err
	}
	d.topo = t
	return d, nil
}

// CartCreate makes a communicator with a Cartesian grid (MPI_Cart_create).
func (c *Comm) CartCreate(dims []int, periods []bool, reorder bool) (*Comm, error) {
	const call = "MPI_Cart_create"
	g, err := topo.NewCart(dims, periods, c.size)
	if err != nil {
		return nil, c.raise(topoErr(call, err))
	}
	return c.withTopo(call, g.Size(), &Topology{Cart: g})
}

// Cart returns c's grid, or raises MPI_ERR_TOPOLOGY for call.
func (c *Comm) Cart(call string) (*topo.Cart, error) {
	if c.topo == nil || c.topo.Cart == nil {
		return nil, c.raise(errf(abi.ErrTopology, call, "the communicator has no Cartesian topology"))
	}
	return c.topo.Cart, nil
}

// CartSub keeps the dimensions marked in remain (MPI_Cart_sub).
func (c *Comm) CartSub(remain []bool) (*Comm, error) {
	const call = "MPI_Cart_sub"
	g, err := c.Cart(call)
	if err != nil {
		return nil, err
	}
	color, key, sub, terr := g.Sub(c.rank, remain)
	if terr != nil {
		return nil, c.raise(topoErr(call, terr))
	}
	d, err := c.Split(color, key)
	if err != nil {
		return nil, err
	}
	d.topo = &Topology{Cart: sub}
	return d, nil
}

// GraphCreate makes a communicator with a graph topology (MPI_Graph_create).
func (c *Comm) GraphCreate(nnodes int, index, edges []int, reorder bool) (*Comm, error) {
	const call = "MPI_Graph_create"
	g, err := topo.NewGraph(nnodes, index, edges, c.size)
	if err != nil {
		return nil, c.raise(topoErr(call, err))
	}
	return c.withTopo(call, nnodes, &Topology{Graph: g})
}

// Graph returns c's graph, or raises MPI_ERR_TOPOLOGY for call.
func (c *Comm) Graph(call string) (*topo.Graph, error) {
	if c.topo == nil || c.topo.Graph == nil {
		return nil, c.raise(errf(abi.ErrTopology, call, "the communicator has no graph topology"))
	}
	return c.topo.Graph, nil
}

// DistGraphCreateAdjacent makes a communicator where each process names its
// own neighbours (MPI_Dist_graph_create_adjacent).
func (c *Comm) DistGraphCreateAdjacent(sources, sw, dests, dw []int, weighted, reorder bool) (*Comm, error) {
	const call = "MPI_Dist_graph_create_adjacent"
	d, err := topo.NewAdjacent(sources, sw, dests, dw, weighted, c.size)
	if err != nil {
		return nil, c.raise(topoErr(call, err))
	}
	return c.withTopo(call, c.size, &Topology{Dist: d})
}

// DistGraphCreate makes a communicator from edges any process may name
// (MPI_Dist_graph_create): every process learns the edges that touch it.
func (c *Comm) DistGraphCreate(sources, degrees, dests, weights []int, weighted, reorder bool) (*Comm, error) {
	const call = "MPI_Dist_graph_create"
	if c.inter {
		return nil, c.raise(errf(abi.ErrComm, call, "topologies need an intracommunicator"))
	}
	edges, err := topo.Edges(sources, degrees, dests, weights, weighted, c.size)
	if err != nil {
		return nil, c.raise(topoErr(call, err))
	}
	flat := make([]int, 0, 3*len(edges))
	for _, e := range edges {
		flat = append(flat, e.Src, e.Dst, e.Weight)
	}
	var all []topo.Edge
	for _, part := range viewOf(c).allgatherv(flat) {
		for i := 0; i+2 < len(part); i += 3 {
			all = append(all, topo.Edge{Src: part[i], Dst: part[i+1], Weight: part[i+2]})
		}
	}
	return c.withTopo(call, c.size, &Topology{Dist: topo.Adjacency(c.rank, all, weighted)})
}

// DistGraph returns c's distributed graph (graph topologies answer too, as
// their neighbours), or raises MPI_ERR_TOPOLOGY for call.
func (c *Comm) DistGraph(call string) (*topo.DistGraph, error) {
	if c.topo == nil || c.topo.Dist == nil {
		return nil, c.raise(errf(abi.ErrTopology, call, "the communicator has no distributed graph topology"))
	}
	return c.topo.Dist, nil
}

// Neighbors lists the ranks neighbourhood collectives receive from and send
// to, in the standard's order: for a Cartesian grid, per dimension the
// negative then the positive neighbour (MPI_PROC_NULL off a non-periodic
// edge); for a graph, the node's neighbours both ways; for a distributed
// graph, its sources and destinations.
func (c *Comm) Neighbors(call string) (in, out []int, err error) {
	switch t := c.topo; {
	case t == nil:
		return nil, nil, c.raise(errf(abi.ErrTopology, call, "the communicator has no topology"))
	case t.Cart != nil:
		for d := range t.Cart.Dims {
			src, dst, e := t.Cart.Shift(c.rank, d, 1)
			if e != nil {
				return nil, nil, c.raise(topoErr(call, e))
			}
			in = append(in, src, dst)
		}
		return in, in, nil
	case t.Graph != nil:
		nb, e := t.Graph.Neighbors(c.rank)
		if e != nil {
			return nil, nil, c.raise(topoErr(call, e))
		}
		return nb, nb, nil
	}
	return c.topo.Dist.Sources, c.topo.Dist.Dests, nil
}
