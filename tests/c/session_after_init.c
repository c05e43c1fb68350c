//go:build ignore

/* gompi-test: np=1,2,4 timeout=90 */
/* Sessions inside the world model: MPI_Init first, then sessions opened and
 * finalized repeatedly (two at once, overlapping), communicators from their
 * groups used alongside MPI_COMM_WORLD, concurrent MPI_Comm_create_from_group
 * told apart by their string tags, then MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (int round = 0; round < 4; round++) {
        MPI_Session a, b;
        CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &a));
        CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &b));
        CHECK(a != b, "two sessions, one handle");
        MPI_Group ga, gb, gs;
        CHECK_MPI(MPI_Group_from_session_pset(a, "mpi://WORLD", &ga));
        CHECK_MPI(MPI_Group_from_session_pset(b, "mpi://WORLD", &gb));
        CHECK_MPI(MPI_Group_from_session_pset(b, "mpi://SELF", &gs));
        /* Blocking creations: the same order of a and b everywhere; the
         * one-process "self" creation may come anywhere. */
        MPI_Comm ca, cb, cs;
        char ta[32], tb[32];
        snprintf(ta, sizeof ta, "round%d.a", round);
        snprintf(tb, sizeof tb, "round%d.b", round);
        if (check_rank % 2 == 0) {
            CHECK_MPI(MPI_Comm_create_from_group(ga, ta, MPI_INFO_NULL, MPI_ERRORS_RETURN, &ca));
            CHECK_MPI(MPI_Comm_create_from_group(gs, "self", MPI_INFO_NULL, MPI_ERRORS_RETURN, &cs));
            CHECK_MPI(MPI_Comm_create_from_group(gb, tb, MPI_INFO_NULL, MPI_ERRORS_RETURN, &cb));
        } else {
            CHECK_MPI(MPI_Comm_create_from_group(gs, "self", MPI_INFO_NULL, MPI_ERRORS_RETURN, &cs));
            CHECK_MPI(MPI_Comm_create_from_group(ga, ta, MPI_INFO_NULL, MPI_ERRORS_RETURN, &ca));
            CHECK_MPI(MPI_Comm_create_from_group(gb, tb, MPI_INFO_NULL, MPI_ERRORS_RETURN, &cb));
        }
        int x = check_rank + 1, sa = 0, sb = 0, sw = 0, ss = 0;
        CHECK_MPI(MPI_Allreduce(&x, &sa, 1, MPI_INT, MPI_SUM, ca));
        CHECK_MPI(MPI_Allreduce(&x, &sw, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Allreduce(&x, &sb, 1, MPI_INT, MPI_SUM, cb));
        CHECK_MPI(MPI_Allreduce(&x, &ss, 1, MPI_INT, MPI_SUM, cs));
        int want = n * (n + 1) / 2;
        CHECK(sa == want && sb == want && sw == want && ss == x, "sums %d %d %d %d", sa, sb, sw, ss);
        int cmp;
        MPI_Comm_compare(ca, cb, &cmp);
        CHECK(cmp == MPI_CONGRUENT, "compare %d", cmp);
        MPI_Comm_free(&ca);
        MPI_Comm_free(&cb);
        MPI_Comm_free(&cs);
        MPI_Group_free(&ga);
        MPI_Group_free(&gb);
        MPI_Group_free(&gs);
        CHECK_MPI(MPI_Session_finalize(&b));
        CHECK_MPI(MPI_Session_finalize(&a));
        int flag;
        MPI_Finalized(&flag);
        CHECK(!flag, "finalized by a session");
    }
    MPI_Finalize();
    return check_status();
}
