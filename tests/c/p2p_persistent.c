//go:build ignore

/* gompi-test: np=2,3,4 timeout=90 */
/* Persistent requests: Send_init, Ssend_init, Rsend_init and Bsend_init
 * against Recv_init (also with MPI_ANY_SOURCE), each reused 1000 times (100
 * for large messages) with Start and Startall in a ping-pong whose payload
 * changes every round, so each Start must read the buffer anew. Completed
 * persistent requests stay allocated and inactive: Wait/Test/Waitall/Waitany/
 * Testany/Request_get_status on them return at once with an empty status, and
 * MPI_Request_free releases them. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wstringop-overflow"

#define PING 11
#define PONG 12
#define SYNC 13

static int rank, size;
static const char *mode_names[] = {"Send_init", "Ssend_init", "Rsend_init", "Bsend_init"};

static void fill(unsigned char *b, int n, unsigned seed) {
    for (int i = 0; i < n; i++)
        b[i] = (unsigned char)(i * 13 + seed * 7 + (i >> 8));
}

static void verify(const unsigned char *b, int n, unsigned seed, const MPI_Status *st, int src, int tag,
                   const char *what, int it) {
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag && count == n,
          "%s round %d: status source %d tag %d count %d, want %d %d %d", what, it, st->MPI_SOURCE, st->MPI_TAG,
          count, src, tag, n);
    for (int i = 0; i < n; i++) {
        if (b[i] != (unsigned char)(i * 13 + seed * 7 + (i >> 8))) {
            CHECK(0, "%s round %d size %d: byte %d wrong (0x%02x)", what, it, n, i, b[i]);
            if (check_failures > 20)
                MPI_Abort(MPI_COMM_WORLD, 1);
            return;
        }
    }
}

/* check_empty checks that st is the empty status of an inactive request. Its
 * MPI_ERROR field is checked only after calls on arrays (witherr): Open MPI
 * leaves it alone in single-completion calls, as for any completion. */
static void check_empty_err(const MPI_Status *st, const char *what, int witherr) {
    int count = -1, cancelled = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    MPI_Test_cancelled(st, &cancelled);
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG &&
              (!witherr || st->MPI_ERROR == MPI_SUCCESS) && count == 0 && cancelled == 0,
          "%s: status of an inactive request is source %d tag %d error %d count %d cancelled %d, want empty", what,
          st->MPI_SOURCE, st->MPI_TAG, st->MPI_ERROR, count, cancelled);
}

static void check_empty(const MPI_Status *st, const char *what) { check_empty_err(st, what, 0); }

static void poison(MPI_Status *st) {
    memset(st, 0x7b, sizeof *st);
}

/* inactive checks every completion call on an inactive persistent request. */
static void inactive(MPI_Request *req, const char *what) {
    MPI_Request keep = *req;
    MPI_Status st;
    int flag = 0, idx = -5;
    char w[96];

    poison(&st);
    CHECK_MPI(MPI_Wait(req, &st));
    snprintf(w, sizeof w, "MPI_Wait on inactive %s", what);
    check_empty(&st, w);
    CHECK(*req == keep, "%s: the handle changed", w);

    poison(&st);
    CHECK_MPI(MPI_Test(req, &flag, &st));
    snprintf(w, sizeof w, "MPI_Test on inactive %s", what);
    CHECK(flag, "%s: flag false", w);
    check_empty(&st, w);
    CHECK(*req == keep, "%s: the handle changed", w);

    poison(&st);
    flag = 0;
    CHECK_MPI(MPI_Request_get_status(*req, &flag, &st));
    snprintf(w, sizeof w, "MPI_Request_get_status on inactive %s", what);
    CHECK(flag, "%s: flag false", w);
    check_empty(&st, w);

    poison(&st);
    CHECK_MPI(MPI_Waitany(1, req, &idx, &st));
    snprintf(w, sizeof w, "MPI_Waitany on inactive %s", what);
    CHECK(idx == MPI_UNDEFINED, "%s: index %d", w, idx);
    check_empty(&st, w);
    CHECK(*req == keep, "%s: the handle changed", w);

    poison(&st);
    flag = 0;
    idx = -5;
    CHECK_MPI(MPI_Testany(1, req, &idx, &flag, &st));
    snprintf(w, sizeof w, "MPI_Testany on inactive %s", what);
    CHECK(flag && idx == MPI_UNDEFINED, "%s: flag %d index %d", w, flag, idx);
    check_empty(&st, w);

    MPI_Status sts[1];
    poison(&sts[0]);
    CHECK_MPI(MPI_Waitall(1, req, sts));
    snprintf(w, sizeof w, "MPI_Waitall on inactive %s", what);
    check_empty_err(&sts[0], w, 1);
    CHECK(*req == keep, "%s: the handle changed", w);

    int outcount = -5, idxs[1];
    CHECK_MPI(MPI_Waitsome(1, req, &outcount, idxs, sts));
    CHECK(outcount == MPI_UNDEFINED, "MPI_Waitsome on inactive %s: outcount %d", what, outcount);
}

