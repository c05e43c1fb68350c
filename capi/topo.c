/* Process topologies. Weight sentinels are resolved here, where their
 * addresses are known. */
#include "gompi.h"
#include "_cgo_export.h"

static int weights_given(const int *w) { return w != MPI_UNWEIGHTED; }
static int *weights_array(const int *w) { return w == MPI_UNWEIGHTED || w == MPI_WEIGHTS_EMPTY ? NULL : (int *)w; }

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm *comm_cart)
{
    return gompi_Cart_create(comm_old, ndims, (int *)dims, (int *)periods, reorder, comm_cart);
}
#pragma weak MPI_Cart_create = PMPI_Cart_create

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    return gompi_Cart_coords(comm, rank, maxdims, coords);
}
#pragma weak MPI_Cart_coords = PMPI_Cart_coords

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank) { return gompi_Cart_rank(comm, (int *)coords, rank); }
#pragma weak MPI_Cart_rank = PMPI_Cart_rank

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    return gompi_Cart_shift(comm, direction, disp, rank_source, rank_dest);
}
#pragma weak MPI_Cart_shift = PMPI_Cart_shift

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    return gompi_Cart_sub(comm, (int *)remain_dims, newcomm);
}
#pragma weak MPI_Cart_sub = PMPI_Cart_sub

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    return gompi_Cart_get(comm, maxdims, dims, periods, coords);
}
#pragma weak MPI_Cart_get = PMPI_Cart_get

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims) { return gompi_Cartdim_get(comm, ndims); }
#pragma weak MPI_Cartdim_get = PMPI_Cartdim_get

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    return gompi_Cart_map(comm, ndims, (int *)dims, (int *)periods, newrank);
}
#pragma weak MPI_Cart_map = PMPI_Cart_map

int PMPI_Dims_create(int nnodes, int ndims, int dims[]) { return gompi_Dims_create(nnodes, ndims, dims); }
#pragma weak MPI_Dims_create = PMPI_Dims_create

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int indx[], const int edges[], int reorder,
                      MPI_Comm *comm_graph)
{
    return gompi_Graph_create(comm_old, nnodes, (int *)indx, (int *)edges, reorder, comm_graph);
}
#pragma weak MPI_Graph_create = PMPI_Graph_create

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int indx[], int edges[])
{
    return gompi_Graph_get(comm, maxindex, maxedges, indx, edges);
}
#pragma weak MPI_Graph_get = PMPI_Graph_get

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    return gompi_Graph_neighbors(comm, rank, maxneighbors, neighbors, NULL);
}
#pragma weak MPI_Graph_neighbors = PMPI_Graph_neighbors

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    GOMPI_NONNULL(comm, "MPI_Graph_neighbors_count", nneighbors);
    return gompi_Graph_neighbors(comm, rank, 0, NULL, nneighbors);
}
#pragma weak MPI_Graph_neighbors_count = PMPI_Graph_neighbors_count

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges) { return gompi_Graphdims_get(comm, nnodes, nedges); }
#pragma weak MPI_Graphdims_get = PMPI_Graphdims_get

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int indx[], const int edges[], int *newrank)
{
    return gompi_Graph_map(comm, nnodes, (int *)indx, (int *)edges, newrank);
}
#pragma weak MPI_Graph_map = PMPI_Graph_map

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info, int reorder,
                           MPI_Comm *comm_dist_graph)
{
    GOMPI_INFO_ARG(comm_old, "MPI_Dist_graph_create", info);
    return gompi_Dist_graph_create(comm_old, n, (int *)sources, (int *)degrees, (int *)destinations,
                                   weights_array(weights), weights_given(weights), reorder, comm_dist_graph);
}
#pragma weak MPI_Dist_graph_create = PMPI_Dist_graph_create

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                    int outdegree, const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    GOMPI_INFO_ARG(comm_old, "MPI_Dist_graph_create_adjacent", info);
    if (indegree > 0) GOMPI_NONNULL(comm_old, "MPI_Dist_graph_create_adjacent", sourceweights);
    if (outdegree > 0) GOMPI_NONNULL(comm_old, "MPI_Dist_graph_create_adjacent", destweights);
    return gompi_Dist_graph_create_adjacent(comm_old, indegree, (int *)sources, weights_array(sourceweights),
                                            outdegree, (int *)destinations, weights_array(destweights),
                                            weights_given(sourceweights) && weights_given(destweights), reorder,
                                            comm_dist_graph);
}
#pragma weak MPI_Dist_graph_create_adjacent = PMPI_Dist_graph_create_adjacent

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                              int destinations[], int destweights[])
{
    return gompi_Dist_graph_neighbors(comm, maxindegree, sources, weights_array(sourceweights), maxoutdegree,
                                      destinations, weights_array(destweights));
}
#pragma weak MPI_Dist_graph_neighbors = PMPI_Dist_graph_neighbors

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    return gompi_Dist_graph_neighbors_count(comm, indegree, outdegree, weighted);
}
#pragma weak MPI_Dist_graph_neighbors_count = PMPI_Dist_graph_neighbors_count

int PMPI_Topo_test(MPI_Comm comm, int *status) { return gompi_Topo_test(comm, status); }
#pragma weak MPI_Topo_test = PMPI_Topo_test
