/* Built with MPICH's mpicc by tests/c/foreign_bigcount_test.go: large-count
 * (_c) calls from a binary compiled against MPICH's mpi.h, run on gompi
 * with gompirun --mpich-binary: MPI_Count and MPI_Aint arguments and
 * arrays cross the ABI as MPICH lays them out. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int fails;
#define CHECK(c, ...)                                      \
    do {                                                   \
        if (!(c)) {                                        \
            fails++;                                       \
            fprintf(stderr, "TEST-FAIL: " __VA_ARGS__);    \
            fputc('\n', stderr);                           \
        }                                                  \
    } while (0)

int main(int argc, char **argv)
{
    int r, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int b[3] = {0, 0, 0};
    if (r == 0) b[0] = 7, b[2] = 9;
    MPI_Bcast_c(b, 3, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(b[0] == 7 && b[2] == 9, "rank %d: Bcast_c %d %d", r, b[0], b[2]);
    int one = 1, sum = 0;
    MPI_Allreduce_c(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == n, "rank %d: Allreduce_c %d", r, sum);
    MPI_Count *cnt = malloc(sizeof(MPI_Count) * (size_t)n);
    MPI_Aint *dsp = malloc(sizeof(MPI_Aint) * (size_t)n);
    int *in = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) cnt[i] = 1, dsp[i] = i;
    MPI_Allgatherv_c(&r, 1, MPI_INT, in, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++) CHECK(in[i] == i, "rank %d: Allgatherv_c[%d] = %d", r, i, in[i]);
    MPI_Datatype v;
    MPI_Type_vector_c(2, 3, 5, MPI_INT, &v);
    MPI_Count sz = 0, lb = -1, ext = 0;
    MPI_Type_size_c(v, &sz);
    MPI_Type_get_extent_c(v, &lb, &ext);
    CHECK(sz == 24 && lb == 0 && ext == 32, "rank %d: vector_c size %ld extent %ld", r, (long)sz, (long)ext);
    MPI_Type_free(&v);
    printf("rank %d large-count calls done\n", r);
    free(cnt), free(dsp), free(in);
    MPI_Finalize();
    return fails != 0;
}
