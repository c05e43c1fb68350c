/* Collective benchmark: barrier, bcast, reduce, allreduce, allgather,
 * alltoall and reduce_scatter (block) for message sizes 1 B to 1 MiB (4 B up
 * for the reductions, which use MPI_FLOAT with MPI_SUM). For each size the
 * iteration count is calibrated to about TARGET seconds, the loop is timed
 * REPEATS times and the fastest repeat is kept (the machines these runs share
 * are busy: the minimum estimates the unloaded cost, for every MPI alike);
 * the reported time is the slowest rank's (MPI_Reduce with MPI_MAX). Sizes are per rank: the message of bcast
 * and reduce, each rank's block for allgather and reduce_scatter, each pair's
 * block for alltoall. Built unchanged against gompi, Open MPI and MPICH.
 * Output lines: "<collective> <bytes> <usec per call>".
 * Arguments: "quick" shortens every measurement; a list of collective names
 * restricts the run. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXSIZE (1 << 20)
#define REPEATS 5

static int rank, size;
static double target = 0.05;
static char *sbuf, *rbuf;

enum { BARRIER, BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, REDUCE_SCATTER, NCOLL };
static const char *names[NCOLL] = {"barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall",
                                   "reduce_scatter"};

static void one(int c, int bytes) {
    int n = bytes / 4;
    switch (c) {
    case BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    case BCAST:
        MPI_Bcast(sbuf, bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
        break;
    case REDUCE:
        MPI_Reduce(sbuf, rbuf, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    case ALLREDUCE:
        MPI_Allreduce(sbuf, rbuf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLGATHER:
        MPI_Allgather(sbuf, bytes, MPI_CHAR, rbuf, bytes, MPI_CHAR, MPI_COMM_WORLD);
        break;
    case ALLTOALL:
        MPI_Alltoall(sbuf, bytes, MPI_CHAR, rbuf, bytes, MPI_CHAR, MPI_COMM_WORLD);
        break;
    case REDUCE_SCATTER:
        MPI_Reduce_scatter_block(sbuf, rbuf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    }
}

static double timed(int c, int bytes, int iters) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        one(c, bytes);
    return MPI_Wtime() - t0;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double measure(int c, int bytes) {
    /* warm up, then calibrate on rank 0's clock */
    int iters = 4;
    double t = timed(c, bytes, iters);
    while (1) {
        MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (t > target / 10 || iters >= (1 << 22))
            break;
        iters *= 4;
        t = timed(c, bytes, iters);
    }
    int n = (int)(iters * (target / t));
    if (n < 3)
        n = 3;
    double v[REPEATS];
    for (int r = 0; r < REPEATS; r++)
        v[r] = timed(c, bytes, n) / n;
    qsort(v, REPEATS, sizeof v[0], cmp);
    double best = v[0], worst;
    MPI_Reduce(&best, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return worst * 1e6;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int want[NCOLL], any = 0;
    memset(want, 0, sizeof want);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "quick") == 0) {
            target = 0.02;
            continue;
        }
        for (int c = 0; c < NCOLL; c++)
            if (strcmp(argv[i], names[c]) == 0)
                want[c] = any = 1;
    }
    size_t big = (size_t)MAXSIZE * size;
    sbuf = malloc(big);
    rbuf = malloc(big);
    for (size_t i = 0; i < big; i++)
        sbuf[i] = rbuf[i] = 0;
    for (int c = 0; c < NCOLL; c++) {
        if (any && !want[c])
            continue;
        int lo = c == REDUCE || c == ALLREDUCE || c == REDUCE_SCATTER ? 4 : 1;
        int hi = c == BARRIER ? 0 : MAXSIZE;
        if (c == BARRIER)
            lo = 0;
        for (int bytes = lo; bytes <= hi; bytes = bytes ? bytes * 4 : 1) {
            if (c == ALLTOALL && bytes * size > (1 << 22))
                break;
            double us = measure(c, bytes);
            if (rank == 0) {
                printf("%s %d %.3f\n", names[c], bytes, us);
                fflush(stdout);
            }
            if (c == BARRIER)
                break;
        }
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
