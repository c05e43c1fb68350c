/* Each rank says where it runs. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, len;
    char name[MPI_MAX_PROCESSOR_NAME], version[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    MPI_Get_library_version(version, &len);
    for (int r = 0; r < size; r++) {
        if (r == rank) {
            if (rank == 0) printf("%s\n", version);
            printf("rank %d of %d on %s, cpu %d\n", rank, size, name, sched_getcpu());
            fflush(stdout);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