/* pingpong runs iters rounds of mode m between rank 0 (pinging) and peer. */
static void pingpong(int m, int n, int iters, int peer, unsigned char *a, unsigned char *b, void *bbuf) {
    MPI_Request r[2];
    MPI_Status st[2];
    const char *name = mode_names[m];
    if (rank == 0) {
        switch (m) {
        case 0:
            CHECK_MPI(MPI_Send_init(a, n, MPI_BYTE, peer, PING, MPI_COMM_WORLD, &r[1]));
            break;
        case 1:
            CHECK_MPI(MPI_Ssend_init(a, n, MPI_BYTE, peer, PING, MPI_COMM_WORLD, &r[1]));
            break;
        case 2:
            CHECK_MPI(MPI_Rsend_init(a, n, MPI_BYTE, peer, PING, MPI_COMM_WORLD, &r[1]));
            break;
        case 3:
            CHECK_MPI(MPI_Buffer_attach(bbuf, 2 * (n + MPI_BSEND_OVERHEAD)));
            CHECK_MPI(MPI_Bsend_init(a, n, MPI_BYTE, peer, PING, MPI_COMM_WORLD, &r[1]));
            break;
        }
        /* Alternate between a specific and a wildcard source. */
        CHECK_MPI(MPI_Recv_init(b, n, MPI_BYTE, m % 2 ? MPI_ANY_SOURCE : peer, PONG, MPI_COMM_WORLD, &r[0]));
        inactive(&r[1], "never started send");
        inactive(&r[0], "never started receive");
        /* The peer's first receive is posted: ready sends may go. */
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int it = 0; it < iters; it++) {
            fill(a, n, (unsigned)it);
            if (it % 2 == 0) {
                CHECK_MPI(MPI_Startall(2, r));
            } else {
                CHECK_MPI(MPI_Start(&r[0]));
                CHECK_MPI(MPI_Start(&r[1]));
            }
            CHECK_MPI(MPI_Waitall(2, r, st));
            CHECK(r[0] != MPI_REQUEST_NULL && r[1] != MPI_REQUEST_NULL, "%s: Waitall freed a persistent request",
                  name);
            verify(b, n, (unsigned)it + 1000, &st[0], peer, PONG, name, it);
        }
        inactive(&r[1], "completed send");
        inactive(&r[0], "completed receive");
        CHECK_MPI(MPI_Request_free(&r[0]));
        CHECK_MPI(MPI_Request_free(&r[1]));
        CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "Request_free did not set MPI_REQUEST_NULL");
        if (m == 3) {
            void *addr;
            int bs;
            CHECK_MPI(MPI_Buffer_detach(&addr, &bs));
        }
    } else if (rank == peer) {
        CHECK_MPI(MPI_Recv_init(b, n, MPI_BYTE, 0, PING, MPI_COMM_WORLD, &r[0]));
        CHECK_MPI(MPI_Send_init(a, n, MPI_BYTE, 0, PONG, MPI_COMM_WORLD, &r[1]));
        CHECK_MPI(MPI_Start(&r[0]));
        CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, 0, SYNC, MPI_COMM_WORLD));
        for (int it = 0; it < iters; it++) {
            CHECK_MPI(MPI_Wait(&r[0], &st[0]));
            CHECK(r[0] != MPI_REQUEST_NULL, "%s: Wait freed a persistent receive", name);
            verify(b, n, (unsigned)it, &st[0], 0, PING, name, it);
            /* The next receive is posted before the pong, so rank 0's next
             * (possibly ready) send finds it. */
            if (it + 1 < iters)
                CHECK_MPI(MPI_Start(&r[0]));
            fill(a, n, (unsigned)it + 1000);
            CHECK_MPI(MPI_Start(&r[1]));
            CHECK_MPI(MPI_Wait(&r[1], &st[1]));
        }
        inactive(&r[0], "completed receive");
        CHECK_MPI(MPI_Request_free(&r[0]));
        CHECK_MPI(MPI_Request_free(&r[1]));
    }
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    const int sizes[] = {0, 8, 20000, 300000};
    int maxn = 300000;
    unsigned char *a = malloc((size_t)maxn), *b = malloc((size_t)maxn);
    void *bbuf = malloc(2 * ((size_t)maxn + MPI_BSEND_OVERHEAD));

    for (int p = 1; p < size; p++) {
        for (int m = 0; m < 4; m++)
            for (int k = 0; k < 4; k++) {
                int n = sizes[k];
                pingpong(m, n, n > 100000 ? 100 : 1000, p, a, b, bbuf);
            }
    }

    /* Request_free of a persistent request that was never started. */
    MPI_Request r;
    CHECK_MPI(MPI_Send_init(a, 1, MPI_BYTE, (rank + 1) % size, 1, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL, "Request_free of an unstarted request did not set MPI_REQUEST_NULL");
    CHECK_MPI(MPI_Recv_init(b, 1, MPI_BYTE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Request_free(&r));

    /* Startall over many requests at once: a ring exchange, 200 rounds. */
    {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        int out[4], in[4];
        MPI_Request rq[8];
        for (int i = 0; i < 4; i++) {
            CHECK_MPI(MPI_Recv_init(&in[i], 1, MPI_INT, prev, 20 + i, MPI_COMM_WORLD, &rq[i]));
            CHECK_MPI(MPI_Send_init(&out[i], 1, MPI_INT, next, 20 + i, MPI_COMM_WORLD, &rq[4 + i]));
        }
        for (int it = 0; it < 200; it++) {
            for (int i = 0; i < 4; i++) {
                out[i] = rank * 100000 + it * 10 + i;
                in[i] = -1;
            }
            CHECK_MPI(MPI_Startall(8, rq));
            CHECK_MPI(MPI_Waitall(8, rq, MPI_STATUSES_IGNORE));
            for (int i = 0; i < 4; i++)
                CHECK(in[i] == prev * 100000 + it * 10 + i, "ring round %d: in[%d] = %d", it, i, in[i]);
        }
        for (int i = 0; i < 8; i++)
            CHECK_MPI(MPI_Request_free(&rq[i]));
    }

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    free(a);
    free(b);
    free(bbuf);
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
