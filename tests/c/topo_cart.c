//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=60 */
/* Process topologies against hand-computed answers: Dims_create, a periodic
 * and non-periodic Cartesian grid (coords, rank, shift, get, sub), Cart_map,
 * a ring as a graph (neighbours, get, dims), distributed graphs from
 * adjacency lists and from edges, Topo_test, and the error classes for
 * misuse under MPI_ERRORS_RETURN. With reorder on and off the same answers
 * hold. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static int wrank, wsize;

static void cart(int reorder) {
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    CHECK_MPI(MPI_Dims_create(wsize, 2, dims));
    CHECK(dims[0] * dims[1] == wsize && dims[0] >= dims[1], "dims %d x %d", dims[0], dims[1]);
    MPI_Comm g;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, reorder, &g));
    int r, st, nd;
    MPI_Comm_rank(g, &r);
    CHECK_MPI(MPI_Topo_test(g, &st));
    CHECK(st == MPI_CART, "topo_test %d", st);
    CHECK_MPI(MPI_Cartdim_get(g, &nd));
    CHECK(nd == 2, "ndims %d", nd);
    int c[2], gd[2], gp[2], gc[2];
    CHECK_MPI(MPI_Cart_coords(g, r, 2, c));
    CHECK(c[0] == r / dims[1] && c[1] == r % dims[1], "coords of %d: %d %d", r, c[0], c[1]);
    int back;
    CHECK_MPI(MPI_Cart_rank(g, c, &back));
    CHECK(back == r, "rank of coords %d", back);
    CHECK_MPI(MPI_Cart_get(g, 2, gd, gp, gc));
    CHECK(gd[0] == dims[0] && gd[1] == dims[1] && gp[0] == 1 && gp[1] == 0 && gc[0] == c[0] && gc[1] == c[1],
          "cart_get");
    /* Dimension 0 wraps; dimension 1 ends in MPI_PROC_NULL. */
    int src, dst;
    CHECK_MPI(MPI_Cart_shift(g, 0, 1, &src, &dst));
    CHECK(src == ((c[0] + dims[0] - 1) % dims[0]) * dims[1] + c[1], "shift 0 src %d", src);
    CHECK(dst == ((c[0] + 1) % dims[0]) * dims[1] + c[1], "shift 0 dst %d", dst);
    CHECK_MPI(MPI_Cart_shift(g, 1, 1, &src, &dst));
    CHECK(src == (c[1] == 0 ? MPI_PROC_NULL : r - 1), "shift 1 src %d", src);
    CHECK(dst == (c[1] == dims[1] - 1 ? MPI_PROC_NULL : r + 1), "shift 1 dst %d", dst);
    /* Periodic coordinates out of range wrap in Cart_rank. */
    int wrap[2] = {c[0] + dims[0], c[1]};
    CHECK_MPI(MPI_Cart_rank(g, wrap, &back));
    CHECK(back == r, "wrapped rank %d", back);

    /* Rows: keep dimension 1. */
    int remain[2] = {0, 1};
    MPI_Comm row;
    CHECK_MPI(MPI_Cart_sub(g, remain, &row));
    int rr, rn;
    MPI_Comm_rank(row, &rr);
    MPI_Comm_size(row, &rn);
    CHECK(rr == c[1] && rn == dims[1], "row rank %d size %d", rr, rn);
    CHECK_MPI(MPI_Cartdim_get(row, &nd));
    CHECK(nd == 1, "row ndims %d", nd);
    /* Traffic along the row. */
    int v = r, got = -1;
    CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, (rr + 1) % rn, 0, &got, 1, MPI_INT, (rr + rn - 1) % rn, 0, row,
                           MPI_STATUS_IGNORE));
    CHECK(got == c[0] * dims[1] + (rr + rn - 1) % rn, "row ring got %d", got);
    MPI_Comm_free(&row);
    MPI_Comm_free(&g);

    /* A 1-D grid smaller than the world: the last rank is left out. */
    if (wsize > 1) {
        int d1 = wsize - 1, p1 = 0, nr;
        CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, &d1, &p1, reorder, &g));
        CHECK((wrank == wsize - 1) == (g == MPI_COMM_NULL), "rank %d: grid membership", wrank);
        if (g != MPI_COMM_NULL)
            MPI_Comm_free(&g);
        CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, &d1, &p1, &nr));
        CHECK(nr == (wrank == wsize - 1 ? MPI_UNDEFINED : wrank), "cart_map %d", nr);
    }
}

