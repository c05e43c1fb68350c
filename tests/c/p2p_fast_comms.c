//go:build ignore

/* gompi-test: np=2,4 timeout=120 */
/* The C point-to-point fast path on communicators other than
 * MPI_COMM_WORLD (capi/fastpath.h finds them by handle):
 * - a ping-pong on a split communicator whose ranks are the reverse of the
 *   world's leaves through the C path (pvar pt2pt_c_fastpath_msgs) with the
 *   right sources and tags;
 * - messages of two communicators interleaved from one peer, received in
 *   the other order (blocking and nonblocking): each lands on its own
 *   communicator, in order, intact;
 * - a receive queued in C on a communicator freed before the message comes
 *   still completes (MPI_Comm_free adopts it first). */
#include <stdint.h>
#include <string.h>

#include "counter.h"

#define PINGS 1000
#define N 50

static int rank, size;

static void reversed(void) {
    MPI_Comm rev;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev));
    int r;
    MPI_Comm_rank(rev, &r);
    CHECK(r == size - 1 - rank, "reversed rank %d of world %d", r, rank);
    int partner = r ^ 1;
    counter fast = counter_start("pt2pt_c_fastpath_msgs");
    unsigned long long before = counter_read(fast);
    if (partner < size) {
        int32_t v[4];
        MPI_Status st;
        for (int i = 0; i < PINGS; i++) {
            if (r < partner) {
                for (int k = 0; k < 4; k++) v[k] = i * 4 + k + r;
                CHECK_MPI(MPI_Send(v, 4, MPI_INT32_T, partner, i & 7, rev));
                CHECK_MPI(MPI_Recv(v, 4, MPI_INT32_T, partner, i & 7, rev, &st));
                for (int k = 0; k < 4; k++) CHECK(v[k] == i * 4 + k + partner, "pong %d[%d] = %d", i, k, v[k]);
            } else {
                MPI_Request q;
                CHECK_MPI(MPI_Irecv(v, 4, MPI_INT32_T, partner, MPI_ANY_TAG, rev, &q));
                CHECK_MPI(MPI_Wait(&q, &st));
                for (int k = 0; k < 4; k++) CHECK(v[k] == i * 4 + k + partner, "ping %d[%d] = %d", i, k, v[k]);
                for (int k = 0; k < 4; k++) v[k] = i * 4 + k + r;
                CHECK_MPI(MPI_Send(v, 4, MPI_INT32_T, partner, i & 7, rev));
            }
            CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == (i & 7), "status source %d tag %d, want %d %d",
                  st.MPI_SOURCE, st.MPI_TAG, partner, i & 7);
        }
        unsigned long long sent = counter_read(fast) - before;
        if (!env_off("GOMPI_FASTPATH"))
            CHECK(sent >= PINGS, "%llu of %d sends on a split communicator took the C fast path", sent, PINGS);
    }
    counter_free(&fast);
    CHECK_MPI(MPI_Comm_free(&rev));
}

/* interleaved: rank 2k sends N messages alternately on b and a, then on
 * world; rank 2k+1 receives a's first (blocking), then b's (nonblocking),
 * then world's; every message checked. */
static void interleaved(void) {
    MPI_Comm a, b;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &b));
    int partner = rank ^ 1;
    if (partner < size) {
        int32_t v[N];
        if (rank < partner) {
            for (int i = 0; i < N; i++) {
                int32_t x = 1000 + i, y = 2000 + i, z = 3000 + i;
                CHECK_MPI(MPI_Send(&x, 1, MPI_INT32_T, partner, i % 3, b));
                CHECK_MPI(MPI_Send(&y, 1, MPI_INT32_T, partner, i % 3, a));
                CHECK_MPI(MPI_Send(&z, 1, MPI_INT32_T, partner, 5, MPI_COMM_WORLD));
            }
        } else {
            MPI_Request q[N];
            MPI_Status st;
            for (int i = 0; i < N; i++) {
                CHECK_MPI(MPI_Recv(&v[i], 1, MPI_INT32_T, partner, i % 3, a, &st));
                CHECK(v[i] == 2000 + i && st.MPI_TAG == i % 3, "a: message %d is %d tag %d", i, v[i], st.MPI_TAG);
            }
            for (int i = 0; i < N; i++) CHECK_MPI(MPI_Irecv(&v[i], 1, MPI_INT32_T, partner, MPI_ANY_TAG, b, &q[i]));
            CHECK_MPI(MPI_Waitall(N, q, MPI_STATUSES_IGNORE));
            for (int i = 0; i < N; i++) CHECK(v[i] == 1000 + i, "b: message %d is %d", i, v[i]);
            for (int i = 0; i < N; i++) {
                CHECK_MPI(MPI_Recv(&v[i], 1, MPI_INT32_T, partner, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                CHECK(v[i] == 3000 + i, "world: message %d is %d", i, v[i]);
            }
        }
        /* crossed: both directions, receives posted on a and b before the
         * messages exist, then matched by whichever completion call runs */
        MPI_Request q[4];
        int32_t in[2] = {-1, -1}, out[2] = {rank * 10 + 1, rank * 10 + 2};
        CHECK_MPI(MPI_Irecv(&in[0], 1, MPI_INT32_T, partner, 7, a, &q[0]));
        CHECK_MPI(MPI_Irecv(&in[1], 1, MPI_INT32_T, partner, 7, b, &q[1]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Isend(&out[1], 1, MPI_INT32_T, partner, 7, b, &q[2]));
        CHECK_MPI(MPI_Isend(&out[0], 1, MPI_INT32_T, partner, 7, a, &q[3]));
        int flag = 0;
        while (!flag) CHECK_MPI(MPI_Testall(4, q, &flag, MPI_STATUSES_IGNORE));
        CHECK(in[0] == partner * 10 + 1 && in[1] == partner * 10 + 2, "crossed: got %d %d", in[0], in[1]);
    }
    CHECK_MPI(MPI_Comm_free(&a));
    CHECK_MPI(MPI_Comm_free(&b));
}

/* freed: a receive queued in C on c outlives MPI_Comm_free(&c). */
static void freed(void) {
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    int partner = rank ^ 1;
    int32_t v[3] = {0, 0, 0};
    MPI_Request q = MPI_REQUEST_NULL;
    if (partner < size && rank > partner) CHECK_MPI(MPI_Irecv(v, 3, MPI_INT32_T, partner, 4, c, &q));
    MPI_Comm keep = c;
    if (rank > partner) CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (partner < size && rank < partner) {
        int32_t x[3] = {7, 8, 9};
        CHECK_MPI(MPI_Send(x, 3, MPI_INT32_T, partner, 4, c));
    }
    if (q != MPI_REQUEST_NULL) {
        CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
        CHECK(v[0] == 7 && v[1] == 8 && v[2] == 9, "freed: got %d %d %d", v[0], v[1], v[2]);
    }
    if (rank < partner || partner >= size) CHECK_MPI(MPI_Comm_free(&c));
    (void)keep;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv) {
    counter_init(&argc, &argv, &rank, &size);
    for (int round = 0; round < 3; round++) {
        reversed();
        interleaved();
        freed();
    }
    return counter_finalize();
}
