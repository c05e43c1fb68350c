package main

import "C"

import (
	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
	"gompi/topo"
)

// putIntsMax copies xs into C memory, at most limit entries (output arrays
// whose caller gave their length).
func putIntsMax(p *C.int, xs []int, limit int) {
	if p != nil && limit > 0 {
		putInts(p, xs[:min(len(xs), limit)])
	}
}

func goBools(p *C.int, n int) []bool {
	out := make([]bool, n)
	for i, v := range intSlice(p, n) {
		out[i] = v != 0
	}
	return out
}

// cartArg resolves a communicator that must carry a Cartesian grid.
func cartArg(call string, comm C.int) (*mpi.Comm, *topo.Cart, C.int) {
	c, rc := commArg(call, comm)
	if c == nil {
		return nil, nil, rc
	}
	g, err := c.Cart(call)
	return c, g, C.int(mpi.Code(err))
}

// graphArg resolves a communicator that must carry a graph topology.
func graphArg(call string, comm C.int) (*mpi.Comm, *topo.Graph, C.int) {
	c, rc := commArg(call, comm)
	if c == nil {
		return nil, nil, rc
	}
	g, err := c.Graph(call)
	return c, g, C.int(mpi.Code(err))
}

// distgraphArg resolves a communicator that must carry a distributed graph.
func distgraphArg(call string, comm C.int) (*mpi.Comm, *topo.DistGraph, C.int) {
	c, rc := commArg(call, comm)
	if c == nil {
		return nil, nil, rc
	}
	g, err := c.DistGraph(call)
	return c, g, C.int(mpi.Code(err))
}

// negArg checks counts given as ints.
func negArg(c *mpi.Comm, call, what string, n C.int, class int) C.int {
	if n < 0 {
		return argErr(c, call, class, what+" is negative")
	}
	return 0
}

//export gompi_Cart_create
func gompi_Cart_create(comm, ndims C.int, dims, periods *C.int, reorder C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Cart_create"
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if rc := negArg(c, call, "ndims", ndims, abi.ErrDims); rc != 0 {
		return rc
	}
	if out == nil || (ndims > 0 && (dims == nil || periods == nil)) {
		return argErr(c, call, abi.ErrArg, "dims, periods or comm_cart is NULL")
	}
	d, err := c.CartCreate(intSlice(dims, int(ndims)), goBools(periods, int(ndims)), reorder != 0)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(out, d)
	return 0
}

//export gompi_Cart_coords
func gompi_Cart_coords(comm, rank, maxdims C.int, coords *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Cart_coords"
	c, g, rc := cartArg(call, comm)
	if g == nil {
		return rc
	}
	if int(maxdims) < g.Ndims() || (coords == nil && g.Ndims() > 0) {
		return argErr(c, call, abi.ErrArg, "maxdims is smaller than the number of dimensions")
	}
	xs := make([]int, g.Ndims())
	if e := g.Coords(int(rank), xs); e != nil {
		return objErr(c, call, e)
	}
	putIntsMax(coords, xs, int(maxdims))
	return 0
}

//export gompi_Cart_rank
func gompi_Cart_rank(comm C.int, coords *C.int, rank *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Cart_rank"
	c, g, rc := cartArg(call, comm)
	if g == nil {
		return rc
	}
	if rank == nil || (coords == nil && g.Ndims() > 0) {
		return argErr(c, call, abi.ErrArg, "coords or rank is NULL")
	}
	r, e := g.Rank(intSlice(coords, g.Ndims()))
	if e != nil {
		return objErr(c, call, e)
	}
	*rank = C.int(r)
	return 0
}

//export gompi_Cart_shift
func gompi_Cart_shift(comm, direction, disp C.int, src, dst *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Cart_shift"
	c, g, rc := cartArg(call, comm)
	if g == nil {
		return rc
	}
	if src == nil || dst == nil {
		return argErr(c, call, abi.ErrArg, "rank_source or rank_dest is NULL")
	}
	s, d, e := g.Shift(c.Rank(), int(direction), int(disp))
	if e != nil {
		return objErr(c, call, e)
	}
	*src, *dst = C.int(s), C.int(d)
	return 0
}

//export gompi_Cart_sub
func gompi_Cart_sub(comm C.int, remain *C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Cart_sub"
	c, g, rc := cartArg(call, comm)
	if g == nil {
		return rc
	}
	if out == nil || (remain == nil && g.Ndims() > 0) {
		return argErr(c, call, abi.ErrArg, "remain_dims or newcomm is NULL")
	}
	d, err := c.CartSub(goBools(remain, g.Ndims()))
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(out, d)
	return 0
}

