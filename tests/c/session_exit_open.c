//go:build ignore

/* gompi-test: np=1,2,4 timeout=60 */
/* gompi-expect: exit=0 stdout-per-rank=~"rank {rank} leaves with a session open" */
/* A process may leave with a session still open when the world model does
 * not hold the runtime: here a session is used for a barrier on mpi://WORLD
 * and main returns without MPI_Session_finalize. MPICH's processes exit 0
 * with nothing on stderr; gompi finalises the session at exit and does the
 * same (it used to report "exited without calling MPI_Finalize"). With more
 * than one process every rank also runs the world model to completion
 * (MPI_Init ... MPI_Finalize) while the session stays open. */
#include <mpi.h>
#include <stdio.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank = -1;
    const char *np = getenv("GOMPI_TEST_NP");
    int world = np && atoi(np) > 1;
    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Group g;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_create_from_group(g, "gompi.test.exit_open", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MPI_Comm_rank(c, &rank);
    check_rank = rank;
    if (world) {
        /* The world model, used and finalised, while the session stays. */
        MPI_Init(&argc, &argv);
        int wr = -1;
        MPI_Comm_rank(MPI_COMM_WORLD, &wr);
        CHECK(wr == rank, "world rank %d, session rank %d", wr, rank);
        MPI_Finalize();
    }
    CHECK_MPI(MPI_Barrier(c));
    MPI_Group_free(&g);
    printf("rank %d leaves with a session open\n", rank);
    fflush(stdout);
    return check_status();
}
