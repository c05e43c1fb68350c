/* Node-aware collectives, checked element by element on communicators the
 * including program's GOMPI_COLL_FAKE_NODES setting splits over virtual
 * nodes: MPI_COMM_WORLD, the world with ranks reversed (a node's ranks then
 * are not in the order of the nodes) and every other rank (odd layouts).
 * Large messages take the pipelined forms; a non-commutative op checks
 * that reductions keep rank order. */
#include <stdint.h>
#include <string.h>

#include "check.h"

/* affine maps x -> m*x + c composed in rank order: (a then b) */
static void affine_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
    (void)dt;
    uint32_t *a = in, *b = inout;
    for (int i = 0; i < *len; i++) {
        uint32_t am = a[2 * i], ac = a[2 * i + 1], bm = b[2 * i], bc = b[2 * i + 1];
        b[2 * i] = am * bm;
        b[2 * i + 1] = bm * ac + bc;
    }
}

static void affine_of(int r, int i, uint32_t *e) {
    e[0] = (uint32_t)(2 * r + 3 + 2 * i);
    e[1] = (uint32_t)(r * 7 + i + 1);
}

/* the ordered fold of ranks 0..size-1, element i */
static void affine_want(int size, int i, uint32_t *e) {
    affine_of(0, i, e);
    for (int r = 1; r < size; r++) {
        uint32_t x[2];
        affine_of(r, i, x);
        int one = 1;
        affine_op(e, x, &one, NULL);
        e[0] = x[0];
        e[1] = x[1];
    }
}

static int val(int r, int i) { return r * 100003 + i * 7 + 1; }

