//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* Cancelling a send that has not been matched (a synchronous send, and
 * standard sends of eager and rendezvous sizes, to a rank that does not
 * receive yet). MPI-3.1 section 3.8.4: after MPI_Cancel, MPI_Wait "is
 * guaranteed to return, irrespective of the activities of other processes",
 * and either the cancel succeeds (the message never arrives) or the send
 * completes (then it arrives), not both. The receiver does not receive until
 * told the outcome, so a synchronous send can only complete by being
 * cancelled. The test polls with MPI_Test for a bounded time instead of
 * hanging in MPI_Wait. (MPICH 4.0 and Open MPI 4.1 fail this: send cancel is
 * deprecated in MPI-4.0, but gompi implements it.) */
#include <mpi.h>
#include <string.h>

#include "check.h"

static int rank, size;

int main(int argc, char **argv) {
    static char big[1 << 20];
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    const int lens[] = {4, 100000, 1 << 20};
    for (int p = 1; p < size; p++) {
        for (int k = 0; k < 6; k++) {
            int len = lens[k % 3], sync = k < 3, outcome = -1;
            const char *call = sync ? "MPI_Issend" : "MPI_Isend";
            MPI_Status st;
            if (rank == 0) {
                MPI_Request r;
                memset(big, 7, (size_t)len);
                if (sync)
                    CHECK_MPI(MPI_Issend(big, len, MPI_BYTE, p, 80, MPI_COMM_WORLD, &r));
                else
                    CHECK_MPI(MPI_Isend(big, len, MPI_BYTE, p, 80, MPI_COMM_WORLD, &r));
                CHECK_MPI(MPI_Cancel(&r));
                int flag = 0;
                double t0 = MPI_Wtime();
                while (!flag && MPI_Wtime() - t0 < 30)
                    CHECK_MPI(MPI_Test(&r, &flag, &st));
                if (flag) {
                    outcome = -1;
                    CHECK_MPI(MPI_Test_cancelled(&st, &outcome));
                    CHECK(outcome == 1 || !sync, "an unmatched %s of %d bytes completed without being cancelled",
                          call, len);
                } else {
                    CHECK(0, "%s of %d bytes to a rank not receiving yet: not complete 30 s after MPI_Cancel (the "
                             "standard requires MPI_Wait to return locally after a cancel)",
                          call, len);
                    outcome = 0; /* let the receiver take it so the job can end */
                }
                CHECK_MPI(MPI_Send(&outcome, 1, MPI_INT, p, 81, MPI_COMM_WORLD));
                if (!flag)
                    CHECK_MPI(MPI_Wait(&r, &st));
                /* The send buffer is the user's again; the next message flows. */
                memset(big, 9, (size_t)len);
                CHECK_MPI(MPI_Send(big, len, MPI_BYTE, p, 82, MPI_COMM_WORLD));
            } else if (rank == p) {
                CHECK_MPI(MPI_Recv(&outcome, 1, MPI_INT, 0, 81, MPI_COMM_WORLD, &st));
                int flag = -1;
                CHECK_MPI(MPI_Iprobe(0, 80, MPI_COMM_WORLD, &flag, &st));
                if (outcome == 1) {
                    CHECK(!flag, "a cancelled %s (%d bytes) was still delivered", call, len);
                } else {
                    /* Not cancelled: it was sent before the outcome message. */
                    CHECK(flag || !sync, "a %s whose cancel failed (%d bytes) is not there", call, len);
                    memset(big, 0, (size_t)len);
                    CHECK_MPI(MPI_Recv(big, len, MPI_BYTE, 0, 80, MPI_COMM_WORLD, &st));
                    CHECK(big[0] == 7 && big[len - 1] == 7, "the %s that was not cancelled carried wrong data", call);
                }
                memset(big, 0, (size_t)len);
                CHECK_MPI(MPI_Recv(big, len, MPI_BYTE, 0, 82, MPI_COMM_WORLD, &st));
                int count = -1;
                MPI_Get_count(&st, MPI_BYTE, &count);
                CHECK(count == len && big[0] == 9 && big[len - 1] == 9,
                      "message after a cancelled %s: count %d, data %d..%d", call, count, big[0], big[len - 1]);
            }
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        }
    }
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
