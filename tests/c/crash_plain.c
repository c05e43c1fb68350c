//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* gompi-expect: exit=nonzero stderr=~"rank {last} \(pid [0-9]+\) killed by signal 11 \(SIGSEGV" stderr!~"signal 3" */
/* gompi-expect: stderr=~"gompi: rank {last} \(pid [0-9]+\): SIGSEGV .* in C code; backtrace:\n  \S" maxtime=30 */
/* The last rank dereferences NULL in plain C code after MPI_Init (the Go
 * runtime's handler is installed): the launcher must name SIGSEGV. */
#include <mpi.h>
#include <stddef.h>

#include "check.h"

static volatile int *nowhere;

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    if (rank == size - 1)
        rank = *nowhere;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(0, "rank %d survived the NULL dereference", rank);
    MPI_Finalize();
    return 0;
}
