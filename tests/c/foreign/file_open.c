/* Built with MPICH's mpicc by tests/c/foreign_test.go: a program that calls
 * MPI_File_open, which gompi does not implement. Under gompirun
 * --mpich-binary the call must end the job naming the function (not run
 * MPICH's own, never initialised code). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d before MPI_File_open\n", rank);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_open(MPI_COMM_WORLD, "/dev/null", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    printf("rank %d after MPI_File_open\n", rank);
    MPI_Finalize();
    return 0;
}
