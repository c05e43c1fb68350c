//go:build ignore

/* gompi-test: np=1,2,4 timeout=60 */
/* MPI-4.1 buffers for buffered sends: MPI_Comm_attach_buffer /
 * detach_buffer / flush_buffer / iflush_buffer, the same on a session (used
 * by communicators made from its process sets), MPI_Buffer_flush and
 * MPI_Buffer_iflush; a communicator's buffer serves its MPI_Bsend with no
 * process buffer attached; error classes. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

static void ring_bsend(MPI_Comm c, int tag) {
    int r, n, x, y = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    x = r * 3 + tag;
    CHECK_MPI(MPI_Bsend(&x, 1, MPI_INT, (r + 1) % n, tag, c));
    CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, (r + n - 1) % n, tag, c, MPI_STATUS_IGNORE));
    CHECK(y == ((r + n - 1) % n) * 3 + tag, "tag %d got %d", tag, y);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int size = 4 * (MPI_BSEND_OVERHEAD + 64);
    char *cb = malloc(size), *sb = malloc(size);

    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
    int x = 1;
    EXPECT_CLASS(MPI_Bsend(&x, 1, MPI_INT, check_rank, 99, d), MPI_ERR_BUFFER); /* no buffer attached yet */
    CHECK_MPI(MPI_Comm_attach_buffer(d, cb, size));
    EXPECT_CLASS(MPI_Comm_attach_buffer(d, cb, size), MPI_ERR_BUFFER);
    ring_bsend(d, 1);
    ring_bsend(d, 2);
    CHECK_MPI(MPI_Comm_flush_buffer(d));
    MPI_Request rq;
    CHECK_MPI(MPI_Comm_iflush_buffer(d, &rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    void *addr = NULL;
    int got = -1;
    CHECK_MPI(MPI_Comm_detach_buffer(d, &addr, &got));
    CHECK(addr == cb && got == size, "detach gave %p %d", addr, got);
    EXPECT_CLASS(MPI_Comm_detach_buffer(d, &addr, &got), MPI_ERR_BUFFER);
    MPI_Comm_free(&d);

    /* The process buffer, and the flush calls on it. */
    CHECK_MPI(MPI_Buffer_attach(cb, size));
    ring_bsend(MPI_COMM_WORLD, 3);
    CHECK_MPI(MPI_Buffer_flush());
    CHECK_MPI(MPI_Buffer_iflush(&rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Buffer_detach(&addr, &got));

    /* A session's buffer serves the communicators made from it. */
    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Group g;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MPI_Comm sc;
    CHECK_MPI(MPI_Comm_create_from_group(g, "buffers", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc));
    CHECK_MPI(MPI_Session_attach_buffer(s, sb, size));
    EXPECT_CLASS(MPI_Session_attach_buffer(s, sb, size), MPI_ERR_BUFFER);
    ring_bsend(sc, 4);
    CHECK_MPI(MPI_Session_flush_buffer(s));
    CHECK_MPI(MPI_Session_iflush_buffer(s, &rq));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Session_detach_buffer(s, &addr, &got));
    CHECK(addr == sb && got == size, "session detach gave %p %d", addr, got);
    EXPECT_CLASS(MPI_Session_detach_buffer(s, &addr, &got), MPI_ERR_BUFFER);
    MPI_Comm_free(&sc);
    MPI_Group_free(&g);
    CHECK_MPI(MPI_Session_finalize(&s));

    MPI_Finalize();
    free(cb);
    free(sb);
    return check_status();
}
