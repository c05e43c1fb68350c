//go:build ignore

/* gompi-test: np=2,3 timeout=120 */
/* Rendezvous sizes across the network's read threshold (TestCNet runs it
 * with every rank a node of its own: btl/ofi's fi_read rendezvous): 64 KiB
 * - 1, 64 KiB, 64 KiB + 1, 4 MiB and 64 MiB arrive intact; one buffer sent
 * again with new contents (the registration cache must not serve old data)
 * and freed and reallocated between sends; Ssend; MPI_ANY_SOURCE receives
 * of rendezvous messages from every other rank; a truncated rendezvous
 * receive returns MPI_ERR_TRUNCATE with the first bytes delivered. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static unsigned char pat(size_t i, int seed) { return (unsigned char)(i * 13 + seed * 71 + (i >> 12)); }

static void fill(unsigned char *b, size_t n, int seed) {
    for (size_t i = 0; i < n; i++) b[i] = pat(i, seed);
}

static size_t bad(const unsigned char *b, size_t n, int seed) {
    for (size_t i = 0; i < n; i++)
        if (b[i] != pat(i, seed)) return i + 1;
    return 0;
}

/* pingpong sends n bytes from rank 0 to 1 and back, mode by send function. */
static void pingpong(size_t n, int seed, int sync) {
    unsigned char *b = malloc(n ? n : 1);
    if (rank == 0) {
        fill(b, n, seed);
        if (sync)
            CHECK_MPI(MPI_Ssend(b, (int)n, MPI_BYTE, 1, seed, MPI_COMM_WORLD));
        else
            CHECK_MPI(MPI_Send(b, (int)n, MPI_BYTE, 1, seed, MPI_COMM_WORLD));
        memset(b, 0, n);
        MPI_Status st;
        CHECK_MPI(MPI_Recv(b, (int)n, MPI_BYTE, 1, seed, MPI_COMM_WORLD, &st));
        int cnt = -1;
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        CHECK(cnt == (int)n, "%zu bytes back: count %d", n, cnt);
        size_t k = bad(b, n, seed + 1);
        CHECK(k == 0, "%zu bytes back: byte %zu wrong", n, k - 1);
    } else if (rank == 1) {
        memset(b, 0, n);
        CHECK_MPI(MPI_Recv(b, (int)n, MPI_BYTE, 0, seed, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        size_t k = bad(b, n, seed);
        CHECK(k == 0, "%zu bytes: byte %zu wrong", n, k - 1);
        fill(b, n, seed + 1);
        if (sync)
            CHECK_MPI(MPI_Ssend(b, (int)n, MPI_BYTE, 0, seed, MPI_COMM_WORLD));
        else
            CHECK_MPI(MPI_Send(b, (int)n, MPI_BYTE, 0, seed, MPI_COMM_WORLD));
    }
    free(b);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    size_t sizes[] = {65535, 65536, 65537, 4 << 20, 64 << 20};
    for (int i = 0; i < 5; i++) pingpong(sizes[i], i + 1, 0);
    for (int i = 0; i < 4; i++) pingpong(sizes[i], i + 11, 1);

    /* One buffer, new contents each time, then freed and reallocated. */
    size_t n = 1 << 20;
    for (int it = 0; it < 6; it++) {
        unsigned char *b = malloc(n);
        for (int rep = 0; rep < 3; rep++) {
            int seed = 100 + it * 10 + rep;
            if (rank == 0) {
                fill(b, n, seed);
                CHECK_MPI(MPI_Send(b, (int)n, MPI_BYTE, 1, 5, MPI_COMM_WORLD));
            } else if (rank == 1) {
                memset(b, 0, n);
                CHECK_MPI(MPI_Recv(b, (int)n, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                size_t k = bad(b, n, seed);
                CHECK(k == 0, "reused buffer, iteration %d.%d: byte %zu wrong", it, rep, k - 1);
            }
        }
        free(b);
    }

    /* Every other rank sends a rendezvous message to rank 0, which takes
     * them with MPI_ANY_SOURCE. */
    n = 300000;
    unsigned char *b = malloc(n);
    if (rank == 0) {
        for (int i = 1; i < size; i++) {
            MPI_Status st;
            memset(b, 0, n);
            CHECK_MPI(MPI_Recv(b, (int)n, MPI_BYTE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_SOURCE >= 1 && st.MPI_SOURCE < size, "ANY_SOURCE: source %d", st.MPI_SOURCE);
            size_t k = bad(b, n, 200 + st.MPI_SOURCE);
            CHECK(k == 0, "ANY_SOURCE from %d: byte %zu wrong", st.MPI_SOURCE, k - 1);
        }
    } else {
        fill(b, n, 200 + rank);
        CHECK_MPI(MPI_Send(b, (int)n, MPI_BYTE, 0, 7, MPI_COMM_WORLD));
    }

    /* Truncation: 300000 bytes into 100000. */
    if (rank == 0) {
        fill(b, n, 300);
        CHECK_MPI(MPI_Send(b, (int)n, MPI_BYTE, 1, 8, MPI_COMM_WORLD));
    } else if (rank == 1) {
        memset(b, 0xEE, n);
        MPI_Status st;
        int rc = MPI_Recv(b, 100000, MPI_BYTE, 0, 8, MPI_COMM_WORLD, &st);
        CHECK(rc != MPI_SUCCESS && err_class(rc) == MPI_ERR_TRUNCATE, "truncated: returned %d (class %d)", rc,
              err_class(rc));
        size_t k = bad(b, 100000, 300);
        CHECK(k == 0, "truncated: byte %zu wrong", k - 1);
        CHECK(b[100000] == 0xEE, "truncated: byte past the buffer written");
    }
    free(b);

    /* Both directions at once, a window of large messages. */
    if (rank < 2) {
        enum { W = 8 };
        n = 200000;
        unsigned char *s = malloc(n * W), *r = malloc(n * W);
        MPI_Request rq[2 * W];
        int peer = 1 - rank;
        fill(s, n * W, 400 + rank);
        for (int i = 0; i < W; i++) {
            MPI_Irecv(r + i * n, (int)n, MPI_BYTE, peer, 9, MPI_COMM_WORLD, &rq[i]);
            MPI_Isend(s + i * n, (int)n, MPI_BYTE, peer, 9, MPI_COMM_WORLD, &rq[W + i]);
        }
        CHECK_MPI(MPI_Waitall(2 * W, rq, MPI_STATUSES_IGNORE));
        size_t k = bad(r, n * W, 400 + peer);
        CHECK(k == 0, "window: byte %zu wrong", k - 1);
        free(s);
        free(r);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return check_status();
}
