//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=90 */
/* MPI_Intercomm_create_from_groups (MPI-4.0): from the groups of a
 * session's mpi://WORLD process set and from MPI_COMM_WORLD's group, the
 * lower half and the upper half of the world build intercommunicators
 * (leaders not rank 0; two in a row with different string tags): sizes,
 * remote group, the error handler given, point-to-point both ways, an
 * intercommunicator collective, Intercomm_merge. Bad input: overlapping
 * groups (MPI_ERR_GROUP, also at 1 rank), a caller outside the local group
 * (MPI_ERR_GROUP), leaders out of range (MPI_ERR_RANK), NULL stringtag and
 * result (MPI_ERR_ARG), a bad info (MPI_ERR_INFO). */
#include <mpi.h>
#include <stddef.h>

#include "check.h"

static int r, n, half, low;

static void use(MPI_Comm ic, int salt) {
    int inter = 0, ls = -1, rs = -1, lr = -1;
    CHECK_MPI(MPI_Comm_test_inter(ic, &inter));
    CHECK(inter, "not an intercommunicator");
    MPI_Comm_size(ic, &ls);
    MPI_Comm_remote_size(ic, &rs);
    MPI_Comm_rank(ic, &lr);
    CHECK(ls == (low ? half : n - half) && rs == n - ls, "sizes %d/%d", ls, rs);
    CHECK(lr == (low ? r : r - half), "rank %d", lr);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(ic, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "error handler %d", (int)eh);
    MPI_Errhandler_free(&eh);
    MPI_Group rg, wg;
    MPI_Comm_remote_group(ic, &rg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int first = -1, zero = 0;
    MPI_Group_translate_ranks(rg, 1, &zero, wg, &first);
    CHECK(first == (low ? half : 0), "remote group starts at world rank %d", first);
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
    /* Each process exchanges with the remote process of the same rank
     * modulo the remote size. */
    int peer = lr % rs, got = -1, mine = salt * 100 + r;
    MPI_Request q;
    CHECK_MPI(MPI_Isend(&mine, 1, MPI_INT, peer, 7, ic, &q));
    for (int s = 0; s < rs; s++) {
        if (s % ls != lr)
            continue;
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, s, 7, ic, MPI_STATUS_IGNORE));
        CHECK(got == salt * 100 + (low ? half + s : s), "from remote %d got %d", s, got);
    }
    CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    int sum = -1, want = 0;
    for (int i = 0; i < n; i++)
        if ((i < half) != low)
            want += i;
    CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, ic));
    CHECK(sum == want, "allreduce %d, want %d", sum, want);
    MPI_Comm m;
    CHECK_MPI(MPI_Intercomm_merge(ic, !low, &m));
    int mr = -1;
    MPI_Comm_rank(m, &mr);
    CHECK(mr == r, "merged rank %d", mr);
    MPI_Comm_free(&m);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    check_rank = r;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    half = n / 2;
    low = r < half;
    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Group world, wgroup, lo, hi;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &world));
    MPI_Comm_group(MPI_COMM_WORLD, &wgroup);
    MPI_Comm ic = MPI_COMM_NULL;

    /* Bad input first (every rank, all local checks). */
    EXPECT_CLASS(MPI_Intercomm_create_from_groups(world, 0, world, 0, "overlap", MPI_INFO_NULL,
                                                  MPI_ERRORS_RETURN, &ic),
                 MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Intercomm_create_from_groups(world, 0, world, 0, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &ic),
                 MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Intercomm_create_from_groups(world, 0, world, 0, "x", MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL),
                 MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Intercomm_create_from_groups(MPI_GROUP_NULL, 0, world, 0, "x", MPI_INFO_NULL,
                                                  MPI_ERRORS_RETURN, &ic),
                 MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Intercomm_create_from_groups(world, 0, world, 0, "x", (MPI_Info)0x1234, MPI_ERRORS_RETURN, &ic),
                 MPI_ERR_INFO);
    CHECK(ic == MPI_COMM_NULL, "a failed call set the result");

    if (n >= 2) {
        int lohi[2][2] = {{0, half - 1}, {half, n - 1}};
        int one[1][3] = {{lohi[0][0], lohi[0][1], 1}}, two[1][3] = {{lohi[1][0], lohi[1][1], 1}};
        for (int from = 0; from < 2; from++) {
            MPI_Group g = from ? wgroup : world;
            MPI_Group_range_incl(g, 1, one, &lo);
            MPI_Group_range_incl(g, 1, two, &hi);
            MPI_Group mine = low ? lo : hi, other = low ? hi : lo;
            int ml = low ? half - 1 : 0, ol = low ? 0 : half - 1; /* low's leader: its last */
            EXPECT_CLASS(MPI_Intercomm_create_from_groups(other, 0, mine, 0, "x", MPI_INFO_NULL,
                                                          MPI_ERRORS_RETURN, &ic),
                         MPI_ERR_GROUP); /* not in the local group */
            EXPECT_CLASS(MPI_Intercomm_create_from_groups(mine, n, other, 0, "x", MPI_INFO_NULL,
                                                          MPI_ERRORS_RETURN, &ic),
                         MPI_ERR_RANK);
            EXPECT_CLASS(MPI_Intercomm_create_from_groups(mine, 0, other, -1, "x", MPI_INFO_NULL,
                                                          MPI_ERRORS_RETURN, &ic),
                         MPI_ERR_RANK);
            for (int k = 0; k < 2; k++) {
                const char *tag = k ? "gompi-test/second" : "gompi-test/first";
                ic = MPI_COMM_NULL;
                CHECK_MPI(MPI_Intercomm_create_from_groups(mine, ml, other, ol, tag, MPI_INFO_NULL,
                                                           MPI_ERRORS_RETURN, &ic));
                if (ic != MPI_COMM_NULL) {
                    use(ic, 10 * from + k);
                    MPI_Comm_free(&ic);
                }
            }
            MPI_Group_free(&lo);
            MPI_Group_free(&hi);
        }
    }
    MPI_Group_free(&world);
    MPI_Group_free(&wgroup);
    CHECK_MPI(MPI_Session_finalize(&s));
    MPI_Finalize();
    return check_status();
}
