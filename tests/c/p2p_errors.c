//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* Argument errors of point-to-point calls under MPI_ERRORS_RETURN (set on
 * MPI_COMM_WORLD): each call returns a code whose MPI_Error_class is the
 * expected one (rank out of range, negative count, bad tag, bad datatype
 * handle, MPI_COMM_NULL, NULL or invalid request, buffered-send buffer
 * problems), has an error string, and changes nothing: afterwards a ring
 * exchange still works and no stray message is left. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wnonnull"

static int rank, size;

static const char *class_name(int c) {
    switch (c) {
    case MPI_SUCCESS:
        return "MPI_SUCCESS";
    case MPI_ERR_RANK:
        return "MPI_ERR_RANK";
    case MPI_ERR_COUNT:
        return "MPI_ERR_COUNT";
    case MPI_ERR_TAG:
        return "MPI_ERR_TAG";
    case MPI_ERR_TYPE:
        return "MPI_ERR_TYPE";
    case MPI_ERR_COMM:
        return "MPI_ERR_COMM";
    case MPI_ERR_REQUEST:
        return "MPI_ERR_REQUEST";
    case MPI_ERR_ARG:
        return "MPI_ERR_ARG";
    case MPI_ERR_BUFFER:
        return "MPI_ERR_BUFFER";
    default:
        return "another class";
    }
}

