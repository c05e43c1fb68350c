//go:build ignore

/* gompi-test: np=1,2 timeout=90 */
/* MPI-4.1 MPI_BUFFER_AUTOMATIC (3.6): attached to the process, a
 * communicator or a session, buffered sends never fail for lack of space
 * (many messages, small and large, contiguous and strided, sent before any
 * is received, none of which would fit a buffer of the attached "size"),
 * and detach returns MPI_BUFFER_AUTOMATIC with size 0. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

#define NMSG 64
#define BIG (256 * 1024)

/* Every rank bsends NMSG messages to its right neighbour before receiving
 * any: with no buffer of our own this only works if the library buffers. */
static void flood(MPI_Comm c, MPI_Datatype strided) {
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int right = (r + 1) % n, left = (r + n - 1) % n;
    int *big = malloc(BIG * sizeof(int)), *in = malloc(BIG * sizeof(int));
    int vec[8], got[8];
    for (int i = 0; i < BIG; i++) big[i] = r * 7 + i;
    for (int i = 0; i < NMSG; i++) {
        int v = r * 1000 + i;
        CHECK_MPI(MPI_Bsend(&v, 1, MPI_INT, right, i, c));
    }
    CHECK_MPI(MPI_Bsend(big, BIG, MPI_INT, right, NMSG, c)); /* a rendezvous-size message */
    for (int i = 0; i < 8; i++) vec[i] = r * 10 + i;
    CHECK_MPI(MPI_Bsend(vec, 1, strided, right, NMSG + 1, c)); /* every other int of vec */
    MPI_Request req;
    int w = -r;
    CHECK_MPI(MPI_Ibsend(&w, 1, MPI_INT, right, NMSG + 2, c, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int i = 0; i < NMSG; i++) {
        int v = -1;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, left, i, c, MPI_STATUS_IGNORE));
        CHECK(v == left * 1000 + i, "message %d: got %d want %d", i, v, left * 1000 + i);
    }
    CHECK_MPI(MPI_Recv(in, BIG, MPI_INT, left, NMSG, c, MPI_STATUS_IGNORE));
    for (int i = 0; i < BIG; i++)
        if (in[i] != left * 7 + i) {
            CHECK(0, "big message [%d] = %d want %d", i, in[i], left * 7 + i);
            break;
        }
    CHECK_MPI(MPI_Recv(got, 4, MPI_INT, left, NMSG + 1, c, MPI_STATUS_IGNORE));
    for (int i = 0; i < 4; i++) CHECK(got[i] == left * 10 + 2 * i, "strided [%d] = %d", i, got[i]);
    CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, left, NMSG + 2, c, MPI_STATUS_IGNORE));
    CHECK(w == -left, "ibsend got %d", w);
    free(big);
    free(in);
}

static void detached_automatic(const char *what, void *addr, int size) {
    CHECK(addr == MPI_BUFFER_AUTOMATIC, "%s returned %p, want MPI_BUFFER_AUTOMATIC", what, addr);
    CHECK(size == 0, "%s returned size %d, want 0", what, size);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype strided;
    MPI_Type_vector(4, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    void *addr = NULL;
    int size = -1;

    /* The process's buffer; the size argument is ignored. */
    CHECK_MPI(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
    EXPECT_CLASS(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0), MPI_ERR_BUFFER); /* already attached */
    flood(MPI_COMM_WORLD, strided);
    CHECK_MPI(MPI_Buffer_flush());
    flood(MPI_COMM_WORLD, strided);
    CHECK_MPI(MPI_Buffer_detach(&addr, &size));
    detached_automatic("MPI_Buffer_detach", addr, size);
    int x = 1;
    EXPECT_CLASS(MPI_Bsend(&x, 1, MPI_INT, check_rank, 5, MPI_COMM_WORLD), MPI_ERR_BUFFER); /* none now */

    /* A communicator's: it serves that communicator only. */
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Comm_attach_buffer(d, MPI_BUFFER_AUTOMATIC, 16));
    flood(d, strided);
    EXPECT_CLASS(MPI_Bsend(&x, 1, MPI_INT, check_rank, 5, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    MPI_Request req;
    CHECK_MPI(MPI_Comm_iflush_buffer(d, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    addr = NULL, size = -1;
    CHECK_MPI(MPI_Comm_detach_buffer(d, &addr, &size));
    detached_automatic("MPI_Comm_detach_buffer", addr, size);
    MPI_Comm_free(&d);

    /* A session's, used by a communicator made from its process set. */
    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Group g;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MPI_Comm sc;
    CHECK_MPI(MPI_Comm_create_from_group(g, "gompi.test.bsend_auto", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc));
    CHECK_MPI(MPI_Session_attach_buffer(s, MPI_BUFFER_AUTOMATIC, 0));
    flood(sc, strided);
    addr = NULL, size = -1;
    CHECK_MPI(MPI_Session_detach_buffer(s, &addr, &size));
    detached_automatic("MPI_Session_detach_buffer", addr, size);
    MPI_Comm_free(&sc);
    MPI_Group_free(&g);
    CHECK_MPI(MPI_Session_finalize(&s));

    /* A user buffer again after the automatic one: sizes count again. */
    int bsize = MPI_BSEND_OVERHEAD + 16;
    char *buf = malloc(bsize);
    CHECK_MPI(MPI_Buffer_attach(buf, bsize));
    int big[64] = {0};
    EXPECT_CLASS(MPI_Bsend(big, 64, MPI_INT, check_rank, 6, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_MPI(MPI_Buffer_detach(&addr, &size));
    CHECK(addr == buf && size == bsize, "detach returned %p/%d", addr, size);
    free(buf);

    MPI_Type_free(&strided);
    MPI_Finalize();
    return check_status();
}
