//go:build ignore

/* gompi-test: np=1,2 timeout=30 */
/* gompi-expect: exit=nonzero stderr=~"MPI_Comm_rank" */
/* gompi-expect: stderr=~"(?i)not (yet )?(been )?initiali[sz]ed|before MPI_Init" */
/* MPI_Initialized, MPI_Finalized and MPI_Get_version work before MPI_Init;
 * MPI_Comm_rank before MPI_Init is erroneous and, with the default
 * MPI_ERRORS_ARE_FATAL, must end the program with a message naming the call. */
#include <mpi.h>

#include "check.h"

int main(void) {
    int flag = -1, version = -1, subversion = -1, rank = -1, rc;

    CHECK_MPI(MPI_Initialized(&flag));
    CHECK(flag == 0, "MPI_Initialized before MPI_Init gave %d", flag);
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK(flag == 0, "MPI_Finalized before MPI_Init gave %d", flag);
    CHECK_MPI(MPI_Get_version(&version, &subversion));
    CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION && version == 4, "MPI_Get_version before MPI_Init gave %d.%d",
          version, subversion);
    fflush(stderr);

    rc = MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK(0, "the erroneous call returned %d (rank %d) instead of ending the program", rc, rank);
    return 1;
}
