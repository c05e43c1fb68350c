//go:build ignore

/* gompi-test: np=2,3,4 timeout=90 */
/* Probe, Iprobe, Mprobe, Improbe, Mrecv and Imrecv. A probe does not remove a
 * message and its status gives source, tag and count (also for rendezvous
 * sizes, and MPI_UNDEFINED for a size that is not a whole number of ints); a
 * receive of the probed source and tag gets the probed message; a matched
 * (mprobe'd) message cannot be taken by any other receive. Then all other
 * ranks send random messages to rank 0, which finds each one with a wildcard
 * probe of some kind and receives exactly that message. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

static int rank, size;

/* Message payload: int32 header (src, seq, tag, len), then a pattern. */
static void fill(unsigned char *b, int len, int src, int seq, int tag) {
    int32_t h[4] = {src, seq, tag, len};
    for (int i = 16; i < len; i++)
        b[i] = (unsigned char)(i ^ seq * 3 ^ src * 5);
    memcpy(b, h, sizeof h);
}

/* check_payload returns the seq of a received message after checking it. */
static int check_payload(const unsigned char *b, int len, int src, int tag, const char *what) {
    int32_t h[4];
    if (len < 16) {
        CHECK(0, "%s: message of %d bytes", what, len);
        return -1;
    }
    memcpy(h, b, sizeof h);
    CHECK(h[0] == src && h[2] == tag && h[3] == len, "%s: payload says src %d tag %d len %d, status %d %d %d",
          what, h[0], h[2], h[3], src, tag, len);
    for (int i = 16; i < len; i++)
        if (b[i] != (unsigned char)(i ^ h[1] * 3 ^ h[0] * 5)) {
            CHECK(0, "%s: byte %d of %d wrong", what, i, len);
            break;
        }
    return h[1];
}

static int count_of(const MPI_Status *st, MPI_Datatype dt) {
    int c = -7;
    CHECK_MPI(MPI_Get_count(st, dt, &c));
    return c;
}

