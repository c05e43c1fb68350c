//go:build ignore

/* gompi-test: np=1,2,3 timeout=30 */
/* gompi-expect: exit=nonzero stderr=~"rank 0\b" stderr=~"(?i)without (calling )?MPI_Finalize" */
/* gompi-expect: maxtime=10 */
/* Rank 0 returns 0 from main without MPI_Finalize; the others finalize
 * normally. The launcher must treat that as a failure of the job and say so. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;
    if (rank == 0)
        return 0;
    MPI_Finalize();
    return 0;
}
