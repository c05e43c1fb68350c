//go:build ignore

/* gompi-test: np=2,4 timeout=300 */
/* The C fast path's MULTIPLE locking with threads that come and go:
 * - 60 waves of 3 fresh threads per rank (180 threads over the run, more
 *   than mtlock's 128 per-thread reader counts: a thread's count must be
 *   given back when it exits and reused by a later one);
 * - per round, on the receiving rank of a pair, thread 0 queues an Irecv on
 *   its communicator and thread 1 then blocks in Recv on another one while
 *   the sender sends thread 0's message first: thread 1 finds thread 0's
 *   message at the head of the shared ring (it may hand it to thread 0's
 *   queued receive), both arrive intact;
 * - thread 2 meanwhile runs Allreduce and Iprobe on a third communicator
 *   (Go holders of the lock: C waits step aside for them and go on);
 * every element checked. */
#include <string.h>

#include "thread_common.h"

#define WAVES 60
#define ROUNDS 20
#define N 16

static MPI_Comm ca, cb, cg;
static int partner, sender;
static pthread_barrier_t posted;

static void recv_queued(int wave) { /* receiver thread 0: a queued Irecv on cb */
    int32_t b[N];
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Request q;
        MPI_Status st;
        memset(b, 0xff, sizeof b);
        TCHECK_MPI(MPI_Irecv(b, N, MPI_INT32_T, partner, 3, cb, &q));
        pthread_barrier_wait(&posted);
        TCHECK_MPI(MPI_Wait(&q, &st));
        TCHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 3, "queued: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
        thr_verify(b, N, partner, 0, wave * ROUNDS + r, "queued receive");
    }
}

static void recv_blocking(int wave) { /* receiver thread 1: blocks behind cb's message */
    int32_t b[N];
    for (int r = 0; r < ROUNDS; r++) {
        char go = 1;
        MPI_Status st;
        memset(b, 0xff, sizeof b);
        pthread_barrier_wait(&posted);
        TCHECK_MPI(MPI_Send(&go, 1, MPI_CHAR, partner, 7, ca));
        TCHECK_MPI(MPI_Recv(b, N, MPI_INT32_T, partner, 4, ca, &st));
        TCHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 4, "blocking: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
        thr_verify(b, N, partner, 1, wave * ROUNDS + r, "blocking receive");
    }
}

static void send_both(int wave) { /* sender: cb's message, then ca's */
    int32_t b0[N], b1[N];
    for (int r = 0; r < ROUNDS; r++) {
        char go = 0;
        TCHECK_MPI(MPI_Recv(&go, 1, MPI_CHAR, partner, 7, ca, MPI_STATUS_IGNORE));
        thr_fill(b0, N, thr_rank, 0, wave * ROUNDS + r);
        thr_fill(b1, N, thr_rank, 1, wave * ROUNDS + r);
        TCHECK_MPI(MPI_Send(b0, N, MPI_INT32_T, partner, 3, cb));
        TCHECK_MPI(MPI_Send(b1, N, MPI_INT32_T, partner, 4, ca));
    }
}

static void go_path(int wave) {
    for (int r = 0; r < ROUNDS / 4; r++) {
        int v = thr_rank + wave + r, sum = -1, flag = 1;
        TCHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, cg));
        TCHECK(sum == thr_size * (thr_size - 1) / 2 + thr_size * (wave + r), "allreduce: %d", sum);
        TCHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 55, cg, &flag, MPI_STATUS_IGNORE));
        TCHECK(!flag, "a message with tag 55 on the probe communicator");
    }
}

static int wave_no;

static void worker(int t) {
    if (t == 2)
        go_path(wave_no);
    else if (sender) {
        if (t == 0) send_both(wave_no); /* the sender's thread 1 has nothing to do */
    } else if (t == 0)
        recv_queued(wave_no);
    else
        recv_blocking(wave_no);
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    partner = thr_rank ^ 1;
    sender = (thr_rank & 1) == 0;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &ca));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &cb));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &cg));
    for (wave_no = 0; wave_no < WAVES; wave_no++) {
        pthread_barrier_init(&posted, NULL, 2); /* the receiver's threads 0 and 1 */
        thr_run(3, worker);
        pthread_barrier_destroy(&posted);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Comm_free(&ca));
    CHECK_MPI(MPI_Comm_free(&cb));
    CHECK_MPI(MPI_Comm_free(&cg));
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