/* basics runs between rank 0 (receiver) and rank 1 (sender). */
static void basics(void) {
    static unsigned char a[1 << 20], b[1 << 20];
    const int lens[] = {16, 17, 4000, 16384 + 7, 1 << 20};
    for (int k = 0; k < 5; k++) {
        int len = lens[k];
        if (rank == 1) {
            fill(a, len, 1, k, 30 + k);
            CHECK_MPI(MPI_Send(a, len, MPI_BYTE, 0, 30 + k, MPI_COMM_WORLD));
            fill(a, len, 1, 100 + k, 30 + k);
            CHECK_MPI(MPI_Send(a, len, MPI_BYTE, 0, 30 + k, MPI_COMM_WORLD));
        } else if (rank == 0) {
            MPI_Status st, st2;
            int flag = 0;
            CHECK_MPI(MPI_Probe(1, 30 + k, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_SOURCE == 1 && st.MPI_TAG == 30 + k, "Probe: source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
            CHECK(count_of(&st, MPI_BYTE) == len, "Probe: count %d, want %d", count_of(&st, MPI_BYTE), len);
            int ints = count_of(&st, MPI_INT);
            CHECK(ints == (len % 4 ? MPI_UNDEFINED : len / 4), "Probe: count in MPI_INT %d for %d bytes", ints, len);
            MPI_Count elems = -1;
            CHECK_MPI(MPI_Get_elements_x(&st, MPI_BYTE, &elems));
            CHECK(elems == len, "Probe: Get_elements_x %lld", (long long)elems);
            /* Probing again finds the same message: it was not removed. */
            CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st2));
            CHECK(flag && st2.MPI_SOURCE == 1 && st2.MPI_TAG == 30 + k && count_of(&st2, MPI_BYTE) == len,
                  "second Iprobe: flag %d source %d tag %d count %d", flag, st2.MPI_SOURCE, st2.MPI_TAG,
                  count_of(&st2, MPI_BYTE));
            CHECK_MPI(MPI_Recv(b, len, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st2));
            CHECK(check_payload(b, len, 1, 30 + k, "Recv after Probe") == k, "Recv after Probe got another message");

            /* Mprobe the second message, then a receive for the same source and
             * tag must not get it; the mprobed one arrives by Mrecv. */
            MPI_Message msg = MPI_MESSAGE_NULL;
            CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, 30 + k, MPI_COMM_WORLD, &msg, &st));
            CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC, "Mprobe gave message handle %d", (int)msg);
            CHECK(st.MPI_SOURCE == 1 && count_of(&st, MPI_BYTE) == len, "Mprobe: source %d count %d", st.MPI_SOURCE,
                  count_of(&st, MPI_BYTE));
            flag = 1;
            CHECK_MPI(MPI_Iprobe(1, 30 + k, MPI_COMM_WORLD, &flag, &st2));
            CHECK(!flag, "Iprobe after Mprobe still sees the matched message");
            memset(b, 0, (size_t)len);
            CHECK_MPI(MPI_Mrecv(b, len, MPI_BYTE, &msg, &st2));
            CHECK(msg == MPI_MESSAGE_NULL, "Mrecv left message handle %d", (int)msg);
            CHECK(st2.MPI_SOURCE == 1 && st2.MPI_TAG == 30 + k && count_of(&st2, MPI_BYTE) == len,
                  "Mrecv status: source %d tag %d count %d", st2.MPI_SOURCE, st2.MPI_TAG, count_of(&st2, MPI_BYTE));
            CHECK(check_payload(b, len, 1, 30 + k, "Mrecv") == 100 + k, "Mrecv got another message");
        }
    }
    /* Iprobe and Improbe with nothing to find. */
    if (rank == 0) {
        int flag = 1;
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, &st));
        CHECK(!flag, "Iprobe found a message that was never sent");
        flag = 1;
        CHECK_MPI(MPI_Improbe(1, 77, MPI_COMM_WORLD, &flag, &msg, &st));
        CHECK(!flag, "Improbe found a message that was never sent");
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* no_steal: rank 1 sends A then B with one tag; rank 0 mprobes A, posts a
 * wildcard receive, which must get B; Mrecv/Imrecv then get A. */
