/* Point-to-point benchmark: latency (ping-pong), unidirectional window
 * bandwidth and bidirectional bandwidth, 0 B to 4 MiB, 2 ranks. Each figure
 * is the median of several repeats after a warm-up; the 1-byte latency also
 * reports the median and 99th percentile of single round trips. Built
 * unchanged against gompi, Open MPI and MPICH.
 * Output lines: "<metric> <bytes> <value>" (usec or MB/s). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXSIZE (4 << 20)
#define WINDOW 64
#define REPEATS 5

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

static int iters_for(int size, int small, int large)
{
    return size <= 8192 ? small : (size <= (1 << 20) ? large : large / 4 + 1);
}

static double latency(char *buf, int size, int rank, int iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) * 1e6 / (2.0 * iters);
}

static double bandwidth(char *sbuf, char *rbuf, int size, int rank, int iters, int bidir)
{
    MPI_Request req[2 * WINDOW];
    char ack;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        int n = 0;
        if (rank == 0 || bidir)
            for (int w = 0; w < WINDOW; w++)
                MPI_Isend(sbuf, size, MPI_CHAR, 1 - rank, 2, MPI_COMM_WORLD, &req[n++]);
        if (rank == 1 || bidir)
            for (int w = 0; w < WINDOW; w++)
                MPI_Irecv(rbuf, size, MPI_CHAR, 1 - rank, 2, MPI_COMM_WORLD, &req[n++]);
        MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
        if (!bidir) {
            if (rank == 1)
                MPI_Send(&ack, 1, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
            else
                MPI_Recv(&ack, 1, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    double t = MPI_Wtime() - t0;
    double bytes = (double)size * WINDOW * iters * (bidir ? 2 : 1);
    return bytes / t / 1e6;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "pt2pt: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    int repeats = quick ? 3 : REPEATS;
    char *sbuf = malloc(MAXSIZE), *rbuf = malloc(MAXSIZE);
    memset(sbuf, 1, MAXSIZE);
    memset(rbuf, 2, MAXSIZE);
    double v[REPEATS];

    /* 1-byte round trips one by one, for the tail. */
    int n1 = quick ? 20000 : 200000;
    double *rt = malloc(sizeof(double) * n1);
    latency(sbuf, 1, rank, 10000);
    for (int i = 0; i < n1; i++) {
        double t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(sbuf, 1, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(sbuf, 1, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(sbuf, 1, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, 1, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
        rt[i] = (MPI_Wtime() - t0) * 1e6 / 2.0;
    }
    qsort(rt, n1, sizeof *rt, cmp_double);
    if (rank == 0) {
        printf("lat1_p50 1 %.3f\n", rt[n1 / 2]);
        printf("lat1_p99 1 %.3f\n", rt[(int)(n1 * 0.99)]);
    }
    free(rt);

    for (int s = 0; s <= MAXSIZE; s = s ? s * 2 : 1) {
        int it = iters_for(s, quick ? 2000 : 20000, quick ? 50 : 400);
        latency(sbuf, s, rank, it / 10 + 1);
        for (int r = 0; r < repeats; r++) v[r] = latency(sbuf, s, rank, it);
        if (rank == 0) printf("lat %d %.3f\n", s, median(v, repeats));
    }
    for (int bidir = 0; bidir <= 1; bidir++) {
        for (int s = 1; s <= MAXSIZE; s *= 2) {
            int it = iters_for(s, quick ? 20 : 100, quick ? 4 : 20);
            bandwidth(sbuf, rbuf, s, rank, 2, bidir);
            for (int r = 0; r < repeats; r++) v[r] = bandwidth(sbuf, rbuf, s, rank, it, bidir);
            if (rank == 0) printf("%s %d %.1f\n", bidir ? "bibw" : "bw", s, median(v, repeats));
        }
    }
    fflush(stdout);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
