//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* Shared-memory collectives on many communicators at once: 24 live
 * duplicates and splits (more than the 16 shared-memory areas, so some fall
 * back to message-based algorithms), with barriers, broadcasts, reductions
 * allgathers and reduce-scatters interleaved across them in a fixed order, results checked;
 * then freed in a scrambled order and made again, so areas are drained and
 * reused. */
#include <mpi.h>

#include "check.h"

#define NCOMM 24

static int rank, size;

static void exercise(MPI_Comm c, int salt) {
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    long v = salt * 100 + r, sum = -1, max = -1;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, c));
    CHECK(sum == (long)salt * 100 * n + (long)n * (n - 1) / 2, "salt %d: allreduce %ld", salt, sum);
    CHECK_MPI(MPI_Reduce(&v, &max, 1, MPI_LONG, MPI_MAX, n - 1, c));
    if (r == n - 1)
        CHECK(max == salt * 100 + n - 1, "salt %d: reduce %ld", salt, max);
    int b[3] = {r, salt, r};
    CHECK_MPI(MPI_Bcast(b, 3, MPI_INT, salt % n, c));
    CHECK(b[0] == salt % n && b[1] == salt && b[2] == salt % n, "salt %d: bcast %d %d", salt, b[0], b[1]);
    int all[16];
    int mine = salt * 10 + r;
    CHECK_MPI(MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, c));
    for (int i = 0; i < n; i++)
        CHECK(all[i] == salt * 10 + i, "salt %d: allgather[%d] = %d", salt, i, all[i]);
    /* element i of rank q's vector is q + i; rank r keeps elements 2r, 2r+1 */
    int vec[32], got[2] = {-1, -1};
    for (int i = 0; i < 2 * n; i++)
        vec[i] = r + i;
    CHECK_MPI(MPI_Reduce_scatter_block(vec, got, 2, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < 2; i++)
        CHECK(got[i] == n * (n - 1) / 2 + n * (2 * r + i), "salt %d: reduce_scatter_block[%d] = %d", salt, i, got[i]);
    CHECK_MPI(MPI_Barrier(c));
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    MPI_Comm cs[NCOMM];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < NCOMM; i++) {
            if (i % 3 == 2)
                CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &cs[i]));
            else
                CHECK_MPI(MPI_Comm_dup(i ? cs[i - 1] : MPI_COMM_WORLD, &cs[i]));
        }
        for (int k = 0; k < 5; k++)
            for (int i = 0; i < NCOMM; i++)
                exercise(cs[(i * 7 + k) % NCOMM], round * 1000 + k * 50 + i);
        exercise(MPI_COMM_WORLD, 9);
        for (int i = 0; i < NCOMM; i++)
            CHECK_MPI(MPI_Comm_free(&cs[(i * 5 + round) % NCOMM]));
    }
    MPI_Finalize();
    return check_status();
}
