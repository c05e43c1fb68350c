// Package topo is the pure logic of MPI process topologies: Dims_create,
// Cartesian grids, graphs and distributed graphs. It validates arguments
// with the standard's error classes and computes ranks, coordinates and
// neighbour lists; building the communicators is mpi/'s job.
package topo

import (
	"gompi/abi"
	"gompi/mpierr"
)

// Error is an argument error with its MPI error class.
type Error = mpierr.Error

var errorf = mpierr.New

// Kind values returned by MPI_Topo_test.
const (
	KindNone      = abi.Undefined
	KindGraph     = abi.TopoGraph
	KindCart      = abi.TopoCart
	KindDistGraph = abi.TopoDistGraph
)
