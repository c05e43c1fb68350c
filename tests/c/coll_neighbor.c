//go:build ignore

/* gompi-test: np=1,2,3,4,6 timeout=60 */
/* Neighbourhood collectives (allgather, allgatherv, alltoall, alltoallv,
 * alltoallw) in blocking, nonblocking and persistent form on: a periodic 1-D
 * ring (with 1 or 2 ranks both neighbours are one rank: the block sent to the
 * negative neighbour must arrive in its positive slot), a non-periodic 2-D
 * grid (MPI_PROC_NULL slots stay untouched) and a distributed graph where
 * rank r sends to r+1 and r+2 and receives from r-1 and r-2. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#define M 3 /* elements per block */

static int rank, size;

/* value of element i of the block rank p sends in its out-slot j */
static int val(int p, int j, int i) { return p * 10000 + j * 100 + i + 1; }

static void coll(int f, int kind, MPI_Comm c, int *sb, int *rb, int nin, int nout) {
    int sc[16], sd[16], rc[16], rd[16];
    MPI_Aint sdb[16], rdb[16];
    MPI_Datatype st[16], rt[16];
    for (int j = 0; j < nout; j++) {
        sc[j] = M, sd[j] = j * M, sdb[j] = (MPI_Aint)(j * M * sizeof(int)), st[j] = MPI_INT;
    }
    for (int j = 0; j < nin; j++) {
        rc[j] = M, rd[j] = j * M, rdb[j] = (MPI_Aint)(j * M * sizeof(int)), rt[j] = MPI_INT;
    }
    MPI_Request r;
    int rc0 = MPI_SUCCESS;
#define FORMS(B, I, ...)                                                                      \
    if (f == 0)                                                                               \
        rc0 = MPI_##B(__VA_ARGS__);                                                           \
    else if (f == 1) {                                                                        \
        rc0 = MPI_##I(__VA_ARGS__, &r);                                                       \
        MPI_Wait(&r, MPI_STATUS_IGNORE);                                                      \
    } else {                                                                                  \
        rc0 = MPI_##B##_init(__VA_ARGS__, MPI_INFO_NULL, &r);                                 \
        MPI_Start(&r);                                                                        \
        MPI_Wait(&r, MPI_STATUS_IGNORE);                                                      \
        MPI_Request_free(&r);                                                                 \
    }
    switch (kind) {
    case 0: FORMS(Neighbor_allgather, Ineighbor_allgather, sb, M, MPI_INT, rb, M, MPI_INT, c); break;
    case 1: FORMS(Neighbor_allgatherv, Ineighbor_allgatherv, sb, M, MPI_INT, rb, rc, rd, MPI_INT, c); break;
    case 2: FORMS(Neighbor_alltoall, Ineighbor_alltoall, sb, M, MPI_INT, rb, M, MPI_INT, c); break;
    case 3: FORMS(Neighbor_alltoallv, Ineighbor_alltoallv, sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, c); break;
    default: FORMS(Neighbor_alltoallw, Ineighbor_alltoallw, sb, sc, sdb, st, rb, rc, rdb, rt, c); break;
    }
    CHECK(rc0 == MPI_SUCCESS, "kind %d form %d returned %d", kind, f, rc0);
}

/* check runs every kind and form on c; ins[j] is the source of in-slot j and
 * from[j] which out-slot of that source feeds it (-1: MPI_PROC_NULL). */
static void check(MPI_Comm c, const char *name, int nin, const int *ins, const int *from, int nout) {
    int sb[16 * M], rb[16 * M];
    for (int kind = 0; kind < 5; kind++)
        for (int f = 0; f < 3; f++) {
            for (int j = 0; j < nout; j++)
                for (int i = 0; i < M; i++)
                    sb[j * M + i] = val(rank, kind >= 2 ? j : 0, i);
            for (int i = 0; i < nin * M; i++)
                rb[i] = -7;
            coll(f, kind, c, sb, rb, nin, nout);
            for (int j = 0; j < nin; j++)
                for (int i = 0; i < M; i++) {
                    int want = ins[j] < 0 ? -7 : val(ins[j], kind >= 2 ? from[j] : 0, i);
                    if (rb[j * M + i] != want) {
                        CHECK(0, "%s kind %d form %d: slot %d [%d] = %d, want %d", name, kind, f, j, i,
                              rb[j * M + i], want);
                        i = M;
                        j = nin;
                    }
                }
        }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;

    /* periodic ring: slot 0 from the left (its out-slot 1), slot 1 from the right (its out-slot 0) */
    MPI_Comm ring;
    int dims[2] = {size, 1}, periods[2] = {1, 0};
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int ins[16], from[16];
    ins[0] = (rank - 1 + size) % size, from[0] = 1;
    ins[1] = (rank + 1) % size, from[1] = 0;
    check(ring, "ring", 2, ins, from, 2);
    MPI_Comm_free(&ring);

    /* non-periodic 2-D grid */
    int d2[2] = {0, 0}, p2[2] = {0, 0};
    MPI_Dims_create(size, 2, d2);
    MPI_Comm grid;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, d2, p2, 0, &grid));
    int co[2];
    MPI_Cart_coords(grid, rank, 2, co);
    for (int d = 0; d < 2; d++) {
        int lo, hi;
        MPI_Cart_shift(grid, d, 1, &lo, &hi);
        ins[2 * d] = lo == MPI_PROC_NULL ? -1 : lo, from[2 * d] = 2 * d + 1;
        ins[2 * d + 1] = hi == MPI_PROC_NULL ? -1 : hi, from[2 * d + 1] = 2 * d;
    }
    check(grid, "grid", 4, ins, from, 4);
    MPI_Comm_free(&grid);

    /* distributed graph: to r+1, r+2; from r-1, r-2 */
    MPI_Comm g;
    int srcs[2] = {(rank - 1 + size) % size, (rank - 2 + 2 * size) % size};
    int dsts[2] = {(rank + 1) % size, (rank + 2) % size};
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, MPI_UNWEIGHTED, 2, dsts, MPI_UNWEIGHTED,
                                             MPI_INFO_NULL, 0, &g));
    ins[0] = srcs[0], from[0] = 0;
    ins[1] = srcs[1], from[1] = 1;
    /* with 1 or 2 ranks the pairs repeat: matched in order, as the standard says for graphs */
    check(g, "distgraph", 2, ins, from, 2);
    MPI_Comm_free(&g);
    MPI_Finalize();
    return check_status();
}
