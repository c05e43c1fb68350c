//go:build ignore

/* gompi-test: np=1,2,3,4,8 timeout=120 */
/* Many nonblocking collectives outstanding at once on MPI_COMM_WORLD, a
 * duplicate of it and MPI_COMM_SELF (Iallreduce, Ibcast, Iallgather, Ialltoall, Ireduce, Iscan,
 * Ibarrier; large and small), completed in a scrambled order through
 * Testany, Waitsome and Waitall; a wildcard receive posted before them must
 * match only the point-to-point message sent after them, never collective
 * traffic. Identical calls in flight together (three MPI_Ibarrier at once,
 * repeated) each get their own run. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wstringop-overflow"

#define K 40     /* rounds of collectives */
#define PER 9    /* collectives per round */
#define SMALL 5
#define LARGE 30000

static int rank, size;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;

    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int p2p = -1;
    MPI_Request wild;
    CHECK_MPI(MPI_Irecv(&p2p, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &wild));

    for (int it = 0; it < 100; it++) {
        MPI_Request b3[3];
        for (int j = 0; j < 3; j++)
            CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &b3[j]));
        CHECK_MPI(MPI_Waitall(3, b3, MPI_STATUSES_IGNORE));
    }

    MPI_Request req[K * PER];
    int *ar_in = malloc(K * LARGE * sizeof(int)), *ar_out = malloc(K * LARGE * sizeof(int));
    int *bc = malloc(K * SMALL * sizeof(int));
    int *ag = malloc((size_t)K * SMALL * size * sizeof(int)), *agin = malloc(K * SMALL * sizeof(int));
    int *ta = malloc((size_t)K * size * sizeof(int)), *tr = malloc((size_t)K * size * sizeof(int));
    int *rd = malloc(K * SMALL * sizeof(int)), *sc = malloc(K * sizeof(int)), *scin = malloc(K * sizeof(int));
    int *self_in = malloc(K * sizeof(int)), *self_out = malloc(K * sizeof(int));
    int *dup_out = malloc(K * sizeof(int));
    int nreq = 0;
    for (int k = 0; k < K; k++) {
        int n = k % 4 == 0 ? LARGE : SMALL;
        int *in = ar_in + k * LARGE, *out = ar_out + k * LARGE;
        for (int i = 0; i < n; i++)
            in[i] = rank + i + k;
        CHECK_MPI(MPI_Iallreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[nreq++]));
        int root = k % size;
        for (int i = 0; i < SMALL; i++)
            bc[k * SMALL + i] = rank == root ? k * 10 + i : -1;
        CHECK_MPI(MPI_Ibcast(bc + k * SMALL, SMALL, MPI_INT, root, MPI_COMM_WORLD, &req[nreq++]));
        for (int i = 0; i < SMALL; i++)
            agin[k * SMALL + i] = rank * 100 + k + i;
        CHECK_MPI(MPI_Iallgather(agin + k * SMALL, SMALL, MPI_INT, ag + (size_t)k * SMALL * size, SMALL, MPI_INT,
                                 MPI_COMM_WORLD, &req[nreq++]));
        for (int q = 0; q < size; q++)
            ta[k * size + q] = rank * 1000 + q * 10 + k;
        CHECK_MPI(MPI_Ialltoall(ta + k * size, 1, MPI_INT, tr + k * size, 1, MPI_INT, MPI_COMM_WORLD, &req[nreq++]));
        CHECK_MPI(MPI_Ireduce(in, rd + k * SMALL, SMALL, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD, &req[nreq++]));
        scin[k] = rank + k;
        CHECK_MPI(MPI_Iscan(scin + k, sc + k, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[nreq++]));
        CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req[nreq++]));
        self_in[k] = k;
        CHECK_MPI(MPI_Iallreduce(self_in + k, self_out + k, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &req[nreq++]));
        CHECK_MPI(MPI_Iallreduce(self_in + k, dup_out + k, 1, MPI_INT, MPI_MAX, dup, &req[nreq++]));
    }

    /* complete in a scrambled order: Testany on a shuffled view, then Waitsome, then Waitall */
    unsigned seed = 12345u + rank;
    MPI_Request view[K * PER];
    int map[K * PER];
    for (int i = 0; i < nreq; i++)
        map[i] = i;
    for (int i = nreq - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 8) % (unsigned)(i + 1)), t = map[i];
        map[i] = map[j];
        map[j] = t;
    }
    for (int i = 0; i < nreq; i++)
        view[i] = req[map[i]];
    int done = 0;
    for (int spins = 0; done < nreq / 3 && spins < 10000000; spins++) {
        int idx, flag;
        CHECK_MPI(MPI_Testany(nreq, view, &idx, &flag, MPI_STATUS_IGNORE));
        if (flag && idx != MPI_UNDEFINED)
            done++;
    }
    int outc, idxs[K * PER];
    CHECK_MPI(MPI_Waitsome(nreq, view, &outc, idxs, MPI_STATUSES_IGNORE));
    CHECK(outc >= 1, "Waitsome completed nothing");
    CHECK_MPI(MPI_Waitall(nreq, view, MPI_STATUSES_IGNORE));
    for (int i = 0; i < nreq; i++)
        CHECK(view[i] == MPI_REQUEST_NULL, "request %d not freed", i);

    for (int k = 0; k < K; k++) {
        int n = k % 4 == 0 ? LARGE : SMALL, root = k % size;
        for (int i = 0; i < n; i++)
            if (ar_out[k * LARGE + i] != size * (size - 1) / 2 + size * (i + k)) {
                CHECK(0, "iallreduce %d [%d]=%d", k, i, ar_out[k * LARGE + i]);
                break;
            }
        for (int i = 0; i < SMALL; i++)
            CHECK(bc[k * SMALL + i] == k * 10 + i, "ibcast %d [%d]", k, i);
        for (int q = 0; q < size; q++)
            for (int i = 0; i < SMALL; i++)
                CHECK(ag[(size_t)k * SMALL * size + q * SMALL + i] == q * 100 + k + i, "iallgather %d", k);
        for (int q = 0; q < size; q++)
            CHECK(tr[k * size + q] == q * 1000 + rank * 10 + k, "ialltoall %d from %d", k, q);
        if (rank == root)
            for (int i = 0; i < SMALL; i++)
                CHECK(rd[k * SMALL + i] == size - 1 + i + k, "ireduce %d [%d]=%d", k, i, rd[k * SMALL + i]);
        CHECK(sc[k] == rank * (rank + 1) / 2 + (rank + 1) * k, "iscan %d", k);
        CHECK(self_out[k] == k, "self iallreduce %d", k);
        CHECK(dup_out[k] == k, "dup iallreduce %d", k);
    }

    /* the wildcard receive sees only the point-to-point message */
    int flag = 0;
    CHECK_MPI(MPI_Test(&wild, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "wildcard receive matched collective traffic");
    int v = 4242 + rank;
    MPI_Status st;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, rank, 9, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&wild, &st));
    CHECK(p2p == 4242 + rank && st.MPI_TAG == 9 && st.MPI_SOURCE == rank, "wildcard got %d tag %d", p2p, st.MPI_TAG);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return check_status();
}
