//go:build ignore

/* gompi-test: np=2,3,4 timeout=90 */
/* Receives posted before their messages arrive (the C fast path queues them
 * outside the Go engine until something needs the engine): tags matched out
 * of order, wildcards, a later MPI_ANY_SOURCE receive and a blocking receive
 * behind queued ones, truncation, cancel, Iprobe, test loops, Waitany,
 * Waitsome, Request_free, rendezvous and empty messages. Even ranks receive
 * from the odd rank above them; a rank without a partner only joins the
 * barriers, which order every receive before its message. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, peer;

static void sync_all(void) { MPI_Barrier(MPI_COMM_WORLD); }

static void send_int(int v, int tag) { MPI_Send(&v, 1, MPI_INT, peer, tag, MPI_COMM_WORLD); }

static void check_st(const MPI_Status *st, int tag, int count, const char *what)
{
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    CHECK(st->MPI_SOURCE == peer && st->MPI_TAG == tag && n == count, "%s: status source %d tag %d count %d", what,
          st->MPI_SOURCE, st->MPI_TAG, n);
}

/* Tags matched out of arrival order, MPI_ANY_TAG last. */
static void tags(int recv)
{
    int v[3] = {0, 0, 0};
    MPI_Request r[3];
    MPI_Status st[3];
    if (recv) {
        MPI_Irecv(&v[0], 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&v[1], 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[1]);
        MPI_Irecv(&v[2], 1, MPI_INT, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &r[2]);
    }
    sync_all();
    if (!recv) {
        send_int(100, 2);
        send_int(101, 1);
        send_int(102, 3);
        return;
    }
    MPI_Waitall(3, r, st);
    CHECK(v[0] == 101 && v[1] == 100 && v[2] == 102, "tags: got %d %d %d", v[0], v[1], v[2]);
    check_st(&st[0], 1, 1, "tags[0]");
    check_st(&st[1], 2, 1, "tags[1]");
    check_st(&st[2], 3, 1, "tags[2]");
    CHECK(r[0] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL, "tags: handles not nulled");
}

/* Many queued receives filled in order. */
static void many(int recv)
{
    enum { N = 300 };
    static int v[N];
    static MPI_Request r[N];
    if (recv)
        for (int i = 0; i < N; i++)
            MPI_Irecv(&v[i], 1, MPI_INT, peer, i % 3, MPI_COMM_WORLD, &r[i]);
    sync_all();
    if (!recv) {
        for (int i = 0; i < N; i++)
            send_int(i, i % 3);
        return;
    }
    MPI_Waitall(N, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; i++)
        CHECK(v[i] == i, "many: receive %d got %d", i, v[i]);
}

/* A wildcard-source receive posted after a queued one must not overtake it;
 * nor a blocking receive. */
static void behind(int recv)
{
    int a = 0, b = 0;
    MPI_Request r[2];
    MPI_Status st;
    if (recv) {
        MPI_Irecv(&a, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&b, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &r[1]);
    }
    sync_all();
    if (!recv) {
        send_int(1, 7);
        send_int(2, 7);
    } else {
        MPI_Wait(&r[1], &st);
        check_st(&st, 7, 1, "behind: wildcard");
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        CHECK(a == 1 && b == 2, "behind: wildcard overtook: %d %d", a, b);
    }
}

static void behind_blocking(int recv)
{
    int c = 0, d = 0;
    MPI_Request r[1];
    MPI_Status st;
    if (recv) MPI_Irecv(&c, 1, MPI_INT, peer, 16, MPI_COMM_WORLD, &r[0]);
    sync_all();
    if (!recv) {
        send_int(17, 17);
        send_int(16, 16);
        return;
    }
    MPI_Recv(&d, 1, MPI_INT, peer, 17, MPI_COMM_WORLD, &st);
    check_st(&st, 17, 1, "behind: blocking");
    MPI_Wait(&r[0], &st);
    check_st(&st, 16, 1, "behind: queued");
    CHECK(c == 16 && d == 17, "behind: got %d %d", c, d);
}

/* A queued receive too small for its message: MPI_ERR_TRUNCATE, the part
 * that fits delivered. */
static void truncation(int recv)
{
    int v[8] = {0};
    MPI_Request r;
    MPI_Status st;
    if (recv) MPI_Irecv(v, 4, MPI_INT, peer, 9, MPI_COMM_WORLD, &r);
    sync_all();
    if (!recv) {
        int w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        MPI_Send(w, 8, MPI_INT, peer, 9, MPI_COMM_WORLD);
        return;
    }
    int rc = MPI_Wait(&r, &st);
    EXPECT_CLASS(rc, MPI_ERR_TRUNCATE);
    CHECK(v[0] == 1 && v[3] == 4 && v[4] == 0, "truncation: buffer %d %d %d", v[0], v[3], v[4]);
}

/* Cancel a queued receive; the message goes to the next one. Request_free
 * on a queued receive: it still takes the first message. */
