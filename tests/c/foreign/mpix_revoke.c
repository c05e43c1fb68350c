/* Built with MPICH's mpicc by tests/c/foreign_test.go: a program that calls
 * MPIX_Comm_revoke (an MPICH extension, not part of MPI 4.1), which gompi
 * does not implement. Under gompirun --mpich-binary the call must end the
 * job naming the function (not run MPICH's own, never initialised code). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d before MPIX_Comm_revoke\n", rank);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    MPIX_Comm_revoke(MPI_COMM_WORLD);
    printf("rank %d after MPIX_Comm_revoke\n", rank);
    MPI_Finalize();
    return 0;
}
