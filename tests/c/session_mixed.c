//go:build ignore

/* gompi-test: np=1,2,4 timeout=90 */
/* Sessions and the world model in one process, sessions first: a session
 * opens before MPI_Init, MPI_COMM_WORLD and a session communicator work side
 * by side, MPI_Finalize leaves the open session usable (MPI-4 11.2), a new
 * session opens after MPI_Finalize, and the runtime stops at the last
 * MPI_Session_finalize. Also session error handlers: create/set/get/call,
 * and MPI_ERR_SESSION for bad handles. */
#include <mpi.h>
#include <string.h>

#include "check.h"

static int called, called_code;
static MPI_Session called_session;

static void on_error(MPI_Session *s, int *code, ...) {
    called++;
    called_session = *s;
    called_code = *code;
}

static MPI_Comm world_of(MPI_Session s, const char *tag) {
    MPI_Group g;
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK_MPI(MPI_Group_free(&g));
    return c;
}

static void ring(MPI_Comm c, int tag) {
    int r, n, got = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    CHECK_MPI(MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, tag, &got, 1, MPI_INT, (r + n - 1) % n, tag, c,
                           MPI_STATUS_IGNORE));
    CHECK(got == (r + n - 1) % n, "ring %d got %d", tag, got);
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK(sum == n * (n - 1) / 2, "allreduce %d", sum);
}

int main(int argc, char **argv) {
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Session_create_errhandler(on_error, &eh));
    MPI_Session s1, s2;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, eh, &s1));
    MPI_Comm c1 = world_of(s1, "mixed.one");
    MPI_Comm_rank(c1, &check_rank);
    int flag = -1;
    MPI_Initialized(&flag);
    CHECK(flag == 0, "MPI_Initialized %d before MPI_Init", flag);

    /* Session error handler: get returns it, call invokes it with the session. */
    MPI_Errhandler got;
    CHECK_MPI(MPI_Session_get_errhandler(s1, &got));
    CHECK(got == eh, "get_errhandler %#x want %#x", got, eh);
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Session_call_errhandler(s1, MPI_ERR_OTHER));
    CHECK(called == 1 && called_session == s1 && called_code == MPI_ERR_OTHER, "handler: %d calls, session %#x, code %d",
          called, called_session, called_code);
    /* An error in a session call goes to the session's handler. */
    MPI_Group g;
    int rc = MPI_Group_from_session_pset(s1, "mpi://nope", &g);
    CHECK(rc != MPI_SUCCESS && called == 2 && err_class(called_code) == MPI_ERR_ARG, "rc %d calls %d code %d", rc,
          called, called_code);
    /* A communicator handler does not fit a session. */
    MPI_Errhandler ceh;
    CHECK_MPI(MPI_Session_set_errhandler(s1, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_get_errhandler(c1, &ceh));
    CHECK(ceh == MPI_ERRORS_RETURN, "comm handler %#x", ceh);

    ring(c1, 1);

    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Initialized(&flag);
    CHECK(flag == 1, "MPI_Initialized %d after MPI_Init", flag);
    int wr;
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    CHECK(wr == check_rank, "world rank %d, session rank %d", wr, check_rank);
    int cmp = -1;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, c1, &cmp));
    CHECK(cmp == MPI_CONGRUENT, "compare %d", cmp);
    ring(MPI_COMM_WORLD, 2);
    ring(c1, 3);
    /* Bad session handles (no session to raise on: the world's handler). */
    MPI_Info inf;
    EXPECT_CLASS(MPI_Session_get_info(MPI_SESSION_NULL, &inf), MPI_ERR_SESSION);
    EXPECT_CLASS(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &flag), MPI_ERR_SESSION);
    EXPECT_CLASS(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL), MPI_ERR_ARG);

    CHECK_MPI(MPI_Finalize());
    MPI_Finalized(&flag);
    CHECK(flag == 1, "MPI_Finalized %d", flag);
    /* The session outlives the world model. */
    ring(c1, 4);
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    MPI_Comm c2 = world_of(s2, "mixed.two");
    ring(c2, 5);
    CHECK_MPI(MPI_Comm_free(&c1));
    CHECK_MPI(MPI_Session_finalize(&s1));
    ring(c2, 6);
    CHECK_MPI(MPI_Comm_free(&c2));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Session_finalize(&s2));
    return check_status();
}