//export gompi_Cart_get
func gompi_Cart_get(comm, maxdims C.int, dims, periods, coords *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Cart_get"
	c, g, rc := cartArg(call, comm)
	if g == nil {
		return rc
	}
	n := g.Ndims()
	if int(maxdims) < n || (n > 0 && (dims == nil || periods == nil || coords == nil)) {
		return argErr(c, call, abi.ErrArg, "maxdims is smaller than the number of dimensions")
	}
	xs := make([]int, n)
	if e := g.Coords(c.Rank(), xs); e != nil {
		return objErr(c, call, e)
	}
	ps := make([]int, n)
	for i, p := range g.Periods {
		if p {
			ps[i] = 1
		}
	}
	putIntsMax(dims, g.Dims, n)
	putIntsMax(periods, ps, n)
	putIntsMax(coords, xs, n)
	return 0
}

//export gompi_Cartdim_get
func gompi_Cartdim_get(comm C.int, ndims *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Cartdim_get"
	c, g, rc := cartArg(call, comm)
	if g == nil {
		return rc
	}
	if ndims == nil {
		return argErr(c, call, abi.ErrArg, "ndims is NULL")
	}
	*ndims = C.int(g.Ndims())
	return 0
}

//export gompi_Cart_map
func gompi_Cart_map(comm, ndims C.int, dims, periods *C.int, newrank *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Cart_map"
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if rc := negArg(c, call, "ndims", ndims, abi.ErrDims); rc != 0 {
		return rc
	}
	if newrank == nil || (ndims > 0 && (dims == nil || periods == nil)) {
		return argErr(c, call, abi.ErrArg, "dims, periods or newrank is NULL")
	}
	r, e := topo.CartMap(intSlice(dims, int(ndims)), goBools(periods, int(ndims)), c.Size(), c.Rank())
	if e != nil {
		return objErr(c, call, e)
	}
	*newrank = C.int(r)
	return 0
}

//export gompi_Dims_create
func gompi_Dims_create(nnodes, ndims C.int, dims *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Dims_create"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if ndims < 0 {
		return argErr(nil, call, abi.ErrDims, "ndims is negative")
	}
	if dims == nil && ndims > 0 {
		return argErr(nil, call, abi.ErrArg, "dims is NULL")
	}
	xs := intSlice(dims, int(ndims))
	if e := topo.DimsCreate(int(nnodes), xs); e != nil {
		return objErr(nil, call, e)
	}
	putIntsMax(dims, xs, int(ndims))
	return 0
}

//export gompi_Graph_create
func gompi_Graph_create(comm, nnodes C.int, index, edges *C.int, reorder C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Graph_create"
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if out == nil || (nnodes > 0 && index == nil) {
		return argErr(c, call, abi.ErrArg, "index or comm_graph is NULL")
	}
	idx := intSlice(index, int(nnodes))
	ne := 0
	if len(idx) > 0 {
		ne = idx[len(idx)-1]
	}
	if ne > 0 && edges == nil {
		return argErr(c, call, abi.ErrArg, "edges is NULL")
	}
	d, err := c.GraphCreate(int(nnodes), idx, intSlice(edges, ne), reorder != 0)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(out, d)
	return 0
}

//export gompi_Graph_get
func gompi_Graph_get(comm, maxindex, maxedges C.int, index, edges *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Graph_get"
	c, g, rc := graphArg(call, comm)
	if g == nil {
		return rc
	}
	if maxindex < 0 || maxedges < 0 {
		return argErr(c, call, abi.ErrArg, "maxindex or maxedges is negative")
	}
	if (maxindex > 0 && index == nil) || (maxedges > 0 && edges == nil) {
		return argErr(c, call, abi.ErrArg, "index or edges is NULL")
	}
	putIntsMax(index, g.Index, int(maxindex))
	putIntsMax(edges, g.Edges, int(maxedges))
	return 0
}

//export gompi_Graph_neighbors
func gompi_Graph_neighbors(comm, rank, max C.int, out *C.int, count *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Graph_neighbors"
	if count != nil {
		call = "MPI_Graph_neighbors_count"
	}
	c, g, rc := graphArg(call, comm)
	if g == nil {
		return rc
	}
	nb, e := g.Neighbors(int(rank))
	if e != nil {
		return objErr(c, call, e)
	}
	if count != nil {
		*count = C.int(len(nb))
		return 0
	}
	if max < 0 {
		return argErr(c, call, abi.ErrArg, "maxneighbors is negative")
	}
	if max > 0 && out == nil {
		return nullArg(c, call, "neighbors")
	}
	putIntsMax(out, nb, int(max))
	return 0
}

//export gompi_Graphdims_get
func gompi_Graphdims_get(comm C.int, nnodes, nedges *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Graphdims_get"
	c, g, rc := graphArg(call, comm)
	if g == nil {
		return rc
	}
	if nnodes == nil || nedges == nil {
		return argErr(c, call, abi.ErrArg, "nnodes or nedges is NULL")
	}
	*nnodes, *nedges = C.int(g.Nnodes()), C.int(g.Nedges())
	return 0
}

