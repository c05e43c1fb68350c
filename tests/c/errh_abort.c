//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* gompi-expect: exit=nonzero stderr=~"MPI_Send" stderr=~"MPI_ERR_RANK" */
/* MPI_ERRORS_ABORT: an error on the communicator ends the job with a message
 * naming the call and the class. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    int v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT));
    MPI_Barrier(MPI_COMM_WORLD);
    if (check_rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
        CHECK(0, "a bad send returned under MPI_ERRORS_ABORT");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 1;
}
