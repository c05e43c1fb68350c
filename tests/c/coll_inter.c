//go:build ignore

/* gompi-test: np=2,3,4,5 timeout=60 */
/* Collectives on an intercommunicator between the even and the odd ranks of
 * MPI_COMM_WORLD, in blocking, nonblocking and persistent form: barrier,
 * bcast/gather/gatherv/scatter/scatterv/reduce with MPI_ROOT and
 * MPI_PROC_NULL in the root's group, allgather, allgatherv, alltoall, allreduce
 * and reduce_scatter_block, which all move data between the groups; every
 * result is checked against the values the other group's ranks sent. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#define COLL(f, B, I, ...)                                                      \
    do {                                                                        \
        MPI_Request r_;                                                         \
        if ((f) == 0)                                                           \
            CHECK_MPI(MPI_##B(__VA_ARGS__));                                    \
        else if ((f) == 1) {                                                    \
            CHECK_MPI(MPI_##I(__VA_ARGS__, &r_));                               \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE));                        \
        } else {                                                                \
            CHECK_MPI(MPI_##B##_init(__VA_ARGS__, MPI_INFO_NULL, &r_));         \
            CHECK_MPI(MPI_Start(&r_));                                          \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE));                        \
            CHECK_MPI(MPI_Request_free(&r_));                                   \
        }                                                                       \
    } while (0)

#define N 4
static int wrank, wsize, color, lr, ls, rs;

/* world rank of remote rank j */
static int remote(int j) { return 2 * j + (1 - color); }
static int val(int w, int i) { return w * 100 + i + 1; }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    check_rank = wrank;
    color = wrank % 2;
    MPI_Comm local, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 77, &inter));
    MPI_Comm_rank(inter, &lr);
    MPI_Comm_size(inter, &ls);
    MPI_Comm_remote_size(inter, &rs);

    int sb[64 * N], rb[64 * N], cnt[64], dsp[64];
    for (int f = 0; f < 3; f++) {
        COLL(f, Barrier, Ibarrier, inter);

        /* rooted: root is group 0's last rank, then group 1's rank 0 */
        for (int rg = 0; rg < 2; rg++) {
            int rootlocal = rg == 0 ? ls - 1 : 0; /* meaningful in the root group */
            int rootremote = rg == 0 ? rs - 1 : 0;
            int amroot = color == rg && lr == rootlocal;
            int root = color == rg ? (amroot ? MPI_ROOT : MPI_PROC_NULL) : rootremote;
            int rootw = color == rg ? wrank : remote(rootremote);

            for (int i = 0; i < N; i++)
                rb[i] = amroot ? val(wrank, i) : -1;
            COLL(f, Bcast, Ibcast, rb, N, MPI_INT, root, inter);
            for (int i = 0; i < N; i++)
                if (color != rg)
                    CHECK(rb[i] == val(rootw, i), "bcast f=%d rg=%d [%d]=%d", f, rg, i, rb[i]);

            for (int i = 0; i < N; i++)
                sb[i] = val(wrank, i);
            memset(rb, 0xff, sizeof rb);
            COLL(f, Gather, Igather, sb, N, MPI_INT, rb, N, MPI_INT, root, inter);
            if (amroot)
                for (int j = 0; j < rs; j++)
                    for (int i = 0; i < N; i++)
                        CHECK(rb[j * N + i] == val(remote(j), i), "gather f=%d from %d", f, j);

            for (int j = 0; j < rs; j++)
                cnt[j] = j % 3, dsp[j] = (rs - 1 - j) * N;
            int mycnt = lr % 3;
            memset(rb, 0xff, sizeof rb);
            COLL(f, Gatherv, Igatherv, sb, mycnt, MPI_INT, rb, cnt, dsp, MPI_INT, root, inter);
            if (amroot)
                for (int j = 0; j < rs; j++)
                    for (int i = 0; i < cnt[j]; i++)
                        CHECK(rb[dsp[j] + i] == val(remote(j), i), "gatherv f=%d from %d", f, j);

            for (int j = 0; j < rs * N; j++)
                sb[j] = amroot ? val(remote(j / N), j % N) + 7 : 0;
            memset(rb, 0xff, sizeof rb);
            COLL(f, Scatter, Iscatter, sb, N, MPI_INT, rb, N, MPI_INT, root, inter);
            if (color != rg)
                for (int i = 0; i < N; i++)
                    CHECK(rb[i] == val(wrank, i) + 7, "scatter f=%d [%d]=%d", f, i, rb[i]);
            for (int j = 0; j < rs; j++)
                dsp[j] = j * N;
            COLL(f, Scatterv, Iscatterv, sb, cnt, dsp, MPI_INT, rb, mycnt, MPI_INT, root, inter);
            if (color != rg)
                for (int i = 0; i < mycnt; i++)
                    CHECK(rb[i] == val(wrank, i) + 7, "scatterv f=%d [%d]=%d", f, i, rb[i]);

            for (int i = 0; i < N; i++)
                sb[i] = val(wrank, i);
            memset(rb, 0xff, sizeof rb);
            COLL(f, Reduce, Ireduce, sb, rb, N, MPI_INT, MPI_SUM, root, inter);
            if (amroot)
                for (int i = 0; i < N; i++) {
                    int want = 0;
                    for (int j = 0; j < rs; j++)
                        want += val(remote(j), i);
                    CHECK(rb[i] == want, "reduce f=%d [%d]=%d want %d", f, i, rb[i], want);
                }
        }

        for (int i = 0; i < N; i++)
            sb[i] = val(wrank, i);
        memset(rb, 0xff, sizeof rb);
        COLL(f, Allgather, Iallgather, sb, N, MPI_INT, rb, N, MPI_INT, inter);
        for (int j = 0; j < rs; j++)
            for (int i = 0; i < N; i++)
                CHECK(rb[j * N + i] == val(remote(j), i), "allgather f=%d from %d", f, j);
        for (int j = 0; j < rs; j++)
            cnt[j] = (j + 1) % 3, dsp[j] = (rs - 1 - j) * N;
        memset(rb, 0xff, sizeof rb);
        COLL(f, Allgatherv, Iallgatherv, sb, (lr + 1) % 3, MPI_INT, rb, cnt, dsp, MPI_INT, inter);
        for (int j = 0; j < rs; j++)
            for (int i = 0; i < cnt[j]; i++)
                CHECK(rb[dsp[j] + i] == val(remote(j), i), "allgatherv f=%d from %d", f, j);

        for (int j = 0; j < rs; j++)
            for (int i = 0; i < N; i++)
                sb[j * N + i] = wrank * 1000 + remote(j) * 10 + i;
        memset(rb, 0xff, sizeof rb);
        COLL(f, Alltoall, Ialltoall, sb, N, MPI_INT, rb, N, MPI_INT, inter);
        for (int j = 0; j < rs; j++)
            for (int i = 0; i < N; i++)
                CHECK(rb[j * N + i] == remote(j) * 1000 + wrank * 10 + i, "alltoall f=%d from %d", f, j);

        for (int i = 0; i < N; i++)
            sb[i] = val(wrank, i);
        COLL(f, Allreduce, Iallreduce, sb, rb, N, MPI_INT, MPI_SUM, inter);
        for (int i = 0; i < N; i++) {
            int want = 0;
            for (int j = 0; j < rs; j++)
                want += val(remote(j), i);
            CHECK(rb[i] == want, "allreduce f=%d [%d]=%d want %d", f, i, rb[i], want);
        }

        /* each group's vector has ls*rcount = ls*rs elements */
        for (int i = 0; i < ls * rs; i++)
            sb[i] = val(wrank, i);
        memset(rb, 0xff, sizeof rb);
        COLL(f, Reduce_scatter_block, Ireduce_scatter_block, sb, rb, rs, MPI_INT, MPI_SUM, inter);
        for (int i = 0; i < rs; i++) {
            int want = 0;
            for (int j = 0; j < rs; j++)
                want += val(remote(j), lr * rs + i);
            CHECK(rb[i] == want, "reduce_scatter_block f=%d [%d]=%d want %d", f, i, rb[i], want);
        }
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return check_status();
}
