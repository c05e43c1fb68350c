//go:build ignore

/* gompi-test: np=1,2,3,4,5 timeout=120 */
/* Persistent collectives started 1,000 times: an Allreduce, a Bcast with a
 * rotating root's data, an Alltoall, an Allgather and a Barrier made once with
 * *_init, then started each round (alone with MPI_Start, together with
 * MPI_Startall) with inputs that change every round, so each start must read
 * its buffers anew; every result is checked. Completed persistent requests
 * stay valid and inactive (Wait on them returns at once). */
#include <mpi.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wstringop-overflow"

#define ROUNDS 1000
#define N 7

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;

    int ain[N], aout[N], bbuf[N], ta[64 * 2], tr[64 * 2], gin[2], gout[64 * 2];
    MPI_Request req[5];
    int root = size - 1;
    CHECK_MPI(MPI_Allreduce_init(ain, aout, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
    CHECK_MPI(MPI_Bcast_init(bbuf, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
    CHECK_MPI(MPI_Alltoall_init(ta, 2, MPI_INT, tr, 2, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]));
    CHECK_MPI(MPI_Allgather_init(gin, 2, MPI_INT, gout, 2, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req[3]));
    CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req[4]));

    /* inactive persistent requests complete at once */
    CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    CHECK(req[0] != MPI_REQUEST_NULL, "inactive persistent request was freed by Wait");

    for (int it = 0; it < ROUNDS; it++) {
        for (int i = 0; i < N; i++) {
            ain[i] = rank * 100 + i + it;
            bbuf[i] = rank == root ? it * 3 + i : -1;
        }
        for (int q = 0; q < size; q++) {
            ta[2 * q] = rank * 1000 + q + it;
            ta[2 * q + 1] = -it;
        }
        gin[0] = rank + it;
        gin[1] = it;
        if (it % 2 == 0) {
            CHECK_MPI(MPI_Startall(5, req));
            CHECK_MPI(MPI_Waitall(5, req, MPI_STATUSES_IGNORE));
        } else { /* one at a time, completed in reverse order */
            for (int k = 0; k < 5; k++)
                CHECK_MPI(MPI_Start(&req[k]));
            for (int k = 4; k >= 0; k--)
                CHECK_MPI(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
        }
        for (int i = 0; i < N; i++) {
            int want = 100 * size * (size - 1) / 2 + size * (i + it);
            CHECK(aout[i] == want, "round %d: allreduce[%d]=%d want %d", it, i, aout[i], want);
            CHECK(bbuf[i] == it * 3 + i, "round %d: bcast[%d]=%d", it, i, bbuf[i]);
        }
        for (int q = 0; q < size; q++) {
            CHECK(tr[2 * q] == q * 1000 + rank + it && tr[2 * q + 1] == -it, "round %d: alltoall from %d", it, q);
            CHECK(gout[2 * q] == q + it && gout[2 * q + 1] == it, "round %d: allgather block %d", it, q);
        }
        if (check_failures)
            break;
    }
    for (int k = 0; k < 5; k++) {
        CHECK_MPI(MPI_Request_free(&req[k]));
        CHECK(req[k] == MPI_REQUEST_NULL, "Request_free left the handle");
    }
    MPI_Finalize();
    return check_status();
}
