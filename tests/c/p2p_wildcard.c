//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* MPI_ANY_SOURCE and MPI_ANY_TAG receives mixed with specific ones: status
 * fields name the real source and tag, a message goes to the earliest posted
 * receive it matches (wildcard or not), and each source's messages are
 * received in the order sent even when tags differ and the receive is a
 * wildcard, for pre-posted and unexpected messages alike. */
#include <mpi.h>
#include <string.h>

#include "check.h"

/* gcc sees MPI_STATUSES_IGNORE as a too-small array; it is a sentinel. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

static int rank, size;

/* msg is what every message of this test carries. */
typedef struct {
    int src, seq, tag, id;
} msg;

static void send_msg(int dst, int tag, int seq, int id) {
    msg m = {rank, seq, tag, id};
    CHECK_MPI(MPI_Send(&m, (int)sizeof m, MPI_BYTE, dst, tag, MPI_COMM_WORLD));
}

/* check_msg checks that status and payload agree and returns the payload. */
static msg check_msg(const msg *m, const MPI_Status *st, const char *what) {
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    CHECK(count == (int)sizeof *m, "%s: count %d", what, count);
    CHECK(st->MPI_SOURCE == m->src, "%s: status source %d, payload from %d", what, st->MPI_SOURCE, m->src);
    CHECK(st->MPI_TAG == m->tag, "%s: status tag %d, payload tag %d", what, st->MPI_TAG, m->tag);
    return *m;
}

/* posting_order: one sender, receives pre-posted with a barrier before the
 * sends; each message must land in the first posted receive it matches. */
