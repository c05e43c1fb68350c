//go:build ignore

/* gompi-test: np=2,3,4 timeout=90 */
/* MPI_Comm_create_group while MPI_Comm_idup / MPI_Comm_idup_with_info are
 * outstanding on other communicators, in different orders on different
 * ranks (issue 23: any number of outstanding idups and create_groups, in
 * any order across ranks, must complete): even ranks start their idups,
 * then create groups; odd ranks create the groups first and start their
 * idups after. A create_group of only the even ranks runs while odd ranks
 * are in their idups. Every new communicator works. Each round idups
 * fresh parents made by MPI_Comm_dup, so each idup here is its parent's
 * first, which takes the parent's reserve slot; idup_nonblocking.c runs
 * later idups (a real agreement) in this order. */
#include <mpi.h>

#include "check.h"

static void ring(MPI_Comm c, const char *what) {
    int r, n, got = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    CHECK_MPI(MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, 3, &got, 1, MPI_INT, (r + n - 1) % n, 3, c,
                           MPI_STATUS_IGNORE));
    CHECK(got == (r + n - 1) % n, "%s: ring got %d", what, got);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    int r = check_rank, n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm a, b;
    MPI_Group world, evens;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int ranges[1][3] = {{0, n - 1, 2}};
    MPI_Group_range_incl(world, 1, ranges, &evens);

    for (int round = 0; round < 3; round++) {
        MPI_Comm ka, kb, all, ev = MPI_COMM_NULL;
        MPI_Request rq[2];
        MPI_Comm_dup(MPI_COMM_WORLD, &a);
        MPI_Comm_dup(MPI_COMM_WORLD, &b);
        if (r % 2 == 0) {
            CHECK_MPI(MPI_Comm_idup(a, &ka, &rq[0]));
            CHECK_MPI(MPI_Comm_idup_with_info(b, MPI_INFO_NULL, &kb, &rq[1]));
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, world, 10 + round, &all));
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 20 + round, &ev));
        } else {
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, world, 10 + round, &all));
            CHECK_MPI(MPI_Comm_idup_with_info(b, MPI_INFO_NULL, &kb, &rq[1]));
            CHECK_MPI(MPI_Comm_idup(a, &ka, &rq[0]));
        }
        CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        ring(ka, "idup");
        ring(kb, "idup_with_info");
        ring(all, "create_group(world)");
        if (ev != MPI_COMM_NULL) {
            ring(ev, "create_group(evens)");
            MPI_Comm_free(&ev);
        }
        MPI_Comm_free(&ka);
        MPI_Comm_free(&kb);
        MPI_Comm_free(&all);
        MPI_Comm_free(&a);
        MPI_Comm_free(&b);
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    MPI_Finalize();
    return check_status();
}