static void no_steal(void) {
    static unsigned char a[300000], b[300000], c[300000];
    const int lens[][2] = {{16, 16}, {16, 300000}, {300000, 16}, {300000, 300000}, {20000, 40}};
    for (int k = 0; k < 5; k++) {
        int la = lens[k][0], lb = lens[k][1];
        if (rank == 1) {
            /* Nonblocking: A may not complete before B is received. */
            MPI_Request r[2];
            MPI_Status sts[2];
            fill(a, la, 1, 0, 50);
            CHECK_MPI(MPI_Isend(a, la, MPI_BYTE, 0, 50, MPI_COMM_WORLD, &r[0]));
            fill(c, lb, 1, 1, 50);
            CHECK_MPI(MPI_Isend(c, lb, MPI_BYTE, 0, 50, MPI_COMM_WORLD, &r[1]));
            CHECK_MPI(MPI_Waitall(2, r, sts));
        } else if (rank == 0) {
            MPI_Message msg;
            MPI_Status st, st2;
            MPI_Request req;
            int flag = 0;
            if (k % 2 == 0) {
                CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st));
            } else {
                while (!flag)
                    CHECK_MPI(MPI_Improbe(1, 50, MPI_COMM_WORLD, &flag, &msg, &st));
            }
            CHECK(count_of(&st, MPI_BYTE) == la, "no_steal %d: matched count %d, want %d", k, count_of(&st, MPI_BYTE),
                  la);
            CHECK_MPI(MPI_Irecv(c, (int)sizeof c, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Wait(&req, &st2));
            CHECK(count_of(&st2, MPI_BYTE) == lb, "no_steal %d: receive after Mprobe got %d bytes, want B's %d", k,
                  count_of(&st2, MPI_BYTE), lb);
            CHECK(check_payload(c, lb, 1, 50, "receive after Mprobe") == 1, "no_steal %d: it got A", k);
            if (k % 2 == 0) {
                CHECK_MPI(MPI_Mrecv(b, la, MPI_BYTE, &msg, &st2));
            } else {
                CHECK_MPI(MPI_Imrecv(b, la, MPI_BYTE, &msg, &req));
                CHECK(msg == MPI_MESSAGE_NULL, "Imrecv left message handle %d", (int)msg);
                CHECK_MPI(MPI_Wait(&req, &st2));
            }
            CHECK(count_of(&st2, MPI_BYTE) == la && st2.MPI_SOURCE == 1 && st2.MPI_TAG == 50,
                  "no_steal %d: M/Imrecv status count %d source %d tag %d", k, count_of(&st2, MPI_BYTE),
                  st2.MPI_SOURCE, st2.MPI_TAG);
            CHECK(check_payload(b, la, 1, 50, "Mrecv of A") == 0, "no_steal %d: Mrecv did not get A", k);
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* races: every other rank sends NR random messages to rank 0; rank 0 finds
 * each with a wildcard probe (4 kinds in turn), allocates what the status
 * says, and receives that message; per source the sequence must ascend. */
#define NR 300
static int rand_len(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    unsigned r = (*s >> 8) % 100;
    unsigned v = *s >> 4;
    if (r < 5)
        return 16 + (int)(v % 400000);
    if (r < 20)
        return 16 + (int)(v % 40000);
    return 16 + (int)(v % 300);
}

static void races(void) {
    if (rank != 0) {
        unsigned seed = (unsigned)rank * 7777u;
        unsigned char *a = malloc(400016);
        for (int i = 0; i < NR; i++) {
            int len = rand_len(&seed);
            int tag = (int)(seed >> 3) % 4;
            fill(a, len, rank, i, tag);
            if (i % 3 == 0)
                CHECK_MPI(MPI_Ssend(a, len, MPI_BYTE, 0, tag, MPI_COMM_WORLD));
            else
                CHECK_MPI(MPI_Send(a, len, MPI_BYTE, 0, tag, MPI_COMM_WORLD));
        }
        free(a);
    } else {
        int next[64] = {0};
        for (int i = 0; i < NR * (size - 1); i++) {
            MPI_Status st, st2;
            MPI_Message msg = MPI_MESSAGE_NULL;
            int flag = 0, kind = i % 4;
            switch (kind) {
            case 0:
                CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                break;
            case 1:
                while (!flag)
                    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
                break;
            case 2:
                CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st));
                break;
            case 3:
                while (!flag)
                    CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
                break;
            }
            int len = count_of(&st, MPI_BYTE);
            int src = st.MPI_SOURCE, tag = st.MPI_TAG;
            if (src < 1 || src >= size || len < 16) {
                CHECK(0, "probe #%d: source %d count %d", i, src, len);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            unsigned char *b = malloc((size_t)len);
            if (kind < 2) {
                CHECK_MPI(MPI_Recv(b, len, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st2));
            } else if (kind == 2) {
                CHECK_MPI(MPI_Mrecv(b, len, MPI_BYTE, &msg, &st2));
            } else {
                MPI_Request req;
                CHECK_MPI(MPI_Imrecv(b, len, MPI_BYTE, &msg, &req));
                CHECK_MPI(MPI_Wait(&req, &st2));
            }
            CHECK(st2.MPI_SOURCE == src && st2.MPI_TAG == tag && count_of(&st2, MPI_BYTE) == len,
                  "probe kind %d #%d: probed %d/%d/%d, received %d/%d/%d", kind, i, src, tag, len, st2.MPI_SOURCE,
                  st2.MPI_TAG, count_of(&st2, MPI_BYTE));
            int seq = check_payload(b, len, src, tag, "race");
            CHECK(seq == next[src], "probe kind %d: from %d got seq %d, want %d", kind, src, seq, next[src]);
            next[src] = seq + 1;
            free(b);
            if (check_failures > 20)
                MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    basics();
    no_steal();
    races();
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
