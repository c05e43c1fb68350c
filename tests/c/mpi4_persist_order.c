//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=90 */
/* Regression (issue 23): persistent collectives are matched by the order of
 * their *_init calls, not by the order of MPI_Start, so ranks that start
 * several of them in different orders get correct results (before: one
 * rank got MPI_ERR_TRUNCATE and another hung). */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int r = check_rank, n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    int bbuf[4], sum_in, sum_out, gin[2], *gout = malloc(sizeof(int) * 2 * n);
    MPI_Request rq[4];
    CHECK_MPI(MPI_Bcast_init(bbuf, 4, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]));
    CHECK_MPI(MPI_Allreduce_init(&sum_in, &sum_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]));
    CHECK_MPI(MPI_Allgather_init(gin, 2, MPI_INT, gout, 2, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[2]));
    CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &rq[3]));
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < 4; i++)
            bbuf[i] = r == 0 ? 100 * round + i : -1;
        sum_in = r + round;
        gin[0] = r;
        gin[1] = round;
        /* Each rank starts them in its own order. */
        int order[4] = {0, 1, 2, 3};
        for (int k = 0; k < 4; k++) {
            int j = (k + r + round) % 4;
            int tmp = order[k];
            order[k] = order[j];
            order[j] = tmp;
        }
        for (int k = 0; k < 4; k++)
            CHECK_MPI(MPI_Start(&rq[order[k]]));
        CHECK_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 4; i++)
            CHECK(bbuf[i] == 100 * round + i, "round %d bcast[%d] = %d", round, i, bbuf[i]);
        CHECK(sum_out == n * (n - 1) / 2 + n * round, "round %d allreduce %d", round, sum_out);
        for (int i = 0; i < n; i++)
            CHECK(gout[2 * i] == i && gout[2 * i + 1] == round, "round %d allgather[%d] = %d,%d", round, i, gout[2 * i],
                  gout[2 * i + 1]);
    }
    for (int i = 0; i < 4; i++)
        MPI_Request_free(&rq[i]);
    free(gout);
    MPI_Finalize();
    return check_status();
}