static void cancel_free(int recv)
{
    int a = 0, b = 0, c = 0, flag = 0;
    MPI_Request r, q;
    MPI_Status st;
    if (recv) {
        MPI_Irecv(&a, 1, MPI_INT, peer, 11, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        CHECK(flag, "cancel: queued receive not cancelled");
        MPI_Irecv(&b, 1, MPI_INT, peer, 11, MPI_COMM_WORLD, &r);
        MPI_Irecv(&a, 1, MPI_INT, peer, 15, MPI_COMM_WORLD, &q);
        MPI_Request_free(&q);
        CHECK(q == MPI_REQUEST_NULL, "free: handle not nulled");
        MPI_Irecv(&c, 1, MPI_INT, peer, 15, MPI_COMM_WORLD, &q);
    }
    sync_all();
    if (!recv) {
        send_int(11, 11);
        send_int(151, 15);
        send_int(152, 15);
        return;
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(b == 11 && c == 152, "cancel/free: got %d %d", b, c);
}

/* Iprobe never reports a message a queued receive matches. */
static void probe(int recv)
{
    int a = 0, b = 0, flag = 0;
    MPI_Request r;
    MPI_Status st;
    if (recv) MPI_Irecv(&a, 1, MPI_INT, peer, 12, MPI_COMM_WORLD, &r);
    sync_all();
    if (!recv) {
        send_int(12, 12);
        send_int(13, 13);
        return;
    }
    while (!flag)
        MPI_Iprobe(peer, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    CHECK(st.MPI_TAG == 13, "probe: saw tag %d", st.MPI_TAG);
    MPI_Recv(&b, 1, MPI_INT, peer, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&r, &st);
    check_st(&st, 12, 1, "probe: queued");
    CHECK(a == 12 && b == 13, "probe: got %d %d", a, b);
}

/* Test, Testall, Waitany and Waitsome on queued receives. */
static void tests(int recv)
{
    enum { N = 6 };
    int v[N], flag = 0, idx, out, ind[N];
    MPI_Request r[N];
    MPI_Status st[N];
    memset(v, 0, sizeof v);
    if (recv)
        for (int i = 0; i < N; i++)
            MPI_Irecv(&v[i], 1, MPI_INT, peer, 20 + i, MPI_COMM_WORLD, &r[i]);
    sync_all();
    if (!recv) {
        for (int i = N - 1; i >= 0; i--)
            send_int(20 + i, 20 + i);
        return;
    }
    while (!flag)
        MPI_Test(&r[0], &flag, &st[0]);
    check_st(&st[0], 20, 1, "Test");
    flag = 0;
    while (!flag)
        MPI_Testall(2, &r[1], &flag, st);
    check_st(&st[1], 22, 1, "Testall");
    MPI_Waitany(N, r, &idx, &st[0]);
    CHECK(idx >= 3 && v[idx] == 20 + idx, "Waitany: index %d value %d", idx, idx >= 0 ? v[idx] : -1);
    int left = N - 4;
    while (left > 0) {
        MPI_Waitsome(N, r, &out, ind, st);
        CHECK(out >= 1, "Waitsome: outcount %d", out);
        for (int i = 0; i < out; i++)
            CHECK(v[ind[i]] == 20 + ind[i], "Waitsome: %d got %d", ind[i], v[ind[i]]);
        left -= out;
    }
    for (int i = 0; i < N; i++)
        CHECK(r[i] == MPI_REQUEST_NULL && v[i] == 20 + i, "tests: request %d value %d", i, v[i]);
}

/* A rendezvous message and an empty one into queued receives. */
static void sizes(int recv)
{
    enum { BIG = 1 << 20 };
    char *big = malloc(BIG);
    MPI_Request r[2];
    MPI_Status st[2];
    memset(big, recv ? 0 : 'x', BIG);
    if (recv) {
        MPI_Irecv(big, BIG, MPI_CHAR, peer, 18, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(NULL, 0, MPI_CHAR, peer, 19, MPI_COMM_WORLD, &r[1]);
    }
    sync_all();
    if (!recv) {
        MPI_Send(big, BIG, MPI_CHAR, peer, 18, MPI_COMM_WORLD);
        MPI_Send(NULL, 0, MPI_CHAR, peer, 19, MPI_COMM_WORLD);
    } else {
        MPI_Waitall(2, r, st);
        int n0 = -1, n1 = -1;
        MPI_Get_count(&st[0], MPI_CHAR, &n0);
        MPI_Get_count(&st[1], MPI_CHAR, &n1);
        CHECK(n0 == BIG && n1 == 0 && big[0] == 'x' && big[BIG - 1] == 'x', "sizes: counts %d %d", n0, n1);
    }
    free(big);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    peer = rank ^ 1;
    int active = peer < size, recv = active && !(rank & 1);
    for (int round = 0; round < 3; round++) {
        void (*steps[])(int) = {tags, many, behind, behind_blocking, truncation, cancel_free, probe, tests, sizes};
        for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++) {
            if (active)
                steps[i](recv);
            else
                sync_all();
            sync_all();
        }
    }
    MPI_Finalize();
    return check_status();
}