/* EXPECT checks that call fails with class c1 (or c2). */
#define EXPECT(call, c1, c2) expect_(call, c1, c2, #call, __LINE__)
static void expect_(int rc, int c1, int c2, const char *text, int line) {
    int c = err_class(rc);
    if (rc == MPI_SUCCESS || (c != c1 && c != c2)) {
        CHECK(0, "line %d: %s returned %d, class %d (%s), want %s", line, text, rc, c, class_name(c), class_name(c1));
        return;
    }
    char msg[MPI_MAX_ERROR_STRING];
    int len = -1;
    CHECK(MPI_Error_string(rc, msg, &len) == MPI_SUCCESS && len > 0 && len < MPI_MAX_ERROR_STRING,
          "line %d: MPI_Error_string of %d: length %d", line, rc, len);
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)); /* it has its own handler */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "MPI_Comm_get_errhandler gave %d", (int)eh);

    int buf[64] = {0}, peer = (rank + 1) % size;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    MPI_Message msg;
    int flag;
    const MPI_Datatype bad = (MPI_Datatype)12345;

    /* Rank out of range (MPI_ANY_SOURCE is not a destination). */
    EXPECT(MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Send(buf, 1, MPI_INT, 99 + size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Send(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Send(buf, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Ssend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Rsend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Isend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Issend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Recv(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Recv(buf, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Irecv(buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Probe(size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Iprobe(size, 0, MPI_COMM_WORLD, &flag, &st), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Mprobe(size, 0, MPI_COMM_WORLD, &msg, &st), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Send_init(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Recv_init(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK, MPI_ERR_RANK);
    EXPECT(MPI_Sendrecv(buf, 1, MPI_INT, size, 0, buf + 1, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK,
           MPI_ERR_RANK);
    EXPECT(MPI_Sendrecv(buf, 1, MPI_INT, peer, 0, buf + 1, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK,
           MPI_ERR_RANK);
    EXPECT(MPI_Send(buf, 1, MPI_INT, 1, 0, MPI_COMM_SELF), MPI_ERR_RANK, MPI_ERR_RANK);

    /* Negative count. */
    EXPECT(MPI_Send(buf, -1, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, MPI_ERR_COUNT);
    EXPECT(MPI_Isend(buf, -3, MPI_INT, peer, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT, MPI_ERR_COUNT);
    EXPECT(MPI_Recv(buf, -1, MPI_INT, peer, 0, MPI_COMM_WORLD, &st), MPI_ERR_COUNT, MPI_ERR_COUNT);
    EXPECT(MPI_Irecv(buf, -1, MPI_INT, peer, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT, MPI_ERR_COUNT);
    EXPECT(MPI_Send_init(buf, -1, MPI_INT, peer, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT, MPI_ERR_COUNT);
    EXPECT(MPI_Sendrecv_replace(buf, -2, MPI_INT, peer, 0, peer, 0, MPI_COMM_WORLD, &st), MPI_ERR_COUNT,
           MPI_ERR_COUNT);

    /* Bad tags: negative on a send (MPI_ANY_TAG is for receives only), negative other than MPI_ANY_TAG on a receive. */
    EXPECT(MPI_Send(buf, 1, MPI_INT, peer, -1, MPI_COMM_WORLD), MPI_ERR_TAG, MPI_ERR_TAG);
    EXPECT(MPI_Send(buf, 1, MPI_INT, peer, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG, MPI_ERR_TAG);
    EXPECT(MPI_Isend(buf, 1, MPI_INT, peer, -100, MPI_COMM_WORLD, &req), MPI_ERR_TAG, MPI_ERR_TAG);
    EXPECT(MPI_Ssend(buf, 1, MPI_INT, peer, -2, MPI_COMM_WORLD), MPI_ERR_TAG, MPI_ERR_TAG);
    EXPECT(MPI_Recv(buf, 1, MPI_INT, peer, -5, MPI_COMM_WORLD, &st), MPI_ERR_TAG, MPI_ERR_TAG);
    EXPECT(MPI_Irecv(buf, 1, MPI_INT, peer, -5, MPI_COMM_WORLD, &req), MPI_ERR_TAG, MPI_ERR_TAG);
    EXPECT(MPI_Probe(peer, -5, MPI_COMM_WORLD, &st), MPI_ERR_TAG, MPI_ERR_TAG);

    /* Bad datatype handles. */
    EXPECT(MPI_Send(buf, 1, bad, peer, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, MPI_ERR_TYPE);
    EXPECT(MPI_Send(buf, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, MPI_ERR_TYPE);
    EXPECT(MPI_Isend(buf, 1, bad, peer, 0, MPI_COMM_WORLD, &req), MPI_ERR_TYPE, MPI_ERR_TYPE);
    EXPECT(MPI_Recv(buf, 1, bad, peer, 0, MPI_COMM_WORLD, &st), MPI_ERR_TYPE, MPI_ERR_TYPE);
    EXPECT(MPI_Irecv(buf, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD, &req), MPI_ERR_TYPE, MPI_ERR_TYPE);
    EXPECT(MPI_Send_init(buf, 1, bad, peer, 0, MPI_COMM_WORLD, &req), MPI_ERR_TYPE, MPI_ERR_TYPE);

    /* MPI_COMM_NULL and a forged communicator handle. */
    EXPECT(MPI_Send(buf, 1, MPI_INT, peer, 0, MPI_COMM_NULL), MPI_ERR_COMM, MPI_ERR_COMM);
    EXPECT(MPI_Recv(buf, 1, MPI_INT, peer, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM, MPI_ERR_COMM);
    EXPECT(MPI_Isend(buf, 1, MPI_INT, peer, 0, MPI_COMM_NULL, &req), MPI_ERR_COMM, MPI_ERR_COMM);
    EXPECT(MPI_Irecv(buf, 1, MPI_INT, peer, 0, MPI_COMM_NULL, &req), MPI_ERR_COMM, MPI_ERR_COMM);
    EXPECT(MPI_Probe(peer, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM, MPI_ERR_COMM);
    EXPECT(MPI_Iprobe(peer, 0, MPI_COMM_NULL, &flag, &st), MPI_ERR_COMM, MPI_ERR_COMM);
    EXPECT(MPI_Sendrecv(buf, 1, MPI_INT, peer, 0, buf + 1, 1, MPI_INT, peer, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM,
           MPI_ERR_COMM);
    EXPECT(MPI_Send(buf, 1, MPI_INT, peer, 0, (MPI_Comm)0x12345), MPI_ERR_COMM, MPI_ERR_COMM);

    /* NULL request pointers, invalid and null request handles. */
    EXPECT(MPI_Isend(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST, MPI_ERR_ARG);
    EXPECT(MPI_Irecv(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST, MPI_ERR_ARG);
    EXPECT(MPI_Send_init(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST, MPI_ERR_ARG);
    EXPECT(MPI_Wait(NULL, &st), MPI_ERR_REQUEST, MPI_ERR_ARG);
    EXPECT(MPI_Test(NULL, &flag, &st), MPI_ERR_REQUEST, MPI_ERR_ARG);
    req = (MPI_Request)0x12345;
    EXPECT(MPI_Wait(&req, &st), MPI_ERR_REQUEST, MPI_ERR_REQUEST);
    EXPECT(MPI_Test(&req, &flag, &st), MPI_ERR_REQUEST, MPI_ERR_REQUEST);
    EXPECT(MPI_Waitall(1, &req, &st), MPI_ERR_REQUEST, MPI_ERR_REQUEST);
    EXPECT(MPI_Request_free(&req), MPI_ERR_REQUEST, MPI_ERR_REQUEST);
    req = MPI_REQUEST_NULL;
    EXPECT(MPI_Start(&req), MPI_ERR_REQUEST, MPI_ERR_REQUEST);
    EXPECT(MPI_Request_free(&req), MPI_ERR_REQUEST, MPI_ERR_REQUEST);
    EXPECT(MPI_Cancel(&req), MPI_ERR_REQUEST, MPI_ERR_REQUEST);
    EXPECT(MPI_Waitall(-1, &req, &st), MPI_ERR_COUNT, MPI_ERR_ARG);
    {
        /* MPI_Start on a request that is not persistent. */
        int v = 1, w = 0;
        MPI_Request r2;
        CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, rank, 55, MPI_COMM_WORLD, &r2));
        EXPECT(MPI_Start(&r2), MPI_ERR_REQUEST, MPI_ERR_REQUEST);
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, rank, 55, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&r2, &st));
        CHECK(w == 1, "self message after a failed MPI_Start: %d", w);
        /* Starting an active persistent request. */
        CHECK_MPI(MPI_Recv_init(&w, 1, MPI_INT, rank, 56, MPI_COMM_WORLD, &r2));
        CHECK_MPI(MPI_Start(&r2));
        EXPECT(MPI_Start(&r2), MPI_ERR_REQUEST, MPI_ERR_REQUEST);
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, rank, 56, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&r2, &st));
        CHECK_MPI(MPI_Request_free(&r2));
    }

    /* Buffered sends: no buffer, too small a buffer, attaching twice. */
    {
        static char big[100000], bbuf[1000 + MPI_BSEND_OVERHEAD];
        EXPECT(MPI_Bsend(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, MPI_ERR_BUFFER);
        EXPECT(MPI_Ibsend(buf, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER, MPI_ERR_BUFFER);
        CHECK_MPI(MPI_Buffer_attach(bbuf, (int)sizeof bbuf));
        EXPECT(MPI_Buffer_attach(bbuf, (int)sizeof bbuf), MPI_ERR_BUFFER, MPI_ERR_BUFFER);
        EXPECT(MPI_Bsend(big, (int)sizeof big, MPI_BYTE, peer, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, MPI_ERR_BUFFER);
        void *addr;
        int bs;
        CHECK_MPI(MPI_Buffer_detach(&addr, &bs));
        CHECK(addr == bbuf && bs == (int)sizeof bbuf, "Buffer_detach: %p %d", addr, bs);
        EXPECT(MPI_Buffer_attach(bbuf, -1), MPI_ERR_ARG, MPI_ERR_BUFFER);
    }

    /* NULL buffer with a nonzero count. */
    EXPECT(MPI_Send(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, MPI_ERR_ARG);
    EXPECT(MPI_Recv(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &st), MPI_ERR_BUFFER, MPI_ERR_ARG);

    /* Nothing was sent by the failed calls: the first message each rank gets
     * is the ring's, and nothing else is pending afterwards. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int v = rank, got = -1, from = (rank + size - 1) % size;
    CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, peer, 0, &got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                           &st));
    CHECK(got == from && st.MPI_SOURCE == from && st.MPI_TAG == 0, "ring after errors: got %d from %d tag %d", got,
          st.MPI_SOURCE, st.MPI_TAG);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    flag = 1;
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK(!flag, "a failed call left a message from %d tag %d", st.MPI_SOURCE, st.MPI_TAG);

    CHECK_MPI(MPI_Finalize());
    return check_status();
}
