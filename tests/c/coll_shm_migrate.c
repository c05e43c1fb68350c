//go:build ignore

/* gompi-test: np=2,4,5 timeout=120 */
/* Oversubscribed, a shared-memory collective's wait spins instead of
 * yielding while every rank missing was last seen on another CPU. Here the
 * ranks keep moving themselves between CPUs (each rank its own schedule), so
 * those hints go stale all the time, and for a while every rank sits on the
 * first CPU, where each wait must give the core away: barriers, broadcasts,
 * reductions, allreduces and alltoalls must still complete, with the right
 * results. */
#define _GNU_SOURCE
#include <sched.h>
#include <mpi.h>

#include "check.h"

static int rank, size, ncpu, cpus[256];

/* move_to pins this process to the k-th CPU it was allowed at start. */
static void move_to(int k) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpus[k % ncpu], &s);
    CHECK(sched_setaffinity(0, sizeof s, &s) == 0, "sched_setaffinity");
}

static void round_of_collectives(int i) {
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    long v = i + rank, sum = -1;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == (long)i * size + (long)size * (size - 1) / 2, "iteration %d: allreduce %ld", i, sum);
    int root = i % size, b = rank == root ? i : -1;
    CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, root, MPI_COMM_WORLD));
    CHECK(b == i, "iteration %d: bcast %d", i, b);
    long m = -1;
    CHECK_MPI(MPI_Reduce(&v, &m, 1, MPI_LONG, MPI_MAX, root, MPI_COMM_WORLD));
    if (rank == root)
        CHECK(m == i + size - 1, "iteration %d: reduce %ld", i, m);
    int out[8], in[8];
    for (int q = 0; q < size; q++)
        out[q] = i * 100 + rank * 10 + q;
    CHECK_MPI(MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD));
    for (int q = 0; q < size; q++)
        CHECK(in[q] == i * 100 + q * 10 + rank, "iteration %d: alltoall from %d: %d", i, q, in[q]);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    CHECK(size <= 8, "at most 8 ranks");
    cpu_set_t start;
    CHECK(sched_getaffinity(0, sizeof start, &start) == 0, "sched_getaffinity");
    for (int c = 0; c < CPU_SETSIZE && ncpu < 256; c++)
        if (CPU_ISSET(c, &start))
            cpus[ncpu++] = c;

    /* Each rank moves on its own period, so moves fall inside other ranks' waits. */
    int period = 7 + 3 * rank;
    for (int i = 0; i < 3000; i++) {
        if (i % period == 0)
            move_to(rank + i / period);
        round_of_collectives(i);
    }
    /* Everyone on one CPU: every wait has a neighbour behind it at times. */
    move_to(0);
    for (int i = 3000; i < 4000; i++)
        round_of_collectives(i);
    CHECK(sched_setaffinity(0, sizeof start, &start) == 0, "sched_setaffinity");
    for (int i = 4000; i < 5000; i++)
        round_of_collectives(i);
    MPI_Finalize();
    return check_status();
}
