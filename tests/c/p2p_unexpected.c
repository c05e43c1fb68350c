//go:build ignore

/* gompi-test: np=2,3,4 timeout=120 */
/* 10,000 messages that are all unexpected: every rank sends them (nonblocking,
 * 100 tags, small, near-eager-limit and rendezvous sizes) to the next rank
 * and then a synchronous marker; the receiver takes the marker first, which
 * by non-overtaking means everything before it sits in its unexpected queue.
 * It then receives tag by tag in reverse order (wildcards for the last tag)
 * and checks per-tag order, status and every byte. Then a fan-in of
 * unexpected messages from every rank to rank 0, received with wildcards. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define NMSG 10000
#define NTAG 100
#define MARKER 1000

static int rank, size;

static size_t msg_size(int seq) {
    if (seq % 1000 == 999)
        return (200 << 10) + (size_t)seq;
    if (seq % 100 == 42)
        return (4 << 10) + (size_t)seq * 3;
    return (size_t)(seq * 37) % 257;
}

static inline unsigned char pat(size_t i, int src, int seq) {
    return (unsigned char)(i * 7 + (size_t)seq * 131 + (size_t)src * 17 + (i >> 8));
}

static int tag_of(int seq) { return (seq * 7) % NTAG; }

/* fan_in: every other rank sends 4000 small messages to rank 0, then a
 * synchronous marker; rank 0 takes the markers first and then everything with
 * MPI_ANY_SOURCE/MPI_ANY_TAG: per source the sequence must be in order. */
#define NFAN 4000
static void fan_in(void) {
    static int32_t buf[NFAN][2];
    if (rank == 0) {
        MPI_Status st;
        int nextseq[64] = {0}, v;
        for (int s = 1; s < size; s++)
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, s, MARKER, MPI_COMM_WORLD, &st));
        for (int i = 0; i < NFAN * (size - 1); i++) {
            int32_t m[2] = {-1, -1};
            CHECK_MPI(MPI_Recv(m, 2, MPI_INT32_T, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            if (m[0] < 1 || m[0] >= size || st.MPI_SOURCE != m[0] || st.MPI_TAG != m[1] % 50) {
                CHECK(0, "fan-in #%d: payload (%d, %d), status source %d tag %d", i, m[0], m[1], st.MPI_SOURCE,
                      st.MPI_TAG);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            CHECK(m[1] == nextseq[m[0]], "fan-in from %d: seq %d, want %d", m[0], m[1], nextseq[m[0]]);
            nextseq[m[0]] = m[1] + 1;
        }
    } else {
        static MPI_Request r[NFAN];
        for (int i = 0; i < NFAN; i++) {
            buf[i][0] = rank;
            buf[i][1] = i;
            CHECK_MPI(MPI_Isend(buf[i], 2, MPI_INT32_T, 0, i % 50, MPI_COMM_WORLD, &r[i]));
        }
        CHECK_MPI(MPI_Ssend(&rank, 1, MPI_INT, 0, MARKER, MPI_COMM_WORLD));
        for (int i = 0; i < NFAN; i++)
            CHECK_MPI(MPI_Wait(&r[i], MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    size_t *off = malloc(sizeof *off * (NMSG + 1));
    off[0] = 0;
    for (int i = 0; i < NMSG; i++)
        off[i + 1] = off[i] + msg_size(i);
    unsigned char *sbuf = malloc(off[NMSG] + 1);
    unsigned char *rbuf = malloc((256 << 10) + 64);
    MPI_Request *req = malloc(sizeof *req * NMSG);
    for (int i = 0; i < NMSG; i++) {
        for (size_t j = 0; j < msg_size(i); j++)
            sbuf[off[i] + j] = pat(j, rank, i);
        CHECK_MPI(MPI_Isend(sbuf + off[i], (int)msg_size(i), MPI_BYTE, next, tag_of(i), MPI_COMM_WORLD, &req[i]));
    }
    int mine = rank, theirs = -1;
    MPI_Request mreq;
    MPI_Status st;
    CHECK_MPI(MPI_Issend(&mine, 1, MPI_INT, next, MARKER, MPI_COMM_WORLD, &mreq));
    CHECK_MPI(MPI_Recv(&theirs, 1, MPI_INT, prev, MARKER, MPI_COMM_WORLD, &st));
    CHECK(theirs == prev && st.MPI_SOURCE == prev && st.MPI_TAG == MARKER, "marker: value %d source %d tag %d",
          theirs, st.MPI_SOURCE, st.MPI_TAG);
    CHECK_MPI(MPI_Wait(&mreq, &st));

    /* Everything from prev is queued now: Iprobe must see the first message of every tag. */
    for (int t = 0; t < NTAG; t++) {
        int flag = 0;
        CHECK_MPI(MPI_Iprobe(prev, t, MPI_COMM_WORLD, &flag, &st));
        CHECK(flag && st.MPI_SOURCE == prev && st.MPI_TAG == t, "Iprobe tag %d after the marker: flag %d", t, flag);
    }

    int got = 0;
    for (int t = NTAG - 1; t >= 0; t--) {
        int k = 0;
        for (int seq = 0; seq < NMSG; seq++) {
            if (tag_of(seq) != t)
                continue;
            /* Tag 0 comes last, when only its messages are left: there some
             * receives use MPI_ANY_TAG, with prev or MPI_ANY_SOURCE (only prev
             * sends to this rank). */
            int rtag = t == 0 && k % 2 == 1 ? MPI_ANY_TAG : t;
            int rsrc = t == 0 && k % 4 == 3 ? MPI_ANY_SOURCE : prev;
            size_t n = msg_size(seq);
            memset(rbuf, 0xEE, n + 64);
            CHECK_MPI(MPI_Recv(rbuf, (256 << 10), MPI_BYTE, rsrc, rtag, MPI_COMM_WORLD, &st));
            int count = -1;
            MPI_Get_count(&st, MPI_BYTE, &count);
            CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == t && count == (int)n,
                  "seq %d tag %d: status source %d tag %d count %d, want size %zu", seq, t, st.MPI_SOURCE, st.MPI_TAG,
                  count, n);
            for (size_t j = 0; j < n; j++) {
                if (rbuf[j] != pat(j, prev, seq)) {
                    CHECK(0, "seq %d tag %d: byte %zu of %zu is 0x%02x, want 0x%02x", seq, t, j, n, rbuf[j],
                          pat(j, prev, seq));
                    break;
                }
            }
            CHECK(rbuf[n] == 0xEE, "seq %d: byte past the message overwritten", seq);
            got++;
            k++;
            if (check_failures > 20)
                MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    CHECK(got == NMSG, "received %d messages", got);
    int flag = 1;
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK(!flag, "a message is left over: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    MPI_Status *sts = malloc(sizeof *sts * NMSG);
    CHECK_MPI(MPI_Waitall(NMSG, req, sts));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    fan_in();

    free(sts);
    free(req);
    free(sbuf);
    free(rbuf);
    free(off);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
