//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* User error handlers: MPI_Comm_create_errhandler and the MPI-1
 * Errhandler_create/set/get, called with the communicator and the code on a
 * failing call (the call then returns that code) and by
 * MPI_Comm_call_errhandler; a handler may itself call MPI; handles survive
 * get/free reference counting; MPI_COMM_SELF keeps its own handler; argument
 * errors of the handler calls under MPI_ERRORS_RETURN. */
#include <mpi.h>
#include <string.h>

#include "check.h"

#pragma GCC diagnostic ignored "-Wnonnull"

static int calls, last_code, inner_rank;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...) {
    calls++;
    last_comm = *comm;
    last_code = *code;
    /* MPI calls are allowed inside a handler. */
    MPI_Comm_rank(*comm, &inner_rank);
}

static int other_calls;
static void other(MPI_Comm *comm, int *code, ...) {
    (void)comm;
    (void)code;
    other_calls++;
}

int main(int argc, char **argv) {
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;

    MPI_Errhandler eh, got;
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK(eh != MPI_ERRHANDLER_NULL && eh != MPI_ERRORS_RETURN && eh != MPI_ERRORS_ARE_FATAL,
          "create gave a predefined handle %x", (unsigned)eh);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got == eh, "get returned %x, set %x", (unsigned)got, (unsigned)eh);
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK(got == MPI_ERRHANDLER_NULL, "free did not reset the handle");

    /* A failing call invokes the handler and returns the code. */
    int rc = MPI_Send(&v, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
    CHECK(calls == 1, "handler called %d times after a bad send", calls);
    CHECK(err_class(rc) == MPI_ERR_RANK, "bad send returned %d", rc);
    CHECK(last_code == rc, "handler saw code %d, call returned %d", last_code, rc);
    CHECK(last_comm == MPI_COMM_WORLD, "handler saw comm %x", (unsigned)last_comm);
    CHECK(inner_rank == rank, "MPI_Comm_rank inside the handler gave %d", inner_rank);

    /* The user still holds eh: freeing it leaves the handler on the comm. */
    CHECK_MPI(MPI_Errhandler_free(&eh));
    calls = 0;
    MPI_Send(&v, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
    CHECK(calls == 1, "handler gone after the user freed its handle (%d calls)", calls);
    /* get after free hands out a live handle again. */
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got != MPI_ERRHANDLER_NULL, "get returned MPI_ERRHANDLER_NULL");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, got));
    CHECK_MPI(MPI_Errhandler_free(&got));

    /* MPI_Comm_call_errhandler with a predefined and a user code. */
    int uclass, ucode;
    CHECK_MPI(MPI_Add_error_class(&uclass));
    CHECK_MPI(MPI_Add_error_code(uclass, &ucode));
    calls = 0;
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG));
    CHECK(calls == 1 && last_code == MPI_ERR_TAG, "call_errhandler: %d calls, code %d", calls, last_code);
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, ucode));
    CHECK(calls == 2 && last_code == ucode && last_comm == MPI_COMM_SELF,
          "call_errhandler on self: %d calls, code %d", calls, last_code);

    /* MPI-1 names; a different handler on world leaves self's alone. */
    MPI_Errhandler eh1;
    CHECK_MPI(MPI_Errhandler_create(other, &eh1));
    CHECK_MPI(MPI_Errhandler_set(MPI_COMM_WORLD, eh1));
    CHECK_MPI(MPI_Errhandler_get(MPI_COMM_WORLD, &got));
    CHECK(got == eh1, "Errhandler_get returned %x, want %x", (unsigned)got, (unsigned)eh1);
    CHECK_MPI(MPI_Errhandler_free(&got));
    calls = 0;
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_OTHER));
    CHECK(other_calls == 1 && calls == 1, "world handler %d calls, self handler %d", other_calls, calls);

    /* Predefined handlers: get returns them, free is allowed and resets. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got == MPI_ERRORS_RETURN, "get returned %x", (unsigned)got);
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK(got == MPI_ERRHANDLER_NULL, "free of a predefined handle");
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_ARG)); /* returns success */

    /* Errors. */
    MPI_Errhandler weh, bad = (MPI_Errhandler)0x5412345, null = MPI_ERRHANDLER_NULL, stale = eh1;
    CHECK_MPI(MPI_Errhandler_free(&eh1));
    EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER);
    EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, bad), MPI_ERR_ERRHANDLER);
    EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_get_errhandler(MPI_COMM_NULL, &got), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_get_errhandler(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_create_errhandler(NULL, &got), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_create_errhandler(handler, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Errhandler_free(&null), MPI_ERR_ERRHANDLER);
    EXPECT_CLASS(MPI_Errhandler_free(&bad), MPI_ERR_ERRHANDLER);
    EXPECT_CLASS(MPI_Errhandler_free(&stale), MPI_ERR_ERRHANDLER); /* no reference left */
    EXPECT_CLASS(MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_ARG), MPI_ERR_COMM);
    CHECK_MPI(MPI_Win_create_errhandler((MPI_Win_errhandler_function *)other, &weh));
    EXPECT_CLASS(MPI_Comm_set_errhandler(MPI_COMM_WORLD, weh), MPI_ERR_ERRHANDLER); /* MPI-4.1 class */
    CHECK_MPI(MPI_Errhandler_free(&weh));

    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Finalize();
    return check_status();
}
