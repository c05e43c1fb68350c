//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* MPI_Cancel. A posted receive that has not matched is cancelled (Test_cancelled
 * true, buffer untouched), and a message sent afterwards with the same source
 * and tag goes to the next receive, for eager and rendezvous sizes, specific
 * and wildcard sources, nonblocking and persistent receives. Cancelling a
 * completed request is harmless. (Cancelling sends: p2p_cancel_send.c.) */
#include <mpi.h>
#include <string.h>

#include "check.h"

static int rank, size;

static int cancelled(const MPI_Status *st) {
    int flag = -1;
    CHECK_MPI(MPI_Test_cancelled(st, &flag));
    return flag;
}

/* recv_cancel: rank 0 cancels receives from peer, then peer sends. */
static void recv_cancel(int peer) {
    static char buf[200000], cbuf[200000];
    const int lens[] = {0, 10, 20000, 200000};
    for (int k = 0; k < 4; k++) {
        int len = lens[k];
        for (int variant = 0; variant < 3; variant++) {
            int tag = 60 + k;
            if (rank == 0) {
                MPI_Request r;
                MPI_Status st;
                memset(cbuf, 0x11, sizeof cbuf);
                int src = variant == 1 ? MPI_ANY_SOURCE : peer;
                if (variant == 2) {
                    CHECK_MPI(MPI_Recv_init(cbuf, len, MPI_BYTE, src, tag, MPI_COMM_WORLD, &r));
                    CHECK_MPI(MPI_Start(&r));
                } else {
                    CHECK_MPI(MPI_Irecv(cbuf, len, MPI_BYTE, src, tag, MPI_COMM_WORLD, &r));
                }
                CHECK_MPI(MPI_Cancel(&r));
                CHECK_MPI(MPI_Wait(&r, &st));
                CHECK(cancelled(&st) == 1, "receive variant %d len %d: Test_cancelled false after cancel", variant,
                      len);
                if (variant == 2) {
                    CHECK(r != MPI_REQUEST_NULL, "Wait freed a persistent request");
                } else {
                    CHECK(r == MPI_REQUEST_NULL, "Wait left a cancelled request");
                }
                /* Let the peer send now; the message must go to the next receive. */
                CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, 1, MPI_COMM_WORLD));
                memset(buf, 0, sizeof buf);
                if (variant == 2) {
                    /* The persistent request is reusable after a cancel. */
                    CHECK_MPI(MPI_Start(&r));
                    CHECK_MPI(MPI_Wait(&r, &st));
                    memcpy(buf, cbuf, (size_t)len);
                    CHECK_MPI(MPI_Request_free(&r));
                } else {
                    CHECK_MPI(MPI_Recv(buf, len, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
                    for (int i = 0; i < len; i++)
                        if (cbuf[i] != 0x11) {
                            CHECK(0, "variant %d len %d: the cancelled receive's buffer was written at %d", variant,
                                  len, i);
                            break;
                        }
                }
                int count = -1;
                MPI_Get_count(&st, MPI_BYTE, &count);
                CHECK(cancelled(&st) == 0 && st.MPI_SOURCE == peer && st.MPI_TAG == tag && count == len,
                      "receive after cancel (variant %d len %d): cancelled %d source %d tag %d count %d", variant, len,
                      cancelled(&st), st.MPI_SOURCE, st.MPI_TAG, count);
                for (int i = 0; i < len; i++)
                    if (buf[i] != (char)(i * 3 + k)) {
                        CHECK(0, "receive after cancel (variant %d len %d): byte %d wrong", variant, len, i);
                        break;
                    }
            } else if (rank == peer) {
                CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                for (int i = 0; i < len; i++)
                    buf[i] = (char)(i * 3 + k);
                CHECK_MPI(MPI_Send(buf, len, MPI_BYTE, 0, tag, MPI_COMM_WORLD));
            }
        }
    }
}

/* cancel_completed: cancelling a receive or send that already completed
 * changes nothing. */
static void cancel_completed(int peer) {
    int v = -1, w = 0;
    MPI_Request r;
    MPI_Status st;
    if (rank == 0) {
        CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, peer, 70, MPI_COMM_WORLD, &r));
        int flag = 0;
        while (!flag)
            CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
        CHECK_MPI(MPI_Cancel(&r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK(cancelled(&st) == 0 && v == 4242 && st.MPI_SOURCE == peer && st.MPI_TAG == 70,
              "cancel of a completed receive: cancelled %d value %d source %d tag %d", cancelled(&st), v,
              st.MPI_SOURCE, st.MPI_TAG);
        /* A completed small send. */
        w = 99;
        CHECK_MPI(MPI_Isend(&w, 1, MPI_INT, peer, 71, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, peer, 72, MPI_COMM_WORLD, &st)); /* peer has received it */
        CHECK_MPI(MPI_Cancel(&r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK(cancelled(&st) == 0, "cancel of a delivered send reports it cancelled");
    } else if (rank == peer) {
        w = 4242;
        CHECK_MPI(MPI_Send(&w, 1, MPI_INT, 0, 70, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 71, MPI_COMM_WORLD, &st));
        CHECK(v == 99, "message whose send was cancelled after delivery: %d", v);
        CHECK_MPI(MPI_Send(&w, 1, MPI_INT, 0, 72, MPI_COMM_WORLD));
    }
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    for (int p = 1; p < size; p++) {
        recv_cancel(p);
        cancel_completed(p);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    /* Cancel and free a receive that never matches, on every rank. */
    int v;
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL, "Request_free left the handle");
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    int flag = 0;
    for (int i = 0; i < 1000000 && !flag; i++)
        CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK(flag && cancelled(&st) == 1, "Test of a cancelled receive: flag %d cancelled %d", flag, cancelled(&st));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
