//go:build ignore

/* gompi-test: np=2,3,4 timeout=90 */
/* MPI_Comm_idup does not wait for the other processes: overlapping idups
 * (and MPI_Comm_idup_with_info) on different communicators, issued in
 * different orders on different ranks, all complete (before: rank A waited
 * in the first while rank B waited in the second). The duplicates work. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    int r = check_rank, n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_split(MPI_COMM_WORLD, 0, n - r, &b); /* same members, reversed ranks */
    for (int round = 0; round < 2; round++) {
        MPI_Comm parents[3] = {a, b, MPI_COMM_WORLD}, kids[3];
        MPI_Request rq[3];
        /* Odd ranks go in reverse order. */
        for (int k = 0; k < 3; k++) {
            int i = r % 2 ? 2 - k : k;
            if (i == 1)
                CHECK_MPI(MPI_Comm_idup_with_info(parents[i], MPI_INFO_NULL, &kids[i], &rq[i]));
            else
                CHECK_MPI(MPI_Comm_idup(parents[i], &kids[i], &rq[i]));
        }
        CHECK_MPI(MPI_Waitall(3, rq, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 3; i++) {
            int sum = 0, cmp = -1;
            CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, kids[i]));
            CHECK(sum == n * (n - 1) / 2, "round %d kid %d allreduce %d", round, i, sum);
            MPI_Comm_compare(kids[i], parents[i], &cmp);
            CHECK(cmp == MPI_CONGRUENT, "round %d kid %d compare %d", round, i, cmp);
        }
        /* The next round idups the duplicates: fresh communicators each time. */
        if (round == 0) {
            a = kids[0];
            b = kids[1];
            MPI_Comm_free(&kids[2]);
        } else {
            for (int i = 0; i < 3; i++)
                MPI_Comm_free(&kids[i]);
        }
        MPI_Comm_free(&parents[0]);
        MPI_Comm_free(&parents[1]);
        if (round == 0) {
            /* round 1 duplicates fresh a and b made by dup (first idups, on
             * the reserve); idup_nonblocking.c covers later ones. */
            MPI_Comm a2, b2;
            MPI_Comm_dup(a, &a2);
            MPI_Comm_dup(b, &b2);
            MPI_Comm_free(&a);
            MPI_Comm_free(&b);
            a = a2;
            b = b2;
        }
    }
    MPI_Finalize();
    return check_status();
}
