//go:build ignore

/* gompi-test: np=2,4 timeout=240 */
/* The C fast path at MPI_THREAD_MULTIPLE (capi/fastpath.h takes the
 * MULTIPLE lock from C):
 * - one thread's 1-byte ping-pong on MPI_COMM_WORLD leaves through the C
 *   fast path (pvar pt2pt_c_fastpath_msgs counts every send);
 * - 4 threads per rank, tag = thread, mix Send/Recv, Isend/Irecv/Waitall,
 *   Testall loops and Irecv/Send/Wait of small messages with their partner
 *   while a fifth runs collectives on its own communicator; every element
 *   checked;
 * - an error handler (called with the lock held in Go) sends on
 *   MPI_COMM_WORLD: the C try-lock fails and the send takes the lock again
 *   through Go, without deadlock. */
#include <stdlib.h>
#include <string.h>

#include "counter.h"
#include "thread_common.h"

#define T 4
#define ROUNDS 400
#define PINGS 1000

static int partner;

static void single(void) {
    counter fast = counter_start("pt2pt_c_fastpath_msgs");
    unsigned long long before = counter_read(fast);
    char b = 0;
    for (int i = 0; i < PINGS; i++) {
        if (thr_rank < partner) {
            b = (char)i;
            CHECK_MPI(MPI_Send(&b, 1, MPI_CHAR, partner, 1, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(&b, 1, MPI_CHAR, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Recv(&b, 1, MPI_CHAR, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(b == (char)i, "ping %d: got %d", i, b);
            CHECK_MPI(MPI_Send(&b, 1, MPI_CHAR, partner, 1, MPI_COMM_WORLD));
        }
    }
    unsigned long long sent = counter_read(fast) - before;
    CHECK(sent >= PINGS, "MULTIPLE, one thread: %llu of %d sends took the C fast path", sent, PINGS);
    counter_free(&fast);
}

static void pairs(int t) {
    int32_t sb[64], rb[64];
    MPI_Request q[2];
    MPI_Status st[2];
    for (int r = 0; r < ROUNDS; r++) {
        int n = 1 + (r * 7 + t) % 64;
        thr_fill(sb, n, thr_rank, t, r);
        memset(rb, 0xff, sizeof rb);
        switch (r % 4) {
        case 0:
            if (thr_rank < partner) {
                TCHECK_MPI(MPI_Send(sb, n, MPI_INT32_T, partner, t, MPI_COMM_WORLD));
                TCHECK_MPI(MPI_Recv(rb, n, MPI_INT32_T, partner, t, MPI_COMM_WORLD, &st[0]));
            } else {
                TCHECK_MPI(MPI_Recv(rb, n, MPI_INT32_T, partner, t, MPI_COMM_WORLD, &st[0]));
                TCHECK_MPI(MPI_Send(sb, n, MPI_INT32_T, partner, t, MPI_COMM_WORLD));
            }
            break;
        case 1:
            TCHECK_MPI(MPI_Irecv(rb, n, MPI_INT32_T, partner, t, MPI_COMM_WORLD, &q[0]));
            TCHECK_MPI(MPI_Isend(sb, n, MPI_INT32_T, partner, t, MPI_COMM_WORLD, &q[1]));
            TCHECK_MPI(MPI_Waitall(2, q, st));
            break;
        case 2: {
            TCHECK_MPI(MPI_Isend(sb, n, MPI_INT32_T, partner, t, MPI_COMM_WORLD, &q[1]));
            TCHECK_MPI(MPI_Irecv(rb, n, MPI_INT32_T, partner, t, MPI_COMM_WORLD, &q[0]));
            int flag = 0;
            while (!flag) TCHECK_MPI(MPI_Testall(2, q, &flag, st));
            break;
        }
        default:
            TCHECK_MPI(MPI_Irecv(rb, n, MPI_INT32_T, partner, t, MPI_COMM_WORLD, &q[0]));
            TCHECK_MPI(MPI_Send(sb, n, MPI_INT32_T, partner, t, MPI_COMM_WORLD));
            for (int flag = 0; !flag;) TCHECK_MPI(MPI_Test(&q[0], &flag, &st[0]));
        }
        int got = -1;
        MPI_Get_count(&st[0], MPI_INT32_T, &got);
        TCHECK(got == n && st[0].MPI_SOURCE == partner && st[0].MPI_TAG == t,
               "thread %d round %d: count %d source %d tag %d", t, r, got, st[0].MPI_SOURCE, st[0].MPI_TAG);
        thr_verify(rb, n, partner, t, r, "pairs");
    }
}

static MPI_Comm own;

static void worker(int t) {
    if (t < T) {
        pairs(t);
        return;
    }
    for (int r = 0; r < ROUNDS / 4; r++) { /* the Go path, alongside */
        int v = thr_rank + r, sum = -1;
        TCHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, own));
        TCHECK(sum == thr_size * (thr_size - 1) / 2 + thr_size * r, "allreduce round %d: %d", r, sum);
    }
}

static void eh_send(MPI_Comm *c, int *code, ...) {
    (void)c;
    (void)code;
    int v = 4000 + thr_rank;
    TCHECK_MPI(MPI_Send(&v, 1, MPI_INT, partner, 99, MPI_COMM_WORLD));
}

static void reentry(void) {
    MPI_Comm d;
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Comm_create_errhandler(eh_send, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(d, eh));
    int x = 0, v = -1;
    int rc = MPI_Send(&x, 1, MPI_INT, partner, -5, d); /* a bad tag: the handler runs */
    CHECK(rc != MPI_SUCCESS, "MPI_Send with tag -5 succeeded");
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, partner, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(v == 4000 + partner, "the error handler's message: %d", v);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Comm_free(&d));
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    int provided = -1;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_T_init_thread at MULTIPLE provided %d", provided);
    partner = thr_rank ^ 1;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &own));
    single();
    for (int rep = 0; rep < 3; rep++) {
        thr_run(T + 1, worker);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    reentry();
    CHECK_MPI(MPI_Comm_free(&own));
    CHECK_MPI(MPI_T_finalize());
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
