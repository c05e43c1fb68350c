/* An ordinary MPI program for the profiling test: it calls MPI_Comm_rank
 * exactly five times and knows nothing of any tool. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank = -1, r = -1, i, bad = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 3; i++) {
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
        bad |= r != rank;
    }
    MPI_Comm_rank(MPI_COMM_SELF, &r);
    bad |= r != 0;
    if (bad)
        fprintf(stderr, "TEST-FAIL: rank_calls: MPI_Comm_rank gave inconsistent ranks\n");
    printf("rank_calls: rank %d done\n", rank);
    fflush(stdout);
    MPI_Finalize();
    return bad;
}
