//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* gompi-expect: exit=nonzero stderr=~"MPI_Waitany: index is NULL" stderr=~"MPI_ERR_ARG" stderr!~"panic|goroutine" */
/* A NULL pointer argument under the default MPI_ERRORS_ARE_FATAL ends the
 * job with a message naming the call and the argument, not a Go panic. */
#include <mpi.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wnonnull"

int main(int argc, char **argv) {
    MPI_Request reqs[1] = {MPI_REQUEST_NULL};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Waitany(1, reqs, NULL, MPI_STATUS_IGNORE);
    CHECK(0, "MPI_Waitany with a NULL index returned under MPI_ERRORS_ARE_FATAL");
    MPI_Finalize();
    return 1;
}
