//go:build ignore

/* gompi-test: np=2,3,4 timeout=90 */
/* Every send mode (Send, Ssend, Rsend, Bsend, Isend, Issend, Irsend, Ibsend)
 * for sizes from 0 bytes to past the rendezvous threshold, between rank 0 and
 * each other rank in both directions, data checked byte for byte. Synchronous
 * sends must not complete before the receive is posted (not even after the
 * receiver probed the message); buffered sends must complete before it, with a
 * buffer of exactly sum(size + MPI_BSEND_OVERHEAD), and must have copied the
 * data (the user buffer is overwritten right after the call); ready sends go
 * to a pre-posted receive. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define TAG 5
#define SYNC 6
#define NBUF 4 /* buffered messages outstanding at once */

static int rank, size;
static const char *mode_names[] = {"Send", "Ssend", "Rsend", "Bsend", "Isend", "Issend", "Irsend", "Ibsend"};
static const int sizes[] = {0, 1, 7, 4096, 16383, 16385, 65539, 1 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define MAXN (1 << 20)

static inline unsigned char pat(size_t i, unsigned seed) {
    return (unsigned char)((i * 2654435761u) >> 11 ^ seed * 77u ^ (i >> 10));
}

static void fill(unsigned char *b, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        b[i] = pat(i, seed);
}

static void verify(const unsigned char *b, const MPI_Status *st, int src, size_t n, unsigned seed, const char *mode) {
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == TAG && count == (int)n,
          "%s size %zu from %d: status source %d tag %d count %d", mode, n, src, st->MPI_SOURCE, st->MPI_TAG,
          count);
    for (size_t i = 0; i < n; i++) {
        if (b[i] != pat(i, seed)) {
            CHECK(0, "%s size %zu from %d: byte %zu is 0x%02x, want 0x%02x", mode, n, src, i, b[i], pat(i, seed));
            return;
        }
    }
}

static void token_send(int peer) { CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, SYNC, MPI_COMM_WORLD)); }
static void token_recv(int peer) { CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE)); }

