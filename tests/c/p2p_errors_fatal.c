//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* gompi-expect: exit=nonzero stderr=~"MPI_Send" stderr=~"\b99\b" stderr=~"MPI_ERR_RANK|invalid rank" */
/* Under the default handler (MPI_ERRORS_ARE_FATAL) a send to rank 99 ends the
 * whole job with a non-zero status and a message naming the call and the
 * rank; the other ranks, blocked in a receive that never matches, are ended
 * too. Reaching the line after the send is a failure. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank, v = 1;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    check_rank = rank;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
        CHECK(0, "MPI_Send to rank 99 returned under MPI_ERRORS_ARE_FATAL");
    } else {
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(0, "a receive that cannot match completed");
    }
    MPI_Finalize();
    return 1;
}
