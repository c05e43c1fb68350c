//go:build ignore

/* gompi-test: np=1,2 timeout=30 */
/* gompi-expect: exit=nonzero stderr=~"MPI_Comm_size" */
/* gompi-expect: stderr=~"(?i)finali[sz]ed|after MPI_Finalize|not initiali[sz]ed" */
/* MPI_Comm_size after MPI_Finalize is erroneous and, with the default
 * MPI_ERRORS_ARE_FATAL, must end the program with a message naming the call. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    int flag = -1, size = -1, rc;

    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &check_rank));
    CHECK_MPI(MPI_Finalize());
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag == 1, "MPI_Finalized after MPI_Finalize gave %d", flag);
    fflush(stderr);

    rc = MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(0, "the erroneous call returned %d (size %d) instead of ending the program", rc, size);
    return 1;
}
