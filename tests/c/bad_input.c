//go:build ignore

/* gompi-test: np=1,2,4 timeout=60 */
/* Bad input of issue 27 under MPI_ERRORS_RETURN: each call returns the class
 * MPICH returns (or the standard's MPI_ERR_ARG where MPICH crashes or
 * accepts it), never crashes, and changes nothing. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wnonnull"

int main(int argc, char **argv) {
    int size, flag, idx, cls, len, out, v = 7, w = 0;
    char name[MPI_MAX_PROCESSOR_NAME], str[MPI_MAX_ERROR_STRING];
    MPI_Status st;
    MPI_Request rq, copy, reqs[2];
    MPI_Comm c, c2, stale;
    void *mem;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    /* NULL output pointers (crashed with a Go panic before). */
    reqs[0] = reqs[1] = MPI_REQUEST_NULL;
    EXPECT_CLASS(MPI_Waitsome(2, reqs, NULL, &idx, MPI_STATUSES_IGNORE), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Testsome(2, reqs, NULL, &idx, MPI_STATUSES_IGNORE), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Waitany(2, reqs, NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Error_class(MPI_ERR_COMM, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Get_processor_name(NULL, &len), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Get_processor_name(name, NULL), MPI_ERR_ARG);

    /* Garbage info handles. */
    EXPECT_CLASS(MPI_Comm_dup_with_info(MPI_COMM_WORLD, (MPI_Info)0x1c000777, &c), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Comm_dup_with_info(MPI_COMM_WORLD, (MPI_Info)12345, &c), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Alloc_mem(64, (MPI_Info)0x1c000777, &mem), MPI_ERR_INFO);

    /* An uncommitted type. */
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    EXPECT_CLASS(MPI_Pack_size(1, t, MPI_COMM_WORLD, &out), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&t));

    /* NULL flag or status where MPI_STATUS_IGNORE was not passed. */
    EXPECT_CLASS(MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_SELF, NULL, &st), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Testall(2, reqs, NULL, MPI_STATUSES_IGNORE), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Testany(2, reqs, &idx, NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_SELF));
    EXPECT_CLASS(MPI_Recv(&w, 1, MPI_INT, 0, 5, MPI_COMM_SELF, NULL), MPI_ERR_ARG);
    CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &st)); /* the message is still there */
    CHECK(w == 7, "received %d", w);

    /* NULL request pointer: MPI_ERR_ARG, not MPI_ERR_REQUEST. */
    EXPECT_CLASS(MPI_Isend(&v, 1, MPI_INT, 0, 0, MPI_COMM_SELF, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Irecv(&w, 1, MPI_INT, 0, 0, MPI_COMM_SELF, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Wait(NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG);

    /* A stale copy of a completed request's handle, before and after its
     * slot is reused by the next request. */
    CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, 0, 6, MPI_COMM_SELF, &rq));
    copy = rq;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 6, MPI_COMM_SELF));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    EXPECT_CLASS(MPI_Wait(&copy, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    copy = rq = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, 0, 8, MPI_COMM_SELF, &rq));
    copy = rq;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 8, MPI_COMM_SELF));
    CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MPI_Request next;
    CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &next)); /* may reuse the slot */
    EXPECT_CLASS(MPI_Wait(&copy, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    EXPECT_CLASS(MPI_Test(&copy, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_SELF));
    CHECK_MPI(MPI_Wait(&next, MPI_STATUS_IGNORE)); /* the live request is untouched */
    CHECK(next == MPI_REQUEST_NULL, "request not nulled");

    /* The same with receives the C fast path queues (MPI_COMM_WORLD, another
     * rank): a stale copy is invalid also after the next receive reuses its
     * slot. */
    if (size > 1 && check_rank < 2) {
        int peer = 1 - check_rank;
        if (check_rank == 0) {
            CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq));
            copy = rq;
            CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            EXPECT_CLASS(MPI_Wait(&copy, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
            CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq));
            CHECK(rq != copy, "a completed receive's handle was handed out again at once");
            EXPECT_CLASS(MPI_Wait(&copy, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
            CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            CHECK(w == 7, "received %d", w);
        } else {
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, 3, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, peer, 4, MPI_COMM_WORLD));
        }
    }

    /* Use after free of a communicator: its handle names nothing, even once
     * the next communicator takes its slot. */
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    stale = c;
    CHECK_MPI(MPI_Comm_free(&c));
    EXPECT_CLASS(MPI_Comm_rank(stale, &out), MPI_ERR_COMM);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c2));
    CHECK(c2 != stale, "the freed handle was handed out again at once");
    EXPECT_CLASS(MPI_Comm_rank(stale, &out), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Send(&v, 1, MPI_INT, 0, 0, stale), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Barrier(stale), MPI_ERR_COMM);
    CHECK_MPI(MPI_Comm_set_errhandler(c2, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, c2));
    CHECK(w == 7 * size, "allreduce on the new communicator: %d", w);
    CHECK_MPI(MPI_Comm_free(&c2));
    for (int i = 0; i < 50; i++) { /* many reuses of one slot */
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &c));
        CHECK(c != stale, "round %d: the freed handle came back", i);
        CHECK_MPI(MPI_Comm_free(&c));
    }

    /* Classes that were wrong (MPICH's). */
    int dims[1] = {size + 1}, periods[1] = {0}, index[1] = {1}, edges[1] = {size + 5};
    MPI_Comm topo;
    EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &topo), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &topo), MPI_ERR_ARG);
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    EXPECT_CLASS(MPI_Info_set(info, "key", NULL), MPI_ERR_ARG);
    CHECK_MPI(MPI_Info_free(&info));
    if (size > 1) {
        MPI_Comm half, inter;
        int one[1] = {1};
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, check_rank % 2, check_rank, &half));
        CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, check_rank % 2 ? 0 : 1, 9, &inter));
        CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
        EXPECT_CLASS(MPI_Cart_create(inter, 1, one, periods, 0, &topo), MPI_ERR_COMM);
        CHECK_MPI(MPI_Comm_free(&inter));
        CHECK_MPI(MPI_Comm_free(&half));
    }

    /* Codes gompi did not make: MPI_ERR_ARG through the handler. */
    EXPECT_CLASS(MPI_Error_class(123456, &cls), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Error_string(123456, str, &len), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Error_class(-5, &cls), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Error_string(-5, str, &len), MPI_ERR_ARG);

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return check_status();
}
