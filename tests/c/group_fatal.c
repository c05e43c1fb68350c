//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* gompi-expect: exit=nonzero stderr=~"MPI_Group_incl" stderr=~"ranks\[1\] = 7" stderr=~"MPI_ERR_RANK" */
/* Under the default handler a bad rank in MPI_Group_incl ends the job with a
 * message naming the call, the argument and the class. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Group world, g;
    int ranks[] = {0, 7};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 2, ranks, &g);
    CHECK(0, "MPI_Group_incl with rank 7 returned under MPI_ERRORS_ARE_FATAL");
    MPI_Finalize();
    return 1;
}
