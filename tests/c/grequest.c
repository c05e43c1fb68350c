//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* Generalized requests: MPI_Grequest_start/complete with the query, free and
 * cancel callbacks honoured by MPI_Wait, MPI_Test, MPI_Waitall,
 * MPI_Request_get_status, MPI_Cancel and MPI_Request_free; the query's
 * status (source, tag, count, cancelled) and error code reach the caller. */
#include <mpi.h>
#include <string.h>

#include "check.h"

struct state {
    int queries, frees, cancels, last_complete, tag, rc;
};

static int query(void *extra, MPI_Status *s) {
    struct state *st = extra;
    st->queries++;
    MPI_Status_set_source(s, 42);
    MPI_Status_set_tag(s, st->tag);
    MPI_Status_set_elements(s, MPI_INT, 3);
    MPI_Status_set_cancelled(s, st->cancels > 0);
    return st->rc;
}

static int release(void *extra) {
    ((struct state *)extra)->frees++;
    return MPI_SUCCESS;
}

static int cancel(void *extra, int complete) {
    struct state *st = extra;
    st->cancels++;
    st->last_complete = complete;
    return MPI_SUCCESS;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Wait: completes after MPI_Grequest_complete; query then free run once. */
    struct state a = {.tag = 7};
    MPI_Request r;
    MPI_Status s;
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &a, &r));
    int flag = -1;
    CHECK_MPI(MPI_Test(&r, &flag, &s));
    CHECK(flag == 0 && a.queries == 0 && r != MPI_REQUEST_NULL, "test before complete: flag %d", flag);
    CHECK_MPI(MPI_Request_get_status(r, &flag, &s));
    CHECK(flag == 0, "get_status before complete: flag %d", flag);
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Request_get_status(r, &flag, &s));
    CHECK(flag == 1 && a.queries == 1 && a.frees == 0 && s.MPI_TAG == 7, "get_status: flag %d queries %d frees %d", flag,
          a.queries, a.frees);
    CHECK_MPI(MPI_Wait(&r, &s));
    int cnt = -1, canc = -1;
    MPI_Get_count(&s, MPI_INT, &cnt);
    MPI_Test_cancelled(&s, &canc);
    CHECK(r == MPI_REQUEST_NULL && a.queries == 2 && a.frees == 1, "wait: queries %d frees %d", a.queries, a.frees);
    CHECK(s.MPI_SOURCE == 42 && s.MPI_TAG == 7 && cnt == 3 && !canc, "status %d %d %d %d", s.MPI_SOURCE, s.MPI_TAG, cnt,
          canc);

    /* Cancel before completion: the callback learns it is not complete. */
    struct state b = {.tag = 8};
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &b, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(b.cancels == 1 && b.last_complete == 0, "cancel: %d calls, complete %d", b.cancels, b.last_complete);
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Test(&r, &flag, &s));
    MPI_Test_cancelled(&s, &canc);
    CHECK(flag == 1 && canc && b.frees == 1, "after cancel: flag %d cancelled %d frees %d", flag, canc, b.frees);

    /* Request_free before completion: free runs at completion, query never. */
    struct state c = {.tag = 9};
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &c, &r));
    MPI_Request keep = r;
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL && c.frees == 0, "free before complete: frees %d", c.frees);
    CHECK_MPI(MPI_Grequest_complete(keep));
    CHECK(c.frees == 1 && c.queries == 0, "free at completion: frees %d queries %d", c.frees, c.queries);

    /* Waitall over two generalized requests and a real receive. */
    struct state d = {.tag = 10}, e = {.tag = 11};
    MPI_Request rs[3];
    int x = check_rank, y = -1;
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &d, &rs[0]));
    CHECK_MPI(MPI_Irecv(&y, 1, MPI_INT, check_rank, 3, MPI_COMM_WORLD, &rs[1]));
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &e, &rs[2]));
    CHECK_MPI(MPI_Grequest_complete(rs[2]));
    CHECK_MPI(MPI_Grequest_complete(rs[0]));
    CHECK_MPI(MPI_Send(&x, 1, MPI_INT, check_rank, 3, MPI_COMM_WORLD));
    MPI_Status ss[3];
    CHECK_MPI(MPI_Waitall(3, rs, ss));
    CHECK(ss[0].MPI_TAG == 10 && ss[2].MPI_TAG == 11 && ss[1].MPI_TAG == 3 && y == x, "waitall tags %d %d %d",
          ss[0].MPI_TAG, ss[1].MPI_TAG, ss[2].MPI_TAG);
    CHECK(d.frees == 1 && e.frees == 1, "waitall frees %d %d", d.frees, e.frees);

    /* A query's error code is what MPI_Wait returns. */
    struct state f = {.tag = 12, .rc = MPI_ERR_OTHER};
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &f, &r));
    CHECK_MPI(MPI_Grequest_complete(r));
    EXPECT_CLASS(MPI_Wait(&r, &s), MPI_ERR_OTHER);
    CHECK(f.frees == 1, "error path frees %d", f.frees);

    /* Bad input. */
    EXPECT_CLASS(MPI_Grequest_start(query, release, cancel, NULL, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Irecv(&y, 1, MPI_INT, check_rank, 4, MPI_COMM_WORLD, &r));
    EXPECT_CLASS(MPI_Grequest_complete(r), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Send(&x, 1, MPI_INT, check_rank, 4, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));

    MPI_Finalize();
    return check_status();
}
