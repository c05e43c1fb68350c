//go:build ignore

/* gompi-test: np=1,2,4 timeout=300 */
/* Threads each on its own communicator at MPI_THREAD_MULTIPLE (the C fast
 * path runs their calls at once, docs/threads.md):
 * - one thread's ping-pong on a duplicate of MPI_COMM_WORLD leaves through
 *   the C fast path (pvar pt2pt_c_fastpath_msgs);
 * - T threads per rank, each on its own communicator (duplicates and
 *   reversed splits, so comm ranks and world ranks differ), exchange
 *   windows of Isend/Irecv of 1 to 64 ints (Waitall), blocking Send/Recv
 *   ping-pongs, Irecv+Isend completed by Test loops, and every few rounds
 *   Iallreduce and Ibcast on their communicator; every element checked.
 * Repeated with a different mix of communicators each round. */
#include <stdlib.h>
#include <string.h>

#include "counter.h"
#include "thread_common.h"

#define T 4
#define ROUNDS 150
#define W 32
#define PINGS 1000

static MPI_Comm comms[T];
static int partner;

static void single(void) {
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    counter fast = counter_start("pt2pt_c_fastpath_msgs");
    unsigned long long before = counter_read(fast);
    char b = 0;
    for (int i = 0; i < PINGS && partner != thr_rank; i++) {
        if (thr_rank < partner) {
            b = (char)i;
            CHECK_MPI(MPI_Send(&b, 1, MPI_CHAR, partner, 1, c));
            CHECK_MPI(MPI_Recv(&b, 1, MPI_CHAR, partner, 1, c, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Recv(&b, 1, MPI_CHAR, partner, 1, c, MPI_STATUS_IGNORE));
            CHECK(b == (char)i, "ping %d: got %d", i, b);
            CHECK_MPI(MPI_Send(&b, 1, MPI_CHAR, partner, 1, c));
        }
    }
    unsigned long long sent = counter_read(fast) - before;
    if (partner != thr_rank)
        CHECK(sent >= PINGS, "MULTIPLE, one thread on a duplicate: %llu of %d sends took the C fast path", sent, PINGS);
    counter_free(&fast);
    CHECK_MPI(MPI_Comm_free(&c));
}

/* val: element i of message k of round r sent by world rank from on
 * thread t's communicator. */
static int32_t val(int from, int t, int r, int k, int i) { return ((from * 8 + t) * 1000 + r) * 4096 + k * 64 + i; }

static void worker(int t) {
    MPI_Comm c = comms[t];
    int me, p, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    /* the partner's rank in c: c orders world ranks forward or backward */
    int rev = 0;
    {
        int r0;
        MPI_Group g, wg;
        MPI_Comm_group(c, &g);
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_translate_ranks(wg, 1, &partner, g, &r0);
        p = r0;
        MPI_Group_free(&g);
        MPI_Group_free(&wg);
        rev = me != thr_rank;
    }
    int32_t *sb = malloc(W * 64 * sizeof(int32_t)), *rb = malloc(W * 64 * sizeof(int32_t));
    MPI_Request q[2 * W];
    for (int r = 0; r < ROUNDS; r++) {
        /* windows */
        for (int k = 0; k < W; k++) {
            int len = 1 + (k * 7 + r) % 64;
            for (int i = 0; i < 64; i++) rb[k * 64 + i] = -1;
            TCHECK_MPI(MPI_Irecv(rb + k * 64, len, MPI_INT32_T, p, k % 4, c, &q[k]));
        }
        for (int k = 0; k < W; k++) {
            int len = 1 + (k * 7 + r) % 64;
            for (int i = 0; i < len; i++) sb[k * 64 + i] = val(thr_rank, t, r, k, i);
            TCHECK_MPI(MPI_Isend(sb + k * 64, len, MPI_INT32_T, p, k % 4, c, &q[W + k]));
        }
        TCHECK_MPI(MPI_Waitall(2 * W, q, MPI_STATUSES_IGNORE));
        for (int k = 0; k < W; k++) {
            int len = 1 + (k * 7 + r) % 64;
            for (int i = 0; i < 64; i++) {
                int32_t want = i < len ? val(partner, t, r, k, i) : -1;
                TCHECK(rb[k * 64 + i] == want, "thread %d round %d msg %d [%d]: %d, want %d", t, r, k, i,
                       rb[k * 64 + i], want);
            }
        }
        /* blocking ping-pong */
        int32_t x = val(thr_rank, t, r, 0, 0), y = -1;
        if (me < p || p == me) {
            TCHECK_MPI(MPI_Send(&x, 1, MPI_INT32_T, p, 9, c));
            TCHECK_MPI(MPI_Recv(&y, 1, MPI_INT32_T, p, 9, c, MPI_STATUS_IGNORE));
        } else {
            TCHECK_MPI(MPI_Recv(&y, 1, MPI_INT32_T, p, 9, c, MPI_STATUS_IGNORE));
            TCHECK_MPI(MPI_Send(&x, 1, MPI_INT32_T, p, 9, c));
        }
        TCHECK(y == val(partner, t, r, 0, 0), "thread %d round %d: ping-pong got %d", t, r, y);
        /* Test loops */
        int32_t z = -1;
        TCHECK_MPI(MPI_Irecv(&z, 1, MPI_INT32_T, p, 11, c, &q[0]));
        TCHECK_MPI(MPI_Isend(&x, 1, MPI_INT32_T, p, 11, c, &q[1]));
        for (int k = 0; k < 2; k++) {
            int flag = 0;
            while (!flag) TCHECK_MPI(MPI_Test(&q[k], &flag, MPI_STATUS_IGNORE));
        }
        TCHECK(z == val(partner, t, r, 0, 0), "thread %d round %d: test loop got %d", t, r, z);
        /* nonblocking collectives on c */
        if (r % 8 == 0) {
            int32_t in[4], out[4], bc[4];
            for (int i = 0; i < 4; i++) {
                in[i] = me * 10 + i + t;
                bc[i] = me == 0 ? r + i : -1;
            }
            TCHECK_MPI(MPI_Iallreduce(in, out, 4, MPI_INT32_T, MPI_SUM, c, &q[0]));
            TCHECK_MPI(MPI_Ibcast(bc, 4, MPI_INT32_T, 0, c, &q[1]));
            TCHECK_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
            for (int i = 0; i < 4; i++) {
                int32_t want = 10 * (n * (n - 1) / 2) + n * (i + t);
                TCHECK(out[i] == want, "thread %d round %d: allreduce[%d] %d, want %d", t, r, i, out[i], want);
                TCHECK(bc[i] == r + i, "thread %d round %d: bcast[%d] %d", t, r, i, bc[i]);
            }
        }
    }
    (void)rev;
    free(sb);
    free(rb);
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    int provided;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    partner = (thr_rank ^ 1) < thr_size ? thr_rank ^ 1 : thr_rank;
    single();
    for (int pass = 0; pass < 2; pass++) {
        for (int t = 0; t < T; t++) {
            if ((t + pass) % 2 == 0)
                CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]));
            else
                CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, thr_size - thr_rank, &comms[t]));
        }
        thr_run(T, worker);
        for (int t = 0; t < T; t++) CHECK_MPI(MPI_Comm_free(&comms[t]));
    }
    CHECK_MPI(MPI_T_finalize());
    MPI_Finalize();
    return check_status();
}