static void graphs(void) {
    /* A ring as a graph: node i neighbours i-1 and i+1. */
    int n = wsize, idx[8], edges[16], k = 0;
    for (int i = 0; i < n; i++) {
        edges[k++] = (i + n - 1) % n;
        edges[k++] = (i + 1) % n;
        idx[i] = k;
    }
    MPI_Comm g;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, idx, edges, 0, &g));
    int st, nn, ne, cnt, nb[2];
    CHECK_MPI(MPI_Topo_test(g, &st));
    CHECK(st == MPI_GRAPH, "topo_test %d", st);
    CHECK_MPI(MPI_Graphdims_get(g, &nn, &ne));
    CHECK(nn == n && ne == 2 * n, "graphdims %d %d", nn, ne);
    CHECK_MPI(MPI_Graph_neighbors_count(g, wrank, &cnt));
    CHECK(cnt == 2, "neighbours count %d", cnt);
    CHECK_MPI(MPI_Graph_neighbors(g, wrank, 2, nb));
    CHECK(nb[0] == (wrank + n - 1) % n && nb[1] == (wrank + 1) % n, "neighbours %d %d", nb[0], nb[1]);
    int gi[8], ge[16];
    CHECK_MPI(MPI_Graph_get(g, n, 2 * n, gi, ge));
    CHECK(memcmp(gi, idx, n * sizeof(int)) == 0 && memcmp(ge, edges, 2 * n * sizeof(int)) == 0, "graph_get");
    MPI_Comm_free(&g);

    /* Distributed graph, adjacent form: receive from the left, send right, weighted. */
    int left = (wrank + n - 1) % n, right = (wrank + 1) % n, wl = 10 + left, wr = 10 + wrank;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &wl, 1, &right, &wr, MPI_INFO_NULL, 0, &g));
    int in, out, weighted, s, d, sw, dw;
    CHECK_MPI(MPI_Topo_test(g, &st));
    CHECK(st == MPI_DIST_GRAPH, "topo_test %d", st);
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted));
    CHECK(in == 1 && out == 1 && weighted, "counts %d %d %d", in, out, weighted);
    CHECK_MPI(MPI_Dist_graph_neighbors(g, 1, &s, &sw, 1, &d, &dw));
    CHECK(s == left && d == right && sw == 10 + left && dw == 10 + wrank, "adjacent %d %d %d %d", s, d, sw, dw);
    MPI_Comm_free(&g);

    /* Distributed graph from edges: rank 0 names every edge i -> i+1. */
    int srcs[8], degs[8], dsts[8];
    for (int i = 0; i < n; i++) {
        srcs[i] = i;
        degs[i] = 1;
        dsts[i] = (i + 1) % n;
    }
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, wrank == 0 ? n : 0, srcs, degs, dsts, MPI_UNWEIGHTED,
                                    MPI_INFO_NULL, 1, &g));
    CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted));
    CHECK(in == 1 && out == 1 && !weighted, "edge counts %d %d %d", in, out, weighted);
    CHECK_MPI(MPI_Dist_graph_neighbors(g, 1, &s, MPI_UNWEIGHTED, 1, &d, MPI_UNWEIGHTED));
    CHECK(s == left && d == right, "edges: in %d out %d", s, d);
    MPI_Comm_free(&g);
}

static void errors(void) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls, rc, dims[2] = {0, 0}, nd;
    rc = MPI_Cartdim_get(MPI_COMM_WORLD, &nd);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TOPOLOGY, "cartdim_get on world: class %d", cls);
    rc = MPI_Dims_create(wsize, -1, dims);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_DIMS, "dims_create ndims -1: class %d", cls);
    dims[0] = wsize + 1;
    int p = 0;
    MPI_Comm g;
    rc = MPI_Cart_create(MPI_COMM_WORLD, 1, dims, &p, 0, &g);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TOPOLOGY || cls == MPI_ERR_DIMS || cls == MPI_ERR_ARG, "grid too large: class %d", cls);
    dims[0] = 3;
    dims[1] = 0;
    rc = MPI_Dims_create(7, 2, dims);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_DIMS, "dims_create 7 over fixed 3: class %d", cls);
    rc = MPI_Topo_test(MPI_COMM_NULL, &nd);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM, "topo_test null: class %d", cls);
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &nd));
    CHECK(nd == MPI_UNDEFINED, "world topo_test %d", nd);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    check_rank = wrank;
    int d[3] = {0, 0, 0};
    CHECK_MPI(MPI_Dims_create(12, 3, d));
    CHECK(d[0] == 3 && d[1] == 2 && d[2] == 2, "dims_create(12, 3) = %d %d %d", d[0], d[1], d[2]);
    int e[2] = {0, 3};
    CHECK_MPI(MPI_Dims_create(12, 2, e));
    CHECK(e[0] == 4 && e[1] == 3, "dims_create(12, {0, 3}) = %d %d", e[0], e[1]);
    cart(0);
    cart(1);
    graphs();
    errors();
    MPI_Finalize();
    return check_status();
}
