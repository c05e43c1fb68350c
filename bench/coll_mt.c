/* Collective rate of T threads per rank, each on its own communicator
 * (issue 24): coll_mt LEVEL T KIND [BYTES]
 *   LEVEL serialized|multiple (T > 1 needs multiple), KIND allreduce
 *   (MPI_SUM of int64, BYTES per rank, default 8) | barrier | bcast.
 * A 5th argument "world" runs T=1 on MPI_COMM_WORLD itself.
 * Prints "coll_per_s <aggregate collectives per second>": the best of 5
 * timed runs of 20000 calls per thread. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 16
static MPI_Comm comms[MAXT];
static double tstart[MAXT], tend[MAXT];
static int iters = 20000, kind, bytes = 8;

static void *run(void *p) {
    int t = (int)(long)p;
    MPI_Comm c = comms[t];
    int n = bytes / 8 > 0 ? bytes / 8 : 1;
    long long *a = calloc(n, 8), *b = calloc(n, 8);
    for (int i = -iters / 10; i < iters; i++) {
        if (i == 0) tstart[t] = MPI_Wtime();
        if (kind == 0) MPI_Allreduce(a, b, n, MPI_LONG_LONG, MPI_SUM, c);
        else if (kind == 1) MPI_Barrier(c);
        else MPI_Bcast(a, n, MPI_LONG_LONG, 0, c);
    }
    tend[t] = MPI_Wtime();
    free(a), free(b);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: coll_mt serialized|multiple T allreduce|barrier|bcast [BYTES]\n");
        return 2;
    }
    int want = strcmp(argv[1], "multiple") == 0 ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED, got, rank;
    int T = atoi(argv[2]);
    kind = strcmp(argv[3], "allreduce") == 0 ? 0 : strcmp(argv[3], "barrier") == 0 ? 1 : 2;
    if (argc > 4) bytes = atoi(argv[4]);
    MPI_Init_thread(&argc, &argv, want, &got);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (got < want || T < 1 || T > MAXT || (T > 1 && got < MPI_THREAD_MULTIPLE)) MPI_Abort(MPI_COMM_WORLD, 1);
    int world = argc > 5 && strcmp(argv[5], "world") == 0;
    for (int t = 0; t < T; t++)
        if (world) comms[t] = MPI_COMM_WORLD;
        else MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    double best = 0;
    for (int r = 0; r < 5; r++) {
        pthread_t th[MAXT];
        MPI_Barrier(MPI_COMM_WORLD);
        for (int t = 0; t < T; t++) pthread_create(&th[t], NULL, run, (void *)(long)t);
        for (int t = 0; t < T; t++) pthread_join(th[t], NULL);
        double s = tstart[0], e = tend[0];
        for (int t = 1; t < T; t++) {
            if (tstart[t] < s) s = tstart[t];
            if (tend[t] > e) e = tend[t];
        }
        double v = (double)T * iters / (e - s);
        if (v > best) best = v;
    }
    for (int t = 0; t < T && !world; t++) MPI_Comm_free(&comms[t]);
    if (rank == 0) printf("coll_per_s %.0f\n", best);
    MPI_Finalize();
    return 0;
}