static void posting_order(void) {
    if (rank == 0) {
        MPI_Request r[8];
        MPI_Status st[8];
        msg m[8];
        memset(m, 0xff, sizeof m);
        /* Posted order and what each one must get (message ids sent by rank 1):
         *  r0 ANY_SOURCE tag 1 -> id 0 (first tag-1 message)
         *  r1 src 1 tag 1      -> id 1
         *  r2 src 1 ANY_TAG    -> id 2 (tag 2)
         *  r3 ANY ANY          -> id 3 (tag 3)
         *  r4 src 1 tag 5      -> id 4
         *  r5 ANY tag 5        -> id 5
         *  r6 ANY tag 6        -> id 6
         *  r7 src 1 tag 6      -> id 7 */
        int srcs[8] = {MPI_ANY_SOURCE, 1, 1, MPI_ANY_SOURCE, 1, MPI_ANY_SOURCE, MPI_ANY_SOURCE, 1};
        int tags[8] = {1, 1, MPI_ANY_TAG, MPI_ANY_TAG, 5, 5, 6, 6};
        for (int i = 0; i < 8; i++)
            CHECK_MPI(MPI_Irecv(&m[i], (int)sizeof m[i], MPI_BYTE, srcs[i], tags[i], MPI_COMM_WORLD, &r[i]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Waitall(8, r, st));
        int wanttag[8] = {1, 1, 2, 3, 5, 5, 6, 6};
        for (int i = 0; i < 8; i++) {
            char what[64];
            snprintf(what, sizeof what, "posting order r%d", i);
            check_msg(&m[i], &st[i], what);
            CHECK(m[i].id == i && m[i].src == 1 && m[i].tag == wanttag[i],
                  "posting order: receive r%d got message id %d (src %d tag %d), want id %d", i, m[i].id,
                  m[i].src, m[i].tag, i);
        }
    } else {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 1) {
            int tags[8] = {1, 1, 2, 3, 5, 5, 6, 6};
            for (int i = 0; i < 8; i++)
                send_msg(0, tags[i], i, i);
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* per_source_order: every other rank sends N messages with cycling tags to
 * rank 0, which receives them all with ANY_SOURCE/ANY_TAG (or ANY_TAG from a
 * chosen source, or ANY_SOURCE with a chosen tag); per source the sequence
 * numbers must come in order. Some messages are large enough for rendezvous. */
#define N 300
static void per_source_order(void) {
    static char big[256 << 10];
    if (rank == 0) {
        int next[16] = {0};
        int total = N * (size - 1);
        for (int i = 0; i < total; i++) {
            MPI_Status st;
            char what[64];
            CHECK_MPI(MPI_Recv(big, (int)sizeof big, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            msg m;
            memcpy(&m, big, sizeof m);
            int count = -1;
            MPI_Get_count(&st, MPI_BYTE, &count);
            CHECK(st.MPI_SOURCE == m.src && st.MPI_TAG == m.tag, "any/any #%d: status %d/%d, payload %d/%d", i,
                  st.MPI_SOURCE, st.MPI_TAG, m.src, m.tag);
            CHECK(m.src >= 1 && m.src < size, "any/any #%d: bad source %d", i, m.src);
            if (m.src < 1 || m.src >= size)
                continue;
            int want = m.seq % 37 == 0 ? (int)sizeof big : (int)sizeof m;
            CHECK(count == want, "any/any from %d seq %d: count %d, want %d", m.src, m.seq, count, want);
            snprintf(what, sizeof what, "any/any from %d", m.src);
            CHECK(m.seq == next[m.src], "%s: got seq %d (tag %d), want %d", what, m.seq, m.tag, next[m.src]);
            next[m.src] = m.seq + 1;
        }
    } else {
        for (int seq = 0; seq < N; seq++) {
            msg m = {rank, seq, seq % 11, 0};
            memcpy(big, &m, sizeof m);
            int n = seq % 37 == 0 ? (int)sizeof big : (int)sizeof m;
            CHECK_MPI(MPI_Send(big, n, MPI_BYTE, 0, m.tag, MPI_COMM_WORLD));
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* unexpected_mix: each sender sends tags 1..5 (one message each) and then a
 * marker; rank 0 probes the marker so all five are queued as unexpected, then
 * takes the marker and tag 3 from each source specifically, and the rest with
 * wildcards: per source tags 1, 2, 4, 5 in that order. */
static void unexpected_mix(void) {
    if (rank == 0) {
        MPI_Status st;
        for (int s = 1; s < size; s++)
            CHECK_MPI(MPI_Probe(s, 99, MPI_COMM_WORLD, &st));
        /* The markers (sent last) are taken first: a specific tag skips older messages. */
        for (int s = 1; s < size; s++) {
            msg m;
            CHECK_MPI(MPI_Recv(&m, (int)sizeof m, MPI_BYTE, s, 99, MPI_COMM_WORLD, &st));
            m = check_msg(&m, &st, "marker");
            CHECK(m.src == s && m.tag == 99, "marker receive (%d, 99) got src %d tag %d", s, m.src, m.tag);
        }
        for (int s = 1; s < size; s++) {
            msg m;
            CHECK_MPI(MPI_Recv(&m, (int)sizeof m, MPI_BYTE, s, 3, MPI_COMM_WORLD, &st));
            m = check_msg(&m, &st, "unexpected tag 3");
            CHECK(m.src == s && m.tag == 3, "specific receive (%d, 3) got src %d tag %d", s, m.src, m.tag);
        }
        int next[16];
        const int order[4] = {1, 2, 4, 5};
        memset(next, 0, sizeof next);
        for (int i = 0; i < 4 * (size - 1); i++) {
            msg m;
            /* Alternate full wildcards with ANY_TAG from a given source. */
            int src = i % 2 == 0 ? MPI_ANY_SOURCE : 1 + (i / 2) % (size - 1);
            if (src != MPI_ANY_SOURCE && next[src] == 4)
                src = MPI_ANY_SOURCE;
            CHECK_MPI(MPI_Recv(&m, (int)sizeof m, MPI_BYTE, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            m = check_msg(&m, &st, "unexpected wildcard");
            if (m.src < 1 || m.src >= size || next[m.src] >= 4) {
                CHECK(0, "unexpected wildcard: extra message from %d tag %d", m.src, m.tag);
                continue;
            }
            CHECK(src == MPI_ANY_SOURCE || m.src == src, "receive from %d got a message from %d", src, m.src);
            CHECK(m.tag == order[next[m.src]], "unexpected wildcard from %d: tag %d, want %d", m.src, m.tag,
                  order[next[m.src]]);
            next[m.src]++;
        }
        int flag = 1;
        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
        CHECK(!flag, "a message is left over: src %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    } else {
        for (int t = 1; t <= 5; t++)
            send_msg(0, t, t, t);
        send_msg(0, 99, 6, 6);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* wildcard_many: ANY_SOURCE receives posted ahead of specific ones for the
 * same tag; the senders' first messages arrive one after another (a token
 * chain of synchronous sends), so the i-th wildcard gets sender i+1's; the
 * second messages, sent after the wildcards completed, go to the specific
 * receives. */
static void wildcard_many(void) {
    int ns = size - 1;
    if (rank == 0) {
        MPI_Request r[32];
        MPI_Status st[32];
        msg m[32];
        for (int i = 0; i < ns; i++)
            CHECK_MPI(MPI_Irecv(&m[i], (int)sizeof m[i], MPI_BYTE, MPI_ANY_SOURCE, 40, MPI_COMM_WORLD, &r[i]));
        for (int i = 0; i < ns; i++)
            CHECK_MPI(MPI_Irecv(&m[ns + i], (int)sizeof m[i], MPI_BYTE, 1 + i, 40, MPI_COMM_WORLD, &r[ns + i]));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Waitall(ns, r, st));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Waitall(ns, r + ns, st + ns));
        for (int i = 0; i < 2 * ns; i++) {
            msg got = check_msg(&m[i], &st[i], "wildcard_many");
            int want = 1 + i % ns;
            CHECK(got.src == want && got.seq == i / ns, "%s receive %d got src %d seq %d, want src %d seq %d",
                  i < ns ? "wildcard" : "specific", i % ns, got.src, got.seq, want, i / ns);
        }
    } else {
        int token = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank > 1)
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, rank - 1, 41, MPI_COMM_WORLD, &st));
        msg m = {rank, 0, 40, 0};
        CHECK_MPI(MPI_Ssend(&m, (int)sizeof m, MPI_BYTE, 0, 40, MPI_COMM_WORLD));
        if (rank < size - 1)
            CHECK_MPI(MPI_Send(&token, 1, MPI_INT, rank + 1, 41, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        send_msg(0, 40, 1, 1);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* all_to_all_any: every rank sends one message to every other and receives
 * with ANY_SOURCE; the sources seen must be exactly the other ranks. */
static void all_to_all_any(void) {
    MPI_Request r[32];
    msg out[32];
    int seen[32] = {0};
    int n = 0;
    for (int d = 0; d < size; d++) {
        if (d == rank)
            continue;
        out[n] = (msg){rank, 0, 50 + rank, d};
        CHECK_MPI(MPI_Isend(&out[n], (int)sizeof out[n], MPI_BYTE, d, 50 + rank, MPI_COMM_WORLD, &r[n]));
        n++;
    }
    for (int i = 0; i < size - 1; i++) {
        msg m;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&m, (int)sizeof m, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        m = check_msg(&m, &st, "all_to_all_any");
        CHECK(m.id == rank && m.tag == 50 + m.src, "all_to_all_any: message for %d tag %d from %d", m.id, m.tag,
              m.src);
        if (m.src >= 0 && m.src < size)
            seen[m.src]++;
    }
    for (int s = 0; s < size; s++)
        CHECK(seen[s] == (s != rank), "all_to_all_any: %d messages from %d", seen[s], s);
    CHECK_MPI(MPI_Waitall(n, r, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    for (int rep = 0; rep < 3; rep++) {
        posting_order();
        per_source_order();
        unexpected_mix();
        wildcard_many();
        all_to_all_any();
    }
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
