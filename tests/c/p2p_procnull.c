//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* MPI_PROC_NULL with every point-to-point call: sends of each mode (Bsend
 * with no buffer attached) and receives succeed at once; a receive's status
 * has source MPI_PROC_NULL, tag MPI_ANY_TAG and count 0, and its buffer is
 * untouched; probes find a "message" at once; Mprobe/Improbe give
 * MPI_MESSAGE_NO_PROC, and Mrecv/Imrecv of it behave as a receive from
 * MPI_PROC_NULL; persistent requests complete likewise on every Start. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static int rank, size;
static int buf[16];

static void check_pn(const MPI_Status *st, const char *what) {
    int count = -1, ecount = -1;
    MPI_Count xcount = -1;
    MPI_Get_count(st, MPI_INT, &count);
    MPI_Get_elements(st, MPI_INT, &ecount);
    MPI_Get_elements_x(st, MPI_INT, &xcount);
    CHECK(st->MPI_SOURCE == MPI_PROC_NULL && st->MPI_TAG == MPI_ANY_TAG && count == 0 && ecount == 0 && xcount == 0,
          "%s: status source %d tag %d count %d elements %d/%lld, want MPI_PROC_NULL, MPI_ANY_TAG, 0", what,
          st->MPI_SOURCE, st->MPI_TAG, count, ecount, (long long)xcount);
    for (int i = 0; i < 16; i++)
        if (buf[i] != -7) {
            CHECK(0, "%s: the receive buffer was written", what);
            break;
        }
}

static void poison(MPI_Status *st) {
    memset(st, 0x6d, sizeof *st);
    for (int i = 0; i < 16; i++)
        buf[i] = -7;
}

