/* A minimal profiling tool: it interposes MPI_Comm_rank (counting calls and
 * forwarding to PMPI_Comm_rank) and MPI_Finalize (printing the count), to
 * show that an MPI_ symbol from a tool library wins over gompi's while the
 * PMPI_ entry points still reach gompi. Built by tool_test.go, used both
 * linked (-ltool -lgompi) and through LD_PRELOAD. */
#include <mpi.h>
#include <stdio.h>

static int rank_calls;

int MPI_Comm_rank(MPI_Comm comm, int *rank) {
    rank_calls++;
    return PMPI_Comm_rank(comm, rank);
}

int MPI_Finalize(void) {
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("tool: rank %d intercepted %d MPI_Comm_rank calls\n", rank, rank_calls);
    fflush(stdout);
    return PMPI_Finalize();
}
