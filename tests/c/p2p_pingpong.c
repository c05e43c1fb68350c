//go:build ignore

/* gompi-test: np=2,3,4 timeout=120 */
/* Ping-pong between rank 0 and every other rank for every size from 0 to 64 MiB
 * (powers of two and odd sizes on either side of them), so each protocol
 * (immediate, eager, rendezvous by copy or single copy) and each boundary
 * between them is crossed. Every byte is checked in both directions, as are the
 * status and guard bytes past the end of each receive buffer. The
 * p2p_pingpong_cma / _nocma wrappers rerun this with single copy forced on/off. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define MAXSIZE (64 << 20)
#define GUARD 64

/* pattern is the expected byte i of the message identified by seed; seeds
 * differ per size, iteration and direction, so stale data never passes. */
static inline unsigned char pattern(size_t i, unsigned seed) {
    uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u;
    return (unsigned char)(x >> 13 ^ x >> 24 ^ (uint32_t)(i >> 7));
}

static void fill(unsigned char *b, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        b[i] = pattern(i, seed);
}

/* verify reports the first wrong byte of b and whether the guard past n is intact. */
static int verify(const unsigned char *b, size_t n, unsigned seed, const char *what, int peer) {
    for (size_t i = 0; i < n; i++) {
        if (b[i] != pattern(i, seed)) {
            CHECK(0, "%s peer %d size %zu: byte %zu is 0x%02x, want 0x%02x", what, peer, n, i, b[i],
                  pattern(i, seed));
            return 0;
        }
    }
    for (size_t i = 0; i < GUARD; i++) {
        if (b[n + i] != 0xC5) {
            CHECK(0, "%s peer %d size %zu: guard byte %zu past the end overwritten (0x%02x)", what, peer, n,
                  i, b[n + i]);
            return 0;
        }
    }
    return 1;
}

static void expect_status(const MPI_Status *st, int src, int tag, size_t n, const char *what) {
    int count = -1;
    CHECK(st->MPI_SOURCE == src, "%s size %zu: status source %d, want %d", what, n, st->MPI_SOURCE, src);
    CHECK(st->MPI_TAG == tag, "%s size %zu: status tag %d, want %d", what, n, st->MPI_TAG, tag);
    CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK(count == (int)n, "%s size %zu: MPI_Get_count %d", what, n, count);
}

static int nsizes;
static size_t sizes[128];

static void add_size(size_t n) {
    if (n <= MAXSIZE)
        sizes[nsizes++] = n;
}

int main(int argc, char **argv) {
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;

    add_size(0);
    for (size_t p = 1; p <= MAXSIZE; p <<= 1) {
        add_size(p);
        if (p >= 4) {
            add_size(p - 1);
            add_size(p + 1);
        }
    }
    add_size(3);
    add_size(MAXSIZE - 1);

    unsigned char *sbuf = malloc(MAXSIZE + GUARD), *rbuf = malloc(MAXSIZE + GUARD);
    if (sbuf == NULL || rbuf == NULL) {
        fprintf(stderr, "TEST-FAIL: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    for (int peer = 1; peer < size; peer++) {
        if (rank != 0 && rank != peer)
            continue;
        int other = rank == 0 ? peer : 0;
        for (int k = 0; k < nsizes; k++) {
            size_t n = sizes[k];
            int iters = n <= 65536 ? 10 : n <= (4 << 20) ? 3 : 1;
            for (int it = 0; it < iters; it++) {
                unsigned seed = (unsigned)(k * 1000 + it * 10 + peer);
                int tag = k * 16 + it;
                MPI_Status st;
                memset(rbuf, 0xC5, n + GUARD);
                if (rank == 0) {
                    fill(sbuf, n, seed);
                    CHECK_MPI(MPI_Send(sbuf, (int)n, MPI_BYTE, other, tag, MPI_COMM_WORLD));
                    CHECK_MPI(MPI_Recv(rbuf, (int)n, MPI_BYTE, other, tag + 1, MPI_COMM_WORLD, &st));
                    expect_status(&st, other, tag + 1, n, "pong");
                    verify(rbuf, n, seed + 7, "pong", other);
                } else {
                    CHECK_MPI(MPI_Recv(rbuf, (int)n, MPI_BYTE, other, tag, MPI_COMM_WORLD, &st));
                    expect_status(&st, other, tag, n, "ping");
                    verify(rbuf, n, seed, "ping", other);
                    fill(sbuf, n, seed + 7);
                    CHECK_MPI(MPI_Send(sbuf, (int)n, MPI_BYTE, other, tag + 1, MPI_COMM_WORLD));
                }
                if (check_failures > 20)
                    MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
    }

    free(sbuf);
    free(rbuf);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
