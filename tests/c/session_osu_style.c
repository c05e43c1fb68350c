//go:build ignore

/* gompi-test: np=1,2,4 timeout=60 */
/* The sessions start-up of OSU 7.4's benchmarks with -I (osu_init et al.):
 * MPI_Session_init, mpi://WORLD, MPI_Comm_create_from_group with tag "omb",
 * then reductions that still name MPI_COMM_WORLD (erroneous by the letter
 * of the standard, accepted by MPICH: OSU relies on it), then the
 * communicator and session freed and the process leaving cleanly. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
    MPI_Session s;
    MPI_Group g;
    MPI_Comm c;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, "omb", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK_MPI(MPI_Group_free(&g));
    int r, n;
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_MPI(MPI_Comm_size(c, &n));
    check_rank = r;
    CHECK(n == atoi(getenv("GOMPI_TEST_NP")), "size %d", n);
    long d = r + 1, mn = 0, mx = 0, sum = 0;
    CHECK_MPI(MPI_Reduce(&d, &mn, 1, MPI_LONG, MPI_MIN, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Reduce(&d, &mx, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Reduce(&d, &sum, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    if (r == 0)
        CHECK(mn == 1 && mx == n && sum == (long)n * (n + 1) / 2, "min %ld max %ld sum %ld", mn, mx, sum);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Session_finalize(&s));
    return check_status();
}
