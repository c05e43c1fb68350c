//go:build ignore

/* gompi-test: np=2,3,4 timeout=120 */
/* Non-overtaking: every rank sends 2000 messages on one tag to every other
 * rank, in bursts of nonblocking sends (some synchronous) mixing small, eager
 * and rendezvous sizes; the receives are pre-posted, posted late, or blocking.
 * The n-th receive posted for a source must get the n-th message sent by it:
 * each payload carries its sequence number and is checked byte for byte. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define NMSG 2000
#define BURST 100
#define TAG 7
#define PAD 4096

static int rank, size;

/* msg_size is the length of message seq from src to dst: mostly small, every
 * 7th around the eager limit, every 97th large enough for rendezvous. */
static size_t msg_size(int src, int dst, int seq) {
    uint32_t h = (uint32_t)(seq * 7919 + src * 104729 + dst * 1299709);
    h ^= h >> 13;
    h *= 2654435761u;
    h ^= h >> 16;
    if (seq % 97 == 0)
        return (128 << 10) + h % (900 << 10);
    if (seq % 7 == 0)
        return (12 << 10) + h % (56 << 10);
    return 16 + h % 2000;
}

static inline unsigned char pat(size_t i, int src, int seq) {
    return (unsigned char)((i * 31) ^ (size_t)(seq * 13) ^ (size_t)(src * 101) ^ (i >> 9));
}

/* fill writes the header (seq, src, dst, size) and the pattern. */
static void fill(unsigned char *b, int src, int dst, int seq) {
    size_t n = msg_size(src, dst, seq);
    int32_t hdr[4] = {seq, src, dst, (int32_t)n};
    for (size_t i = 16; i < n; i++)
        b[i] = pat(i, src, seq);
    memcpy(b, hdr, sizeof hdr);
}

static void verify(const unsigned char *b, const MPI_Status *st, int src, int seq, int mode) {
    size_t n = msg_size(src, rank, seq);
    int32_t hdr[4];
    int count = -1;
    memcpy(hdr, b, sizeof hdr);
    MPI_Get_count(st, MPI_BYTE, &count);
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == TAG, "mode %d seq %d from %d: status source %d tag %d",
          mode, seq, src, st->MPI_SOURCE, st->MPI_TAG);
    if (hdr[0] != seq || hdr[1] != src || hdr[2] != rank) {
        CHECK(0, "mode %d: receive #%d from %d got message seq %d src %d dst %d (out of order or lost)", mode,
              seq, src, hdr[0], hdr[1], hdr[2]);
        return;
    }
    CHECK(count == (int)n && hdr[3] == (int32_t)n, "mode %d seq %d from %d: count %d, header size %d, want %zu",
          mode, seq, src, count, hdr[3], n);
    for (size_t i = 16; i < n; i++) {
        if (b[i] != pat(i, src, seq)) {
            CHECK(0, "mode %d seq %d from %d size %zu: byte %zu is 0x%02x, want 0x%02x", mode, seq, src, n, i,
                  b[i], pat(i, src, seq));
            return;
        }
    }
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;

    int npeers = size - 1;
    int nreq = 2 * BURST * npeers;
    unsigned char **sbuf = calloc((size_t)BURST * npeers, sizeof *sbuf);
    unsigned char **rbuf = calloc((size_t)BURST * npeers, sizeof *rbuf);
    MPI_Request *req = malloc(sizeof *req * nreq);
    MPI_Status *sts = malloc(sizeof *sts * nreq);

    for (int b0 = 0; b0 < NMSG; b0 += BURST) {
        int mode = (b0 / BURST) % 3; /* 0: receives first, 1: sends first, 2: blocking receives */
        int nr = 0;
        /* slot (p, k): peer index p, message b0+k */
        for (int p = 0; p < npeers; p++) {
            int peer = (rank + 1 + p) % size;
            for (int k = 0; k < BURST; k++) {
                int seq = b0 + k;
                free(sbuf[p * BURST + k]);
                free(rbuf[p * BURST + k]);
                sbuf[p * BURST + k] = malloc(msg_size(rank, peer, seq));
                rbuf[p * BURST + k] = malloc(msg_size(peer, rank, seq) + PAD);
                fill(sbuf[p * BURST + k], rank, peer, seq);
                memset(rbuf[p * BURST + k], 0, 16);
            }
        }
        if (mode == 0) {
            for (int k = 0; k < BURST; k++)
                for (int p = 0; p < npeers; p++) {
                    int peer = (rank + 1 + p) % size;
                    CHECK_MPI(MPI_Irecv(rbuf[p * BURST + k], (int)msg_size(peer, rank, b0 + k) + PAD, MPI_BYTE,
                                        peer, TAG, MPI_COMM_WORLD, &req[nr++]));
                }
        }
        /* Interleave destinations so each peer's messages are spread over the burst. */
        for (int k = 0; k < BURST; k++)
            for (int p = 0; p < npeers; p++) {
                int peer = (rank + 1 + p) % size;
                int seq = b0 + k;
                int n = (int)msg_size(rank, peer, seq);
                if (seq % 5 == 0)
                    CHECK_MPI(MPI_Issend(sbuf[p * BURST + k], n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[nr++]));
                else
                    CHECK_MPI(MPI_Isend(sbuf[p * BURST + k], n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[nr++]));
            }
        if (mode == 1) {
            for (int p = 0; p < npeers; p++)
                for (int k = 0; k < BURST; k++) {
                    int peer = (rank + 1 + p) % size;
                    CHECK_MPI(MPI_Irecv(rbuf[p * BURST + k], (int)msg_size(peer, rank, b0 + k) + PAD, MPI_BYTE,
                                        peer, TAG, MPI_COMM_WORLD, &req[nr++]));
                }
        }
        if (mode == 2) {
            for (int k = 0; k < BURST; k++)
                for (int p = 0; p < npeers; p++) {
                    int peer = (rank + 1 + p) % size;
                    MPI_Status st;
                    CHECK_MPI(MPI_Recv(rbuf[p * BURST + k], (int)msg_size(peer, rank, b0 + k) + PAD, MPI_BYTE,
                                       peer, TAG, MPI_COMM_WORLD, &st));
                    verify(rbuf[p * BURST + k], &st, peer, b0 + k, mode);
                }
        }
        CHECK_MPI(MPI_Waitall(nr, req, sts));
        for (int i = 0; i < nr; i++)
            CHECK(req[i] == MPI_REQUEST_NULL, "request %d not freed by Waitall", i);
        if (mode != 2) {
            /* Receive requests: mode 0 posted them in (k, p) order, mode 1 in (p, k) order. */
            int ri = mode == 0 ? 0 : nr - BURST * npeers;
            for (int i = 0; i < BURST * npeers; i++) {
                int k = mode == 0 ? i / npeers : i % BURST;
                int p = mode == 0 ? i % npeers : i / BURST;
                int peer = (rank + 1 + p) % size;
                verify(rbuf[p * BURST + k], &sts[ri + i], peer, b0 + k, mode);
            }
        }
        if (check_failures > 20)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }

    for (int i = 0; i < BURST * npeers; i++) {
        free(sbuf[i]);
        free(rbuf[i]);
    }
    free(sbuf);
    free(rbuf);
    free(req);
    free(sts);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
