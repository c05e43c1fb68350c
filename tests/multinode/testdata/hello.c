/* Each rank prints where it runs; rank 0 checks MPI_Allreduce and a ring. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, len;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    printf("hello rank %d of %d on %s\n", rank, size, name);
    fflush(stdout);
    if (argc > 1 && strcmp(argv[1], "hello") == 0) {
        MPI_Finalize();
        return 0;
    }
    /* ring: each rank passes a token to the next one; it comes back with the sum of ranks */
    int token = 0, sum = 0;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (size > 1) {
        if (rank == 0) {
            MPI_Send(&token, 1, MPI_INT, next, 7, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token += rank;
            MPI_Send(&token, 1, MPI_INT, next, 7, MPI_COMM_WORLD);
        }
    }
    /* allreduce of a vector large enough to take more than one fragment */
    int n = 1 << 16;
    double *v = malloc(n * sizeof *v), *r = malloc(n * sizeof *r);
    for (int i = 0; i < n; i++) v[i] = rank + i;
    MPI_Allreduce(v, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (r[i] != (double)size * (size - 1) / 2 + (double)size * i) bad++;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (size > 1 && token != size * (size - 1) / 2) printf("TEST-FAIL: ring token %d\n", token);
        if (bad) printf("TEST-FAIL: allreduce: %d wrong\n", bad);
        if (sum != size * (size - 1) / 2) printf("TEST-FAIL: allreduce sum %d\n", sum);
        printf("ring and allreduce done on %d ranks\n", size);
    }
    free(v);
    free(r);
    MPI_Finalize();
    return 0;
}
