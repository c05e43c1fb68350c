/* Built with MPICH's mpicc by tests/c/foreign_test.go: a program that calls
 * MPI_Bcast_c (an MPI-4 large-count call), which gompi does not implement
 * yet. Under gompirun --mpich-binary the call must end the job naming the
 * function (not run MPICH's own, never initialised code). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d before MPI_Bcast_c\n", rank);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast_c(&v, (MPI_Count)1, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d after MPI_Bcast_c\n", rank);
    MPI_Finalize();
    return 0;
}
