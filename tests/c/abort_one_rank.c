//go:build ignore

/* gompi-test: np=1,2,3 timeout=30 */
/* gompi-expect: exit=7 stderr=~"rank {last}\b" stderr=~"MPI_Abort" maxtime=10 */
/* The last rank calls MPI_Abort(MPI_COMM_WORLD, 7) while the others sleep
 * outside MPI: the launcher must end the whole job promptly with the abort
 * code and say which rank aborted. */
#include <mpi.h>
#include <time.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank = -1, size = -1, i;
    struct timespec nap = {0, 100 * 1000 * 1000};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    if (rank == size - 1)
        MPI_Abort(MPI_COMM_WORLD, 7);
    for (i = 0; i < 200; i++)
        nanosleep(&nap, NULL);
    CHECK(0, "still running 20 s after rank %d called MPI_Abort", size - 1);
    return 1;
}