//export gompi_Graph_map
func gompi_Graph_map(comm, nnodes C.int, index, edges *C.int, newrank *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Graph_map"
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if newrank == nil || (nnodes > 0 && index == nil) {
		return argErr(c, call, abi.ErrArg, "index or newrank is NULL")
	}
	idx := intSlice(index, int(nnodes))
	ne := 0
	if len(idx) > 0 {
		ne = idx[len(idx)-1]
	}
	r, e := topo.GraphMap(int(nnodes), idx, intSlice(edges, ne), c.Size(), c.Rank())
	if e != nil {
		return objErr(c, call, e)
	}
	*newrank = C.int(r)
	return 0
}

//export gompi_Dist_graph_create
func gompi_Dist_graph_create(comm, n C.int, sources, degrees, dests, weights *C.int, weighted, reorder C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Dist_graph_create"
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if rc := negArg(c, call, "n", n, abi.ErrArg); rc != 0 {
		return rc
	}
	if out == nil || (n > 0 && (sources == nil || degrees == nil)) {
		return argErr(c, call, abi.ErrArg, "sources, degrees or comm_dist_graph is NULL")
	}
	degs := intSlice(degrees, int(n))
	total := 0
	for _, d := range degs {
		total += max(d, 0)
	}
	if total > 0 && (dests == nil || (weighted != 0 && weights == nil)) {
		return argErr(c, call, abi.ErrArg, "destinations or weights is NULL")
	}
	var w []int
	if weighted != 0 {
		w = intSlice(weights, total)
	}
	d, err := c.DistGraphCreate(intSlice(sources, int(n)), degs, intSlice(dests, total), w, weighted != 0, reorder != 0)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(out, d)
	return 0
}

//export gompi_Dist_graph_create_adjacent
func gompi_Dist_graph_create_adjacent(comm, indeg C.int, sources, sw *C.int, outdeg C.int, dests, dw *C.int,
	weighted, reorder C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Dist_graph_create_adjacent"
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if indeg < 0 || outdeg < 0 {
		return argErr(c, call, abi.ErrArg, "indegree or outdegree is negative")
	}
	if out == nil || (indeg > 0 && sources == nil) || (outdeg > 0 && dests == nil) {
		return argErr(c, call, abi.ErrArg, "sources, destinations or comm_dist_graph is NULL")
	}
	if weighted != 0 && ((indeg > 0 && sw == nil) || (outdeg > 0 && dw == nil)) {
		return argErr(c, call, abi.ErrArg, "weights are NULL")
	}
	var iw, ow []int
	if weighted != 0 {
		iw, ow = intSlice(sw, int(indeg)), intSlice(dw, int(outdeg))
	}
	d, err := c.DistGraphCreateAdjacent(intSlice(sources, int(indeg)), iw, intSlice(dests, int(outdeg)), ow,
		weighted != 0, reorder != 0)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(out, d)
	return 0
}

//export gompi_Dist_graph_neighbors
func gompi_Dist_graph_neighbors(comm, maxin C.int, sources, sw *C.int, maxout C.int, dests, dw *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Dist_graph_neighbors"
	c, g, rc := distgraphArg(call, comm)
	if g == nil {
		return rc
	}
	if int(maxin) < g.Indegree() || int(maxout) < g.Outdegree() {
		return argErr(c, call, abi.ErrArg, "maxindegree or maxoutdegree is smaller than the degree")
	}
	if (maxin > 0 && (sources == nil || (g.Weighted && sw == nil))) ||
		(maxout > 0 && (dests == nil || (g.Weighted && dw == nil))) {
		// Weights may be NULL for a graph without them (as MPICH allows).
		return argErr(c, call, abi.ErrArg, "sources, destinations or their weights are NULL")
	}
	putIntsMax(sources, g.Sources, int(maxin))
	putIntsMax(dests, g.Dests, int(maxout))
	if g.Weighted {
		putIntsMax(sw, g.SourceWeights, int(maxin))
		putIntsMax(dw, g.DestWeights, int(maxout))
	}
	return 0
}

//export gompi_Dist_graph_neighbors_count
func gompi_Dist_graph_neighbors_count(comm C.int, indeg, outdeg, weighted *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Dist_graph_neighbors_count"
	c, g, rc := distgraphArg(call, comm)
	if g == nil {
		return rc
	}
	if indeg == nil || outdeg == nil || weighted == nil {
		return argErr(c, call, abi.ErrArg, "an output pointer is NULL")
	}
	*indeg, *outdeg, *weighted = C.int(g.Indegree()), C.int(g.Outdegree()), cbool(g.Weighted)
	return 0
}

//export gompi_Topo_test
func gompi_Topo_test(comm C.int, status *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Topo_test", comm)
	if c == nil {
		return rc
	}
	if status == nil {
		return argErr(c, "MPI_Topo_test", abi.ErrArg, "status is NULL")
	}
	*status = C.int(c.Topology().Kind())
	return 0
}
