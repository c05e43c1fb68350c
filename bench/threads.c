/* Thread benchmark (scripts/bench_threads.sh), 2 ranks:
 *   threads LEVEL lat          1-byte ping-pong latency of one thread, us,
 *                              MPI initialised at LEVEL (serialized|multiple)
 *   threads LEVEL rate T       aggregate message rate of T threads per rank,
 *                              each on its own communicator: rank 0's thread
 *                              sends windows of 64 8-byte Isends, rank 1's
 *                              receives them and answers with one ack
 *                              (osu_mbw_mr's pattern), messages/s.
 * Prints one line "<what> <value>"; the best of 5 timed runs. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIN 64
#define MAXT 16

static int rank, iters;
static MPI_Comm comms[MAXT];
static double tstart[MAXT], tend[MAXT];

static void *rate_thread(void *p) {
    int t = (int)(long)p;
    MPI_Comm c = comms[t];
    char buf[WIN][8], ack = 0;
    MPI_Request rq[WIN];
    for (int it = -iters / 10; it < iters; it++) { /* negative: warm-up */
        if (it == 0) tstart[t] = MPI_Wtime();
        if (rank == 0) {
            for (int k = 0; k < WIN; k++) MPI_Isend(buf[k], 8, MPI_CHAR, 1, 1, c, &rq[k]);
            MPI_Waitall(WIN, rq, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_CHAR, 1, 2, c, MPI_STATUS_IGNORE);
        } else {
            for (int k = 0; k < WIN; k++) MPI_Irecv(buf[k], 8, MPI_CHAR, 0, 1, c, &rq[k]);
            MPI_Waitall(WIN, rq, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_CHAR, 0, 2, c);
        }
    }
    tend[t] = MPI_Wtime();
    return NULL;
}

static double lat(void) {
    char b = 0;
    int n = iters;
    for (int i = -n / 10; i < n; i++) {
        if (i == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            tstart[0] = MPI_Wtime();
        }
        if (rank == 0) {
            MPI_Send(&b, 1, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(&b, 1, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&b, 1, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&b, 1, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - tstart[0]) * 1e6 / (2.0 * n);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: threads serialized|multiple lat | rate T\n");
        return 2;
    }
    int want = strcmp(argv[1], "multiple") == 0 ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED, got;
    MPI_Init_thread(&argc, &argv, want, &got);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (got < want) {
        if (rank == 0) fprintf(stderr, "threads: asked level %d, got %d\n", want, got);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double best = 0;
    if (strcmp(argv[2], "lat") == 0) {
        iters = 20000;
        for (int r = 0; r < 5; r++) {
            double v = lat();
            if (r == 0 || v < best) best = v;
        }
        if (rank == 0) printf("lat_us %.3f\n", best);
    } else {
        int T = argc > 3 ? atoi(argv[3]) : 1;
        if (T < 1 || T > MAXT || (T > 1 && got < MPI_THREAD_MULTIPLE)) MPI_Abort(MPI_COMM_WORLD, 2);
        for (int t = 0; t < T; t++) MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
        iters = 2000;
        for (int r = 0; r < 5; r++) {
            pthread_t th[MAXT];
            MPI_Barrier(MPI_COMM_WORLD);
            for (int t = 0; t < T; t++) pthread_create(&th[t], NULL, rate_thread, (void *)(long)t);
            for (int t = 0; t < T; t++) pthread_join(th[t], NULL);
            double s = tstart[0], e = tend[0];
            for (int t = 1; t < T; t++) {
                if (tstart[t] < s) s = tstart[t];
                if (tend[t] > e) e = tend[t];
            }
            double v = (double)T * iters * WIN / (e - s);
            if (v > best) best = v;
        }
        for (int t = 0; t < T; t++) MPI_Comm_free(&comms[t]);
        if (rank == 0) printf("rate_msgs_per_s %.0f\n", best);
    }
    MPI_Finalize();
    return 0;
}
