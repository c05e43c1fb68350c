//go:build ignore

/* gompi-test: np=2,3 timeout=30 */
/* gompi-expect: exit=nonzero stderr=~"gompirun: rank 1 \(pid [0-9]+\)" maxtime=10 */
/* gompi-expect: stderr=~"(?i)SIGKILL|signal 9|\bkilled\b" */
/* Rank 1 dies by SIGKILL after MPI_Init while the others sleep outside MPI:
 * the launcher must end the job, name the rank and the signal, and leave no
 * process or /dev/shm file behind (the harness checks both after every run). */
#include <mpi.h>
#include <signal.h>
#include <time.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank = -1, i;
    struct timespec nap = {0, 100 * 1000 * 1000};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;
    if (rank == 1)
        raise(SIGKILL);
    for (i = 0; i < 200; i++)
        nanosleep(&nap, NULL);
    CHECK(0, "still running 20 s after rank 1 was killed");
    return 1;
}
