//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* Completion calls on arrays: Waitany, Waitsome, Testany, Testsome, Testall,
 * Waitall and Request_get_status. Null handles are skipped; arrays of only
 * null (or no) handles give index/outcount MPI_UNDEFINED and empty statuses;
 * Testany/Testsome with nothing done give flag false or outcount 0; Testall
 * with some requests pending changes no handle; Request_get_status never
 * frees; each request is reported exactly once with its own status. The peer
 * sends one tag at a time on request, so the request that completes is known. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#define N 8
#define CTL 100

static int rank, size;

static int cancelled(const MPI_Status *st) {
    int f = -1;
    MPI_Test_cancelled(st, &f);
    return f;
}

static void check_empty(const MPI_Status *st, const char *what) {
    int count = -1;
    MPI_Get_count(st, MPI_INT, &count);
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && count == 0 && cancelled(st) == 0,
          "%s: status source %d tag %d count %d, want empty", what, st->MPI_SOURCE, st->MPI_TAG, count);
}

/* ask has the peer send tag t to rank 0 and waits for the peer's ack, sent
 * after that message: by then the message has reached its posted receive
 * (a probe could not tell, as it never sees matched messages). t < 0 ends. */
static void ask(int peer, int t) {
    CHECK_MPI(MPI_Send(&t, 1, MPI_INT, peer, CTL, MPI_COMM_WORLD));
    if (t >= 0)
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, CTL + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static void serve(void) {
    /* The peer sends what rank 0 asks for until told -1. */
    for (;;) {
        int t, v;
        CHECK_MPI(MPI_Recv(&t, 1, MPI_INT, 0, CTL, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        if (t < 0)
            return;
        v = 1000 * rank + t;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, t, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, 0, CTL + 1, MPI_COMM_WORLD));
    }
}

static void all_null(void) {
    MPI_Request r[N];
    MPI_Status st, sts[N];
    int idx = -5, flag = 0, out = -5, idxs[N];
    for (int i = 0; i < N; i++)
        r[i] = MPI_REQUEST_NULL;
    memset(&st, 0x33, sizeof st);
    CHECK_MPI(MPI_Wait(&r[0], &st));
    check_empty(&st, "MPI_Wait(MPI_REQUEST_NULL)");
    memset(&st, 0x33, sizeof st);
    CHECK_MPI(MPI_Test(&r[0], &flag, &st));
    CHECK(flag, "MPI_Test(MPI_REQUEST_NULL): flag false");
    check_empty(&st, "MPI_Test(MPI_REQUEST_NULL)");
    memset(&st, 0x33, sizeof st);
    flag = 0;
    CHECK_MPI(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
    CHECK(flag, "MPI_Request_get_status(MPI_REQUEST_NULL): flag false");
    check_empty(&st, "MPI_Request_get_status(MPI_REQUEST_NULL)");

    memset(&st, 0x33, sizeof st);
    CHECK_MPI(MPI_Waitany(N, r, &idx, &st));
    CHECK(idx == MPI_UNDEFINED, "MPI_Waitany over null handles: index %d", idx);
    check_empty(&st, "MPI_Waitany over null handles");
    idx = -5;
    flag = 0;
    memset(&st, 0x33, sizeof st);
    CHECK_MPI(MPI_Testany(N, r, &idx, &flag, &st));
    CHECK(flag && idx == MPI_UNDEFINED, "MPI_Testany over null handles: flag %d index %d", flag, idx);
    check_empty(&st, "MPI_Testany over null handles");
    CHECK_MPI(MPI_Waitsome(N, r, &out, idxs, sts));
    CHECK(out == MPI_UNDEFINED, "MPI_Waitsome over null handles: outcount %d", out);
    out = -5;
    CHECK_MPI(MPI_Testsome(N, r, &out, idxs, sts));
    CHECK(out == MPI_UNDEFINED, "MPI_Testsome over null handles: outcount %d", out);
    memset(sts, 0x33, sizeof sts);
    flag = 0;
    CHECK_MPI(MPI_Testall(N, r, &flag, sts));
    CHECK(flag, "MPI_Testall over null handles: flag false");
    for (int i = 0; i < N; i++)
        check_empty(&sts[i], "MPI_Testall over null handles");
    memset(sts, 0x33, sizeof sts);
    CHECK_MPI(MPI_Waitall(N, r, sts));
    for (int i = 0; i < N; i++)
        check_empty(&sts[i], "MPI_Waitall over null handles");

    /* Empty arrays. */
    idx = -5;
    CHECK_MPI(MPI_Waitany(0, r, &idx, &st));
    CHECK(idx == MPI_UNDEFINED, "MPI_Waitany(0): index %d", idx);
    idx = -5;
    flag = 0;
    CHECK_MPI(MPI_Testany(0, r, &idx, &flag, &st));
    CHECK(flag && idx == MPI_UNDEFINED, "MPI_Testany(0): flag %d index %d", flag, idx);
    out = -5;
    CHECK_MPI(MPI_Waitsome(0, r, &out, idxs, sts));
    CHECK(out == MPI_UNDEFINED, "MPI_Waitsome(0): outcount %d", out);
    out = -5;
    CHECK_MPI(MPI_Testsome(0, r, &out, idxs, sts));
    CHECK(out == MPI_UNDEFINED, "MPI_Testsome(0): outcount %d", out);
    flag = 0;
    CHECK_MPI(MPI_Testall(0, r, &flag, sts));
    CHECK(flag, "MPI_Testall(0): flag false");
    CHECK_MPI(MPI_Waitall(0, r, sts));
}

static void check_msg(const MPI_Status *st, int v, int peer, int t, const char *what) {
    CHECK(st->MPI_SOURCE == peer && st->MPI_TAG == t && v == 1000 * peer + t,
          "%s: status source %d tag %d value %d, want tag %d from %d", what, st->MPI_SOURCE, st->MPI_TAG, v, t, peer);
}

/* with_peer: rank 0 posts receives for tags 0..N-1 (every other slot null). */
static void with_peer(int peer) {
    MPI_Request r[2 * N];
    MPI_Status st, sts[2 * N];
    int v[2 * N], idx, flag, out, idxs[2 * N];
    for (int i = 0; i < 2 * N; i++) {
        r[i] = MPI_REQUEST_NULL;
        v[i] = -1;
    }
    /* Request for tag t sits at slot 2t+1; even slots stay null. */
    for (int t = 0; t < N; t++)
        CHECK_MPI(MPI_Irecv(&v[2 * t + 1], 1, MPI_INT, peer, t, MPI_COMM_WORLD, &r[2 * t + 1]));

    /* Nothing sent yet. */
    flag = 1;
    idx = -5;
    CHECK_MPI(MPI_Testany(2 * N, r, &idx, &flag, &st));
    CHECK(!flag && idx == MPI_UNDEFINED, "Testany with nothing done: flag %d index %d", flag, idx);
    out = -5;
    CHECK_MPI(MPI_Testsome(2 * N, r, &out, idxs, sts));
    CHECK(out == 0, "Testsome with nothing done: outcount %d", out);
    flag = 1;
    CHECK_MPI(MPI_Testall(2 * N, r, &flag, sts));
    CHECK(!flag, "Testall with nothing done: flag true");
    flag = 1;
    CHECK_MPI(MPI_Request_get_status(r[1], &flag, &st));
    CHECK(!flag, "Request_get_status with nothing sent: flag true");

    /* Tag 5: Waitany must name slot 11. */
    ask(peer, 5);
    CHECK_MPI(MPI_Waitany(2 * N, r, &idx, &st));
    CHECK(idx == 11 && r[11] == MPI_REQUEST_NULL, "Waitany: index %d (want 11), handle %s", idx,
          r[11] == MPI_REQUEST_NULL ? "freed" : "kept");
    check_msg(&st, v[11], peer, 5, "Waitany");

    /* Tag 2: Request_get_status twice, handle kept, then Testall
     * (others pending) must leave it alone, then Test gives the same status. */
    ask(peer, 2);
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Request_get_status(r[5], &flag, &st));
    check_msg(&st, v[5], peer, 2, "Request_get_status");
    flag = 0;
    CHECK_MPI(MPI_Request_get_status(r[5], &flag, &st));
    CHECK(flag && r[5] != MPI_REQUEST_NULL, "second Request_get_status: flag %d", flag);
    check_msg(&st, v[5], peer, 2, "second Request_get_status");
    MPI_Request keep = r[5];
    flag = 1;
    CHECK_MPI(MPI_Testall(2 * N, r, &flag, sts));
    CHECK(!flag && r[5] == keep, "Testall with requests pending: flag %d, completed handle %s", flag,
          r[5] == keep ? "kept" : "changed");
    flag = 0;
    CHECK_MPI(MPI_Test(&r[5], &flag, &st));
    CHECK(flag && r[5] == MPI_REQUEST_NULL, "Test of a completed request: flag %d", flag);
    check_msg(&st, v[5], peer, 2, "Test after Request_get_status");

    /* Tag 7: Testany finds slot 15. */
    ask(peer, 7);
    flag = 0;
    idx = -5;
    while (!flag)
        CHECK_MPI(MPI_Testany(2 * N, r, &idx, &flag, &st));
    CHECK(idx == 15 && r[15] == MPI_REQUEST_NULL, "Testany: index %d, want 15", idx);
    check_msg(&st, v[15], peer, 7, "Testany");

    /* Tags 0 and 3: Testsome returns both (slots 1 and 7), maybe over two calls. */
    ask(peer, 0);
    ask(peer, 3);
    int got1 = 0, got7 = 0;
    while (got1 + got7 < 2) {
        out = -5;
        CHECK_MPI(MPI_Testsome(2 * N, r, &out, idxs, sts));
        CHECK(out >= 0 && out <= 2, "Testsome: outcount %d", out);
        if (out < 0 || out > 2)
            break;
        for (int j = 0; j < out; j++) {
            int t = (idxs[j] - 1) / 2;
            CHECK(idxs[j] == 1 || idxs[j] == 7, "Testsome returned slot %d", idxs[j]);
            if (idxs[j] == 1)
                got1++;
            if (idxs[j] == 7)
                got7++;
            CHECK(r[idxs[j]] == MPI_REQUEST_NULL, "Testsome left slot %d", idxs[j]);
            check_msg(&sts[j], v[idxs[j]], peer, t, "Testsome");
        }
    }
    CHECK(got1 == 1 && got7 == 1, "Testsome reported slot 1 %d times, slot 7 %d times", got1, got7);

    /* The rest (tags 1, 4, 6) with Waitsome: every one exactly once. */
    ask(peer, 1);
    ask(peer, 4);
    ask(peer, 6);
    int seen[2 * N] = {0}, total = 0;
    while (total < 3) {
        out = -5;
        CHECK_MPI(MPI_Waitsome(2 * N, r, &out, idxs, sts));
        CHECK(out >= 1 && out <= 3, "Waitsome: outcount %d", out);
        if (out < 1 || out > 3)
            break;
        for (int j = 0; j < out; j++) {
            int i = idxs[j];
            CHECK(i == 3 || i == 9 || i == 13, "Waitsome returned slot %d", i);
            if (i < 0 || i >= 2 * N)
                continue;
            seen[i]++;
            check_msg(&sts[j], v[i], peer, (i - 1) / 2, "Waitsome");
        }
        total += out;
    }
    CHECK(seen[3] == 1 && seen[9] == 1 && seen[13] == 1, "Waitsome counts %d %d %d", seen[3], seen[9], seen[13]);
    out = -5;
    CHECK_MPI(MPI_Waitsome(2 * N, r, &out, idxs, sts));
    CHECK(out == MPI_UNDEFINED, "Waitsome after all completed: outcount %d", out);
    idx = -5;
    CHECK_MPI(MPI_Waitany(2 * N, r, &idx, &st));
    CHECK(idx == MPI_UNDEFINED, "Waitany after all completed: index %d", idx);

    /* Testall completing everything at once, then Waitall. */
    for (int t = 0; t < 3; t++)
        CHECK_MPI(MPI_Irecv(&v[2 * t], 1, MPI_INT, peer, t, MPI_COMM_WORLD, &r[2 * t]));
    for (int t = 0; t < 3; t++) {
        ask(peer, t);
    }
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Testall(2 * N, r, &flag, sts));
    for (int t = 0; t < 3; t++) {
        CHECK(r[2 * t] == MPI_REQUEST_NULL, "Testall left slot %d", 2 * t);
        check_msg(&sts[2 * t], v[2 * t], peer, t, "Testall");
    }
    for (int i = 1; i < 2 * N; i += 2)
        check_empty(&sts[i], "Testall, null slot");
    for (int t = 0; t < 2; t++)
        CHECK_MPI(MPI_Irecv(&v[2 * t], 1, MPI_INT, peer, t, MPI_COMM_WORLD, &r[2 * t]));
    ask(peer, 1);
    ask(peer, 0);
    CHECK_MPI(MPI_Waitall(2 * N, r, sts));
    for (int t = 0; t < 2; t++)
        check_msg(&sts[2 * t], v[2 * t], peer, t, "Waitall");
    ask(peer, -1);
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    all_null();
    for (int p = 1; p < size; p++) {
        if (rank == 0)
            with_peer(p);
        else if (rank == p)
            serve();
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
