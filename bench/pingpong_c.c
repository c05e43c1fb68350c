/* 1-byte ping-pong in C: the median over rounds of the one-way time, ns
 * (the reference for bench/pingpong_f.f90). */
#include <mpi.h>
#include <stdio.h>

enum { WARM = 20000, ITERS = 100000, ROUNDS = 7 };

int main(int argc, char **argv)
{
    int rank;
    char buf = 0;
    double t[ROUNDS];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int r = -1; r < ROUNDS; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        int n = r < 0 ? WARM : ITERS;
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                MPI_Send(&buf, 1, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(&buf, 1, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&buf, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&buf, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        if (r >= 0) t[r] = (MPI_Wtime() - t0) / n / 2 * 1e9;
    }
    for (int i = 0; i < ROUNDS; i++) /* sort for the median */
        for (int j = i + 1; j < ROUNDS; j++)
            if (t[j] < t[i]) { double x = t[i]; t[i] = t[j]; t[j] = x; }
    if (rank == 0) printf("c one-way ns %8.1f\n", t[ROUNDS / 2]);
    /* The call's own cost, without a peer: sends to MPI_PROC_NULL. */
    double t0 = MPI_Wtime();
    for (int i = 0; i < 10 * ITERS; i++)
        MPI_Send(&buf, 1, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("c procnull ns %8.1f\n", (MPI_Wtime() - t0) / (10 * ITERS) * 1e9);
    MPI_Finalize();
    return 0;
}
