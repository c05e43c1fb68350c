//go:build ignore

/* gompi-test: np=1,2,3 timeout=60 */
/* Error handlers follow communicators: a dup inherits its parent's user
 * handler, which then sees the dup's handle; changing the parent's handler
 * later leaves the dup's alone; the handler stays usable after the user
 * freed its handle and the parent was given another; a split inherits too. */
#include <mpi.h>

#include "check.h"

static int calls;
static MPI_Comm seen;

static void handler(MPI_Comm *comm, int *code, ...) {
    (void)code;
    calls++;
    seen = *comm;
}

int main(int argc, char **argv) {
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;

    MPI_Errhandler eh, got;
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh));

    MPI_Comm dup, half;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    int rc = MPI_Send(&v, 1, MPI_INT, 99, 0, dup);
    CHECK(rc != MPI_SUCCESS && calls == 1 && seen == dup, "error on the dup: rc %d, %d calls, comm %x (dup %x)", rc,
          calls, (unsigned)seen, (unsigned)dup);
    rc = MPI_Send(&v, 1, MPI_INT, 0, -5, half);
    CHECK(rc != MPI_SUCCESS && calls == 2 && seen == half, "error on the split: rc %d, %d calls", rc, calls);
    rc = MPI_Send(&v, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
    CHECK(rc != MPI_SUCCESS && calls == 2, "world now returns: %d calls", calls);

    CHECK_MPI(MPI_Comm_get_errhandler(dup, &got));
    CHECK(got != MPI_ERRORS_RETURN && got != MPI_ERRHANDLER_NULL, "dup's handler %x", (unsigned)got);
    CHECK_MPI(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER));
    CHECK(calls == 3, "call_errhandler on the dup: %d calls", calls);
    CHECK_MPI(MPI_Errhandler_free(&got));

    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&dup));
    MPI_Finalize();
    return check_status();
}