static void hier_checks(MPI_Comm comm, const char *what) {
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_UINT32_T, &pair);
    MPI_Type_commit(&pair);
    MPI_Op aff;
    MPI_Op_create(affine_op, 0, &aff);
    const int counts[] = {1, 7, 1000, 70000}; /* 70000 ints: past 4 segments */
    for (int ci = 0; ci < 4; ci++) {
        int n = counts[ci];
        int *a = malloc(sizeof(int) * n * size), *b = malloc(sizeof(int) * n * size);
        CHECK_MPI(MPI_Barrier(comm));
        /* bcast from every root */
        for (int root = 0; root < size; root++) {
            for (int i = 0; i < n; i++)
                a[i] = rank == root ? val(root, i) : -1;
            CHECK_MPI(MPI_Bcast(a, n, MPI_INT, root, comm));
            for (int i = 0; i < n; i++)
                if (a[i] != val(root, i)) {
                    CHECK(0, "%s bcast n=%d root=%d [%d]=%d", what, n, root, i, a[i]);
                    break;
                }
        }
        /* reduce (sum), to every root, in place at the root too */
        for (int root = 0; root < size; root++) {
            for (int inplace = 0; inplace < 2; inplace++) {
                for (int i = 0; i < n; i++)
                    a[i] = val(rank, i), b[i] = -1;
                void *sb = a, *rb = b;
                if (inplace && rank == root)
                    sb = MPI_IN_PLACE, rb = a;
                CHECK_MPI(MPI_Reduce(sb, rb, n, MPI_INT, MPI_SUM, root, comm));
                if (rank == root)
                    for (int i = 0; i < n; i++) {
                        int want = 0;
                        for (int r = 0; r < size; r++)
                            want += val(r, i);
                        if (((int *)rb)[i] != want) {
                            CHECK(0, "%s reduce n=%d root=%d inplace=%d [%d]", what, n, root, inplace, i);
                            break;
                        }
                    }
            }
        }
        /* allreduce, blocking and nonblocking, in place */
        for (int mode = 0; mode < 3; mode++) {
            for (int i = 0; i < n; i++)
                a[i] = val(rank, i), b[i] = -1;
            if (mode == 0)
                CHECK_MPI(MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, comm));
            else if (mode == 1) {
                memcpy(b, a, sizeof(int) * n);
                CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, comm));
            } else {
                MPI_Request req;
                CHECK_MPI(MPI_Iallreduce(a, b, n, MPI_INT, MPI_SUM, comm, &req));
                CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            }
            for (int i = 0; i < n; i++) {
                int want = 0;
                for (int r = 0; r < size; r++)
                    want += val(r, i);
                if (b[i] != want) {
                    CHECK(0, "%s allreduce mode=%d n=%d [%d]=%d want %d", what, mode, n, i, b[i], want);
                    break;
                }
            }
        }
        /* non-commutative reduce and allreduce keep rank order */
        if (n <= 1000) {
            uint32_t *x = malloc(8 * n), *y = malloc(8 * n), w[2];
            for (int root = 0; root < size; root++) {
                for (int i = 0; i < n; i++)
                    affine_of(rank, i, x + 2 * i);
                CHECK_MPI(MPI_Reduce(x, y, n, pair, aff, root, comm));
                if (rank == root)
                    for (int i = 0; i < n; i++) {
                        affine_want(size, i, w);
                        if (y[2 * i] != w[0] || y[2 * i + 1] != w[1]) {
                            CHECK(0, "%s ordered reduce n=%d root=%d [%d]", what, n, root, i);
                            break;
                        }
                    }
            }
            for (int i = 0; i < n; i++)
                affine_of(rank, i, y + 2 * i);
            CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, y, n, pair, aff, comm));
            for (int i = 0; i < n; i++) {
                affine_want(size, i, w);
                if (y[2 * i] != w[0] || y[2 * i + 1] != w[1]) {
                    CHECK(0, "%s ordered allreduce n=%d [%d]", what, n, i);
                    break;
                }
            }
            /* reduce_scatter_block: block r of the ordered fold */
            uint32_t *z = malloc(8 * n * size), *o = malloc(8 * n);
            for (int r = 0; r < size; r++)
                for (int i = 0; i < n; i++)
                    affine_of(rank, r * n + i, z + 2 * (r * n + i));
            CHECK_MPI(MPI_Reduce_scatter_block(z, o, n, pair, aff, comm));
            for (int i = 0; i < n; i++) {
                affine_want(size, rank * n + i, w);
                if (o[2 * i] != w[0] || o[2 * i + 1] != w[1]) {
                    CHECK(0, "%s ordered reduce_scatter_block n=%d [%d]", what, n, i);
                    break;
                }
            }
            free(z);
            free(o);
            free(x);
            free(y);
        }
        /* allgather, in place too; allgatherv with uneven counts */
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < n * size; i++)
                b[i] = -1;
            for (int i = 0; i < n; i++)
                a[i] = val(rank, i), b[rank * n + i] = val(rank, i);
            CHECK_MPI(MPI_Allgather(inplace ? MPI_IN_PLACE : a, n, MPI_INT, b, n, MPI_INT, comm));
            for (int r = 0; r < size; r++)
                for (int i = 0; i < n; i++)
                    if (b[r * n + i] != val(r, i)) {
                        CHECK(0, "%s allgather inplace=%d n=%d block %d [%d]", what, inplace, n, r, i);
                        r = size;
                        break;
                    }
        }
        {
            int *rc = malloc(sizeof(int) * size), *dp = malloc(sizeof(int) * size), tot = 0;
            for (int r = 0; r < size; r++) /* reversed layout, uneven, one empty */
                rc[r] = r == 1 ? 0 : n / (r + 1) + 1;
            for (int r = size - 1; r >= 0; r--)
                dp[r] = tot, tot += rc[r] + 1;
            int *g = malloc(sizeof(int) * (tot + 1));
            for (int i = 0; i < rc[rank]; i++)
                a[i] = val(rank, i);
            CHECK_MPI(MPI_Allgatherv(a, rc[rank], MPI_INT, g, rc, dp, MPI_INT, comm));
            for (int r = 0; r < size; r++)
                for (int i = 0; i < rc[r]; i++)
                    if (g[dp[r] + i] != val(r, i)) {
                        CHECK(0, "%s allgatherv n=%d block %d [%d]", what, n, r, i);
                        r = size;
                        break;
                    }
            /* reduce_scatter (sum) with the same uneven counts */
            int *v = malloc(sizeof(int) * (tot + 1)), *o = malloc(sizeof(int) * (n + 1)), off = 0;
            int all = 0;
            for (int r = 0; r < size; r++)
                all += rc[r];
            for (int i = 0; i < all; i++)
                v[i] = val(rank, i);
            CHECK_MPI(MPI_Reduce_scatter(v, o, rc, MPI_INT, MPI_SUM, comm));
            for (int r = 0; r < rank; r++)
                off += rc[r];
            for (int i = 0; i < rc[rank]; i++) {
                int want = 0;
                for (int r = 0; r < size; r++)
                    want += val(r, off + i);
                if (o[i] != want) {
                    CHECK(0, "%s reduce_scatter n=%d [%d]", what, n, i);
                    break;
                }
            }
            free(v);
            free(o);
            free(g);
            free(rc);
            free(dp);
        }
        /* gather and scatter from every root, in place at the root */
        for (int root = 0; root < size; root++) {
            for (int inplace = 0; inplace < 2; inplace++) {
                int ip = inplace && rank == root;
                for (int i = 0; i < n; i++)
                    a[i] = val(rank, i);
                for (int i = 0; i < n * size; i++)
                    b[i] = -1;
                if (ip)
                    memcpy(b + rank * n, a, sizeof(int) * n);
                CHECK_MPI(MPI_Gather(ip ? MPI_IN_PLACE : a, n, MPI_INT, b, n, MPI_INT, root, comm));
                if (rank == root)
                    for (int r = 0; r < size; r++)
                        for (int i = 0; i < n; i++)
                            if (b[r * n + i] != val(r, i)) {
                                CHECK(0, "%s gather n=%d root=%d inplace=%d block %d", what, n, root, inplace, r);
                                r = size;
                                break;
                            }
                /* scatter it back: rank r gets block r */
                for (int i = 0; i < n; i++)
                    a[i] = -1;
                if (rank == root)
                    for (int r = 0; r < size; r++)
                        for (int i = 0; i < n; i++)
                            b[r * n + i] = val(r, i) + root;
                CHECK_MPI(MPI_Scatter(b, n, MPI_INT, ip ? MPI_IN_PLACE : a, n, MPI_INT, root, comm));
                int *got = ip ? b + rank * n : a;
                for (int i = 0; i < n; i++)
                    if (got[i] != val(rank, i) + root) {
                        CHECK(0, "%s scatter n=%d root=%d inplace=%d [%d]", what, n, root, inplace, i);
                        break;
                    }
            }
        }
        /* gather in place into a non-contiguous receive type: rank r's two
         * ints land at 3r and 3r+2 */
        if (ci == 0) {
            MPI_Datatype vec;
            MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
            MPI_Type_commit(&vec);
            for (int root = 0; root < size; root++) {
                int *g = malloc(sizeof(int) * (3 * size + 1)), mine[2] = {val(rank, 0), val(rank, 1)};
                for (int i = 0; i < 3 * size + 1; i++)
                    g[i] = -7;
                if (rank == root)
                    g[3 * rank] = mine[0], g[3 * rank + 2] = mine[1];
                CHECK_MPI(MPI_Gather(rank == root ? MPI_IN_PLACE : mine, 2, MPI_INT, g, 1, vec, root, comm));
                if (rank == root)
                    for (int r = 0; r < size; r++)
                        CHECK(g[3 * r] == val(r, 0) && g[3 * r + 2] == val(r, 1) && g[3 * r + 1] == -7,
                              "%s gather in place, vector type, root=%d block %d: %d %d %d", what, root, r, g[3 * r],
                              g[3 * r + 1], g[3 * r + 2]);
                free(g);
            }
            MPI_Type_free(&vec);
        }
        /* alltoall */
        for (int r = 0; r < size; r++)
            for (int i = 0; i < n; i++)
                a[r * n + i] = val(rank, r * n + i);
        CHECK_MPI(MPI_Alltoall(a, n, MPI_INT, b, n, MPI_INT, comm));
        for (int r = 0; r < size; r++)
            for (int i = 0; i < n; i++)
                if (b[r * n + i] != val(r, rank * n + i)) {
                    CHECK(0, "%s alltoall n=%d block %d [%d]", what, n, r, i);
                    r = size;
                    break;
                }
        /* ibcast and ibarrier */
        MPI_Request rq[2];
        for (int i = 0; i < n; i++)
            a[i] = rank == size - 1 ? val(9, i) : 0;
        CHECK_MPI(MPI_Ibcast(a, n, MPI_INT, size - 1, comm, &rq[0]));
        CHECK_MPI(MPI_Ibarrier(comm, &rq[1]));
        CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        for (int i = 0; i < n; i++)
            if (a[i] != val(9, i)) {
                CHECK(0, "%s ibcast n=%d [%d]", what, n, i);
                break;
            }
        free(a);
        free(b);
    }
    MPI_Op_free(&aff);
    MPI_Type_free(&pair);
}

static int hier_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    hier_checks(MPI_COMM_WORLD, "world");
    MPI_Comm rev, half;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
    hier_checks(rev, "reversed");
    MPI_Comm_free(&rev);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    hier_checks(half, "half");
    MPI_Comm_free(&half);
    MPI_Finalize();
    return check_status();
}