/* not_done tests req for a while (yielding the core) and checks it stays incomplete. */
static void not_done(MPI_Request *req, const char *what, int n) {
    for (int i = 0; i < 100; i++) {
        int flag = 1;
        MPI_Status st;
        CHECK_MPI(MPI_Test(req, &flag, &st));
        if (flag) {
            CHECK(0, "Issend of %d bytes completed %s", n, what);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        usleep(100);
    }
}

static unsigned char *sbuf, *rbuf[NBUF], *bsendbuf;

/* one runs mode m for n bytes from s to r; seed makes the data unique. */
static void one(int m, int n, int s, int r, unsigned seed) {
    const char *name = mode_names[m];
    MPI_Request req;
    MPI_Status st;
    if (rank == s) {
        fill(sbuf, (size_t)n, seed);
        switch (m) {
        case 0:
            CHECK_MPI(MPI_Send(sbuf, n, MPI_BYTE, r, TAG, MPI_COMM_WORLD));
            break;
        case 4:
            CHECK_MPI(MPI_Isend(sbuf, n, MPI_BYTE, r, TAG, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Wait(&req, &st));
            CHECK(req == MPI_REQUEST_NULL, "Wait left the request");
            break;
        case 1:
            CHECK_MPI(MPI_Ssend(sbuf, n, MPI_BYTE, r, TAG, MPI_COMM_WORLD));
            break;
        case 5:
            CHECK_MPI(MPI_Issend(sbuf, n, MPI_BYTE, r, TAG, MPI_COMM_WORLD, &req));
            not_done(&req, "before the receiver posted a receive", n);
            token_send(r); /* the receiver may probe now */
            token_recv(r); /* it has probed the message */
            not_done(&req, "after the receiver only probed it", n);
            token_send(r); /* the receiver may receive now */
            CHECK_MPI(MPI_Wait(&req, &st));
            break;
        case 2:
        case 6:
            token_recv(r); /* the receive is posted */
            if (m == 2) {
                CHECK_MPI(MPI_Rsend(sbuf, n, MPI_BYTE, r, TAG, MPI_COMM_WORLD));
            } else {
                CHECK_MPI(MPI_Irsend(sbuf, n, MPI_BYTE, r, TAG, MPI_COMM_WORLD, &req));
                CHECK_MPI(MPI_Wait(&req, &st));
            }
            break;
        case 3:
        case 7: {
            /* Exactly enough buffer for NBUF messages of n bytes. */
            int bsize = NBUF * (n + MPI_BSEND_OVERHEAD);
            CHECK_MPI(MPI_Buffer_attach(bsendbuf, bsize));
            for (int k = 0; k < NBUF; k++) {
                fill(sbuf, (size_t)n, seed + (unsigned)k);
                if (m == 3) {
                    CHECK_MPI(MPI_Bsend(sbuf, n, MPI_BYTE, r, TAG, MPI_COMM_WORLD));
                } else {
                    CHECK_MPI(MPI_Ibsend(sbuf, n, MPI_BYTE, r, TAG, MPI_COMM_WORLD, &req));
                    /* Buffered: completes with no receive posted. */
                    CHECK_MPI(MPI_Wait(&req, &st));
                }
                memset(sbuf, 0x5A, (size_t)n); /* the data must have been copied */
            }
            token_send(r); /* the receiver may post now */
            void *addr = NULL;
            int dsize = -1;
            CHECK_MPI(MPI_Buffer_detach(&addr, &dsize));
            CHECK(addr == bsendbuf && dsize == bsize, "Buffer_detach gave %p size %d, want %p size %d", addr, dsize,
                  (void *)bsendbuf, bsize);
            break;
        }
        }
    } else if (rank == r) {
        switch (m) {
        case 0:
        case 1:
            memset(rbuf[0], 0, (size_t)n);
            CHECK_MPI(MPI_Recv(rbuf[0], n, MPI_BYTE, s, TAG, MPI_COMM_WORLD, &st));
            verify(rbuf[0], &st, s, (size_t)n, seed, name);
            break;
        case 4:
            /* A late nonblocking receive. */
            memset(rbuf[0], 0, (size_t)n);
            CHECK_MPI(MPI_Irecv(rbuf[0], n, MPI_BYTE, s, TAG, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Wait(&req, &st));
            verify(rbuf[0], &st, s, (size_t)n, seed, name);
            break;
        case 5: {
            token_recv(s);
            CHECK_MPI(MPI_Probe(s, TAG, MPI_COMM_WORLD, &st));
            int count = -1;
            MPI_Get_count(&st, MPI_BYTE, &count);
            CHECK(count == n, "Probe of the Issend message: count %d, want %d", count, n);
            token_send(s);
            token_recv(s);
            memset(rbuf[0], 0, (size_t)n);
            CHECK_MPI(MPI_Recv(rbuf[0], n, MPI_BYTE, s, TAG, MPI_COMM_WORLD, &st));
            verify(rbuf[0], &st, s, (size_t)n, seed, name);
            break;
        }
        case 2:
        case 6:
            memset(rbuf[0], 0, (size_t)n);
            CHECK_MPI(MPI_Irecv(rbuf[0], n, MPI_BYTE, s, TAG, MPI_COMM_WORLD, &req));
            token_send(s);
            CHECK_MPI(MPI_Wait(&req, &st));
            verify(rbuf[0], &st, s, (size_t)n, seed, name);
            break;
        case 3:
        case 7:
            token_recv(s);
            for (int k = 0; k < NBUF; k++) {
                memset(rbuf[k], 0, (size_t)n);
                CHECK_MPI(MPI_Recv(rbuf[k], n, MPI_BYTE, s, TAG, MPI_COMM_WORLD, &st));
                verify(rbuf[k], &st, s, (size_t)n, seed + (unsigned)k, name);
            }
            break;
        }
    }
}

/* bsend_reuse: with one buffer attached, many rounds of buffered messages
 * reuse the space as earlier ones are delivered (the buffer holds only two). */
static void bsend_reuse(int s, int r) {
    int n = 1000;
    if (rank == s) {
        CHECK_MPI(MPI_Buffer_attach(bsendbuf, 2 * (n + MPI_BSEND_OVERHEAD)));
        for (int k = 0; k < 200; k++) {
            fill(sbuf, (size_t)n, 9000u + (unsigned)k);
            CHECK_MPI(MPI_Bsend(sbuf, n, MPI_BYTE, r, TAG, MPI_COMM_WORLD));
            if (k % 2 == 1)
                token_recv(r); /* both earlier messages were received */
        }
        void *addr;
        int dsize;
        CHECK_MPI(MPI_Buffer_detach(&addr, &dsize));
    } else if (rank == r) {
        MPI_Status st;
        for (int k = 0; k < 200; k++) {
            CHECK_MPI(MPI_Recv(rbuf[0], n, MPI_BYTE, s, TAG, MPI_COMM_WORLD, &st));
            verify(rbuf[0], &st, s, (size_t)n, 9000u + (unsigned)k, "Bsend reuse");
            if (k % 2 == 1)
                token_send(s);
        }
    }
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    sbuf = malloc(MAXN);
    for (int k = 0; k < NBUF; k++)
        rbuf[k] = malloc(MAXN);
    bsendbuf = malloc(NBUF * (MAXN + MPI_BSEND_OVERHEAD));

    for (int p = 1; p < size; p++) {
        if (rank != 0 && rank != p)
            continue;
        for (int dir = 0; dir < 2; dir++) {
            int s = dir == 0 ? 0 : p, r = dir == 0 ? p : 0;
            for (int m = 0; m < 8; m++)
                for (int k = 0; k < NSIZES; k++) {
                    one(m, sizes[k], s, r, (unsigned)(p * 1000 + dir * 500 + m * 50 + k));
                    if (check_failures > 20)
                        MPI_Abort(MPI_COMM_WORLD, 1);
                }
            bsend_reuse(s, r);
        }
    }

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    free(bsendbuf);
    for (int k = 0; k < NBUF; k++)
        free(rbuf[k]);
    free(sbuf);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