int main(int argc, char **argv) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    int out[16] = {1, 2, 3};
    MPI_Request req;
    MPI_Status st;
    int flag;
    const int PN = MPI_PROC_NULL;

    /* Sends of every mode; Bsend needs no buffer for MPI_PROC_NULL. */
    CHECK_MPI(MPI_Send(out, 16, MPI_INT, PN, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Ssend(out, 16, MPI_INT, PN, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Rsend(out, 16, MPI_INT, PN, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Bsend(out, 16, MPI_INT, PN, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, PN, 1, MPI_COMM_WORLD));
    int (*isends[4])(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *) = {MPI_Isend, MPI_Issend,
                                                                                          MPI_Irsend, MPI_Ibsend};
    const char *inames[4] = {"MPI_Isend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend"};
    for (int i = 0; i < 4; i++) {
        CHECK_MPI(isends[i](out, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &req));
        flag = 0;
        CHECK_MPI(MPI_Test(&req, &flag, &st));
        CHECK(flag && req == MPI_REQUEST_NULL, "%s to MPI_PROC_NULL: Test flag %d", inames[i], flag);
    }

    /* Receives. */
    poison(&st);
    CHECK_MPI(MPI_Recv(buf, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &st));
    check_pn(&st, "MPI_Recv");
    poison(&st);
    CHECK_MPI(MPI_Recv(buf, 16, MPI_INT, PN, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    check_pn(&st, "MPI_Recv with MPI_ANY_TAG");
    poison(&st);
    CHECK_MPI(MPI_Irecv(buf, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL, "Wait left the request");
    check_pn(&st, "MPI_Irecv+MPI_Wait");
    poison(&st);
    CHECK_MPI(MPI_Irecv(buf, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &req));
    flag = 0;
    CHECK_MPI(MPI_Test(&req, &flag, &st));
    CHECK(flag, "MPI_Test of a receive from MPI_PROC_NULL: not complete");
    check_pn(&st, "MPI_Irecv+MPI_Test");
    poison(&st);
    CHECK_MPI(MPI_Irecv(buf, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &req));
    flag = 0;
    CHECK_MPI(MPI_Request_get_status(req, &flag, &st));
    CHECK(flag, "MPI_Request_get_status of a receive from MPI_PROC_NULL: not complete");
    check_pn(&st, "MPI_Request_get_status");
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));

    /* Sendrecv, both sides or one. */
    poison(&st);
    CHECK_MPI(MPI_Sendrecv(out, 16, MPI_INT, PN, 1, buf, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &st));
    check_pn(&st, "MPI_Sendrecv");
    poison(&st);
    CHECK_MPI(MPI_Sendrecv_replace(buf, 16, MPI_INT, PN, 1, PN, 1, MPI_COMM_WORLD, &st));
    check_pn(&st, "MPI_Sendrecv_replace");
    {
        /* A ring without wrap-around: the ends talk to MPI_PROC_NULL. */
        int right = rank + 1 < size ? rank + 1 : PN, left = rank > 0 ? rank - 1 : PN;
        int v = rank, got = -5;
        CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, right, 9, &got, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &st));
        if (left == PN)
            CHECK(got == -5 && st.MPI_SOURCE == PN, "open ring: rank 0 got %d from %d", got, st.MPI_SOURCE);
        else
            CHECK(got == left && st.MPI_SOURCE == left, "open ring: got %d from %d", got, st.MPI_SOURCE);
    }

    /* Probes. */
    poison(&st);
    CHECK_MPI(MPI_Probe(PN, 1, MPI_COMM_WORLD, &st));
    check_pn(&st, "MPI_Probe");
    poison(&st);
    flag = 0;
    CHECK_MPI(MPI_Iprobe(PN, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK(flag, "MPI_Iprobe(MPI_PROC_NULL): flag false");
    check_pn(&st, "MPI_Iprobe");

    MPI_Message msg = MPI_MESSAGE_NULL;
    poison(&st);
    CHECK_MPI(MPI_Mprobe(PN, 1, MPI_COMM_WORLD, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NO_PROC, "MPI_Mprobe(MPI_PROC_NULL) gave message %d, want MPI_MESSAGE_NO_PROC",
          (int)msg);
    check_pn(&st, "MPI_Mprobe");
    poison(&st);
    CHECK_MPI(MPI_Mrecv(buf, 16, MPI_INT, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NULL, "MPI_Mrecv(MPI_MESSAGE_NO_PROC) left message %d", (int)msg);
    check_pn(&st, "MPI_Mrecv");

    msg = MPI_MESSAGE_NULL;
    flag = 0;
    poison(&st);
    CHECK_MPI(MPI_Improbe(PN, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
    CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "MPI_Improbe(MPI_PROC_NULL): flag %d message %d", flag, (int)msg);
    check_pn(&st, "MPI_Improbe");
    poison(&st);
    CHECK_MPI(MPI_Imrecv(buf, 16, MPI_INT, &msg, &req));
    CHECK(msg == MPI_MESSAGE_NULL, "MPI_Imrecv(MPI_MESSAGE_NO_PROC) left message %d", (int)msg);
    CHECK_MPI(MPI_Wait(&req, &st));
    check_pn(&st, "MPI_Imrecv+MPI_Wait");

    /* Persistent requests. */
    MPI_Request pr[5];
    CHECK_MPI(MPI_Send_init(out, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &pr[0]));
    CHECK_MPI(MPI_Ssend_init(out, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &pr[1]));
    CHECK_MPI(MPI_Rsend_init(out, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &pr[2]));
    CHECK_MPI(MPI_Bsend_init(out, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &pr[3]));
    CHECK_MPI(MPI_Recv_init(buf, 16, MPI_INT, PN, 1, MPI_COMM_WORLD, &pr[4]));
    for (int it = 0; it < 3; it++) {
        MPI_Status sts[5];
        for (int i = 0; i < 16; i++)
            buf[i] = -7;
        if (it == 1) {
            for (int i = 0; i < 5; i++)
                CHECK_MPI(MPI_Start(&pr[i]));
        } else {
            CHECK_MPI(MPI_Startall(5, pr));
        }
        CHECK_MPI(MPI_Waitall(5, pr, sts));
        for (int i = 0; i < 5; i++)
            CHECK(pr[i] != MPI_REQUEST_NULL, "persistent request %d freed by Waitall", i);
        check_pn(&sts[4], "persistent receive");
    }
    for (int i = 0; i < 5; i++)
        CHECK_MPI(MPI_Request_free(&pr[i]));

    /* Mixed with real requests in Waitall/Waitany. */
    {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size, v = rank, got = -1, idx;
        MPI_Request rq[4];
        MPI_Status sts[4];
        for (int i = 0; i < 16; i++)
            buf[i] = -7;
        CHECK_MPI(MPI_Irecv(buf, 16, MPI_INT, PN, 3, MPI_COMM_WORLD, &rq[0]));
        CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, &rq[1]));
        CHECK_MPI(MPI_Isend(out, 16, MPI_INT, PN, 3, MPI_COMM_WORLD, &rq[2]));
        CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, next, 3, MPI_COMM_WORLD, &rq[3]));
        CHECK_MPI(MPI_Waitany(1, &rq[0], &idx, &st));
        CHECK(idx == 0, "Waitany over a PROC_NULL receive: index %d", idx);
        check_pn(&st, "MPI_Waitany");
        CHECK_MPI(MPI_Waitall(4, rq, sts));
        CHECK(got == prev && sts[1].MPI_SOURCE == prev, "ring: got %d from %d", got, sts[1].MPI_SOURCE);
    }

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
