//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* MPI_Wtime never goes backwards, advances with real time, and MPI_Wtick is a
 * positive resolution no coarser than a millisecond (both MPICH and Open MPI
 * give a clock_gettime-based resolution). */
#include <mpi.h>
#include <time.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank = -1, i;
    double tick, prev, now, before, after;
    struct timespec nap = {0, 50 * 1000 * 1000};

    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    check_rank = rank;

    tick = MPI_Wtick();
    CHECK(tick > 0 && tick <= 1e-3, "MPI_Wtick gave %g", tick);

    prev = MPI_Wtime();
    for (i = 0; i < 1000000; i++) {
        now = MPI_Wtime();
        if (now < prev) {
            CHECK(0, "MPI_Wtime went backwards at call %d: %.9f then %.9f", i, prev, now);
            break;
        }
        prev = now;
    }

    before = MPI_Wtime();
    nanosleep(&nap, NULL);
    after = MPI_Wtime();
    /* 50 ms of sleep; the upper bound only guards against a wrong unit. */
    CHECK(after - before >= 0.049 && after - before < 5.0,
          "MPI_Wtime advanced %.6f s across a 50 ms sleep", after - before);

    CHECK_MPI(MPI_Finalize());
    return check_status();
}
