//go:build ignore

/* gompi-test: np=2,3,4 timeout=120 */
/* Small blocking messages between nodes through the C fast path
 * (capi/fastpath.h's gompi_net_send and gompi_net_recv: the network
 * endpoint used from C). TestCNet runs it with every rank a node of its own.
 * - A ping-pong from 0 B to past the network's eager size (64 KiB + 1 goes
 *   by fi_read) arrives intact with the right status, and the small sends
 *   leave through the C path (pvar pt2pt_c_fastpath_msgs grows by at least
 *   one per small send).
 * - Messages taken out of tag order: the frame at the head is not the one
 *   asked for, the Go side queues it, and the next receive still finds it.
 * - With 3 or more ranks, every other rank sends a burst to rank 0, which
 *   receives them source by source, in reverse source order: each source's
 *   messages arrive in order although another's head the queue.
 * - A receive too small for the message (the C path steps aside) returns
 *   MPI_ERR_TRUNCATE, and the next message is received as usual.
 * - Blocking receives posted before the message comes (the C wait spins,
 *   then hands over to Go), with the sender late by a few milliseconds. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "counter.h"

#define BURST 200

static int rank, size;

static unsigned char pat(size_t i, int seed) { return (unsigned char)(i * 7 + seed * 31 + 1); }

static void pingpong(void) {
    static const int sizes[] = {0, 1, 7, 64, 100, 1000, 4096, 8192, 65535, 65536, 65537};
    unsigned char *b = malloc(65537);
    counter fast = counter_start("pt2pt_c_fastpath_msgs");
    unsigned long long before = counter_read(fast);
    int small = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        for (int it = 0; it < 20; it++) {
            int seed = (int)k * 100 + it;
            MPI_Status st;
            if (rank == 0) {
                for (int i = 0; i < n; i++) b[i] = pat(i, seed);
                CHECK_MPI(MPI_Send(b, n, MPI_BYTE, 1, seed, MPI_COMM_WORLD));
                memset(b, 0, 65537);
                CHECK_MPI(MPI_Recv(b, 65537, MPI_BYTE, 1, seed + 1, MPI_COMM_WORLD, &st));
                int got = -1;
                MPI_Get_count(&st, MPI_BYTE, &got);
                CHECK(got == n && st.MPI_SOURCE == 1 && st.MPI_TAG == seed + 1, "pong %d B: count %d source %d tag %d", n,
                      got, st.MPI_SOURCE, st.MPI_TAG);
                for (int i = 0; i < n; i++)
                    if (b[i] != pat(i, seed + 1)) {
                        CHECK(0, "pong %d B: byte %d is %d", n, i, b[i]);
                        break;
                    }
                if (n <= 4096) small++;
            } else if (rank == 1) {
                CHECK_MPI(MPI_Recv(b, 65537, MPI_BYTE, 0, seed, MPI_COMM_WORLD, &st));
                int got = -1;
                MPI_Get_count(&st, MPI_BYTE, &got);
                CHECK(got == n && st.MPI_SOURCE == 0 && st.MPI_TAG == seed, "ping %d B: count %d source %d tag %d", n, got,
                      st.MPI_SOURCE, st.MPI_TAG);
                for (int i = 0; i < n; i++)
                    if (b[i] != pat(i, seed)) {
                        CHECK(0, "ping %d B: byte %d is %d", n, i, b[i]);
                        break;
                    }
                for (int i = 0; i < n; i++) b[i] = pat(i, seed + 1);
                CHECK_MPI(MPI_Send(b, n, MPI_BYTE, 0, seed + 1, MPI_COMM_WORLD));
            }
        }
    }
    unsigned long long after = counter_read(fast);
    if (rank == 0 && !env_off("GOMPI_FASTPATH") && !env_off("GOMPI_FASTPATH_NET")) CHECK(after - before >= (unsigned long long)small, "C fast path sent %llu of %d small messages", after - before, small);
    counter_free(&fast);
    free(b);
}

static void tag_order(void) {
    int v[3];
    if (rank == 0) {
        for (int t = 1; t <= 3; t++) {
            v[0] = t;
            CHECK_MPI(MPI_Send(v, 1, MPI_INT, 1, t, MPI_COMM_WORLD));
        }
    } else if (rank == 1) {
        for (int t = 3; t >= 1; t--) {
            MPI_Status st;
            v[0] = 0;
            CHECK_MPI(MPI_Recv(v, 1, MPI_INT, 0, t, MPI_COMM_WORLD, &st));
            CHECK(v[0] == t && st.MPI_TAG == t, "tag %d: got %d (status tag %d)", t, v[0], st.MPI_TAG);
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void sources(void) {
    if (size < 3) return;
    int32_t v[2];
    if (rank == 0) {
        for (int src = size - 1; src >= 1; src--)
            for (int i = 0; i < BURST; i++) {
                MPI_Status st;
                CHECK_MPI(MPI_Recv(v, 2, MPI_INT32_T, src, 5, MPI_COMM_WORLD, &st));
                CHECK(v[0] == src && v[1] == i && st.MPI_SOURCE == src, "from %d message %d: got %d %d (source %d)", src, i,
                      v[0], v[1], st.MPI_SOURCE);
            }
    } else {
        for (int i = 0; i < BURST; i++) {
            v[0] = rank;
            v[1] = i;
            CHECK_MPI(MPI_Send(v, 2, MPI_INT32_T, 0, 5, MPI_COMM_WORLD));
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void truncated(void) {
    char b[100];
    if (rank == 0) {
        memset(b, 'x', sizeof b);
        CHECK_MPI(MPI_Send(b, 100, MPI_CHAR, 1, 9, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(b, 10, MPI_CHAR, 1, 9, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        memset(b, 0, sizeof b);
        EXPECT_CLASS(MPI_Recv(b, 10, MPI_CHAR, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE);
        CHECK(b[0] == 'x' && b[9] == 'x', "truncated receive delivered %d %d", b[0], b[9]);
        MPI_Status st;
        CHECK_MPI(MPI_Recv(b, 100, MPI_CHAR, 0, 9, MPI_COMM_WORLD, &st));
        int got = -1;
        MPI_Get_count(&st, MPI_CHAR, &got);
        CHECK(got == 10, "after the truncation: %d bytes", got);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

static void late(void) {
    int v = 0;
    for (int i = 0; i < 5; i++) {
        if (rank == 0) {
            struct timespec nap = {0, 3000000 * (i + 1)};
            nanosleep(&nap, NULL);
            v = 1000 + i;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD));
        } else if (rank == 1) {
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(v == 1000 + i, "late message %d: got %d", i, v);
        }
    }
}

int main(int argc, char **argv) {
    counter_init(&argc, &argv, &rank, &size);
    for (int round = 0; round < 2; round++) {
        pingpong();
        tag_order();
        sources();
        truncated();
        late();
    }
    return counter_finalize();
}
