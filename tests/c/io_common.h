/* Shared helpers of the io_* tests: a per-run file name under $TMPDIR that
 * every rank agrees on (rank 0's pid), so concurrent runs never collide. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void io_path(char *out, size_t n, const char *tag)
{
    int rank, pid = (int)getpid();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    const char *dir = getenv("TMPDIR");
    if (dir == NULL || *dir == 0)
        dir = "/tmp";
    snprintf(out, n, "%s/gompi-io-%s-%d", dir, tag, pid);
}
