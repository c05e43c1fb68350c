//go:build ignore

/* gompi-test: np=2,3,4 timeout=90 */
/* MPI_Sendrecv and MPI_Sendrecv_replace in ring shifts by every distance, for
 * sizes from 0 to 16 MiB (powers of two and odd sizes), where everybody sends
 * and receives at once (a blocking send would deadlock): send and receive
 * sizes and tags differ, the receive side sometimes uses wildcards, and data
 * and status are checked. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define MAXSIZE (16 << 20)

static int rank, size;

static inline unsigned char pat(size_t i, unsigned seed) {
    uint32_t x = (uint32_t)i * 2654435761u ^ seed * 0x9e3779b9u;
    return (unsigned char)(x >> 16 ^ x >> 7);
}

static void fill(unsigned char *b, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        b[i] = pat(i, seed);
}

static void verify(const unsigned char *b, size_t n, unsigned seed, const MPI_Status *st, int src, int tag,
                   const char *what, int dist) {
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag && count == (int)n,
          "%s shift %d size %zu: status source %d tag %d count %d, want %d %d %zu", what, dist, n, st->MPI_SOURCE,
          st->MPI_TAG, count, src, tag, n);
    for (size_t i = 0; i < n; i++)
        if (b[i] != pat(i, seed)) {
            CHECK(0, "%s shift %d size %zu: byte %zu is 0x%02x, want 0x%02x", what, dist, n, i, b[i], pat(i, seed));
            break;
        }
    if (check_failures > 20)
        MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    unsigned char *s = malloc(MAXSIZE + 64), *r = malloc(MAXSIZE + 64);
    size_t sizes[80];
    int ns = 0;
    sizes[ns++] = 0;
    for (size_t p = 1; p <= MAXSIZE; p <<= 1) {
        sizes[ns++] = p;
        if (p >= 4 && p < MAXSIZE)
            sizes[ns++] = p + p / 2 + 1;
    }

    for (int dist = 1; dist < size; dist++) {
        int to = (rank + dist) % size, from = (rank + size - dist) % size;
        for (int k = 0; k < ns; k++) {
            /* Each rank sends a size derived from its own rank, so neighbours' sizes differ. */
            size_t nsend = sizes[(k + rank) % ns], nrecv = sizes[(k + from) % ns];
            unsigned sseed = (unsigned)(rank * 7919 + k * 31 + dist), rseed = (unsigned)(from * 7919 + k * 31 + dist);
            int stag = 100 + rank, rtag = 100 + from;
            MPI_Status st;

            fill(s, nsend, sseed);
            memset(r, 0, nrecv + 64);
            /* Wildcards are safe: in this phase only `from` sends here, in order. */
            int rsrc = k % 3 == 1 ? MPI_ANY_SOURCE : from, rtg = k % 3 == 2 ? MPI_ANY_TAG : rtag;
            /* The receive buffer is larger than the message. */
            CHECK_MPI(MPI_Sendrecv(s, (int)nsend, MPI_BYTE, to, stag, r, (int)nrecv + 64, MPI_BYTE, rsrc, rtg,
                                   MPI_COMM_WORLD, &st));
            verify(r, nrecv, rseed, &st, from, rtag, "Sendrecv", dist);

            /* Sendrecv_replace: the same size both ways (the buffer's size). */
            size_t n = sizes[k];
            fill(r, n, sseed + 1);
            CHECK_MPI(MPI_Sendrecv_replace(r, (int)n, MPI_BYTE, to, 7, from, 7, MPI_COMM_WORLD, &st));
            verify(r, n, rseed + 1, &st, from, 7, "Sendrecv_replace", dist);
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }

    free(s);
    free(r);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
