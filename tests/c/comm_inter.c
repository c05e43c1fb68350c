//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* Intercommunicators: the world split into a low and a high half joined by
 * MPI_Intercomm_create over MPI_COMM_WORLD; sizes, remote sizes and groups;
 * point-to-point round trips between the halves (ranks name the remote
 * group); a duplicate stays isolated; MPI_Intercomm_merge orders the group
 * that passes high=0 first, either way round. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    int wrank, wsize;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    check_rank = wrank;
    int nlow = wsize / 2, low = wrank < nlow;
    int nmine = low ? nlow : wsize - nlow, nother = low ? wsize - nlow : nlow;

    MPI_Comm half, inter, inter2, merged;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low, wrank, &half));
    int r;
    MPI_Comm_rank(half, &r);
    /* Leaders: local rank 0 of each half; remote leader as a world rank. */
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? nlow : 0, 99, &inter));
    int flag = 0, n, rn;
    CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
    CHECK(flag, "not an intercommunicator");
    MPI_Comm_size(inter, &n);
    CHECK_MPI(MPI_Comm_remote_size(inter, &rn));
    CHECK(n == nmine && rn == nother, "size %d remote %d", n, rn);
    int ir;
    MPI_Comm_rank(inter, &ir);
    CHECK(ir == r, "rank in intercomm %d, in half %d", ir, r);

    /* The remote group holds the other half's world ranks in order. */
    MPI_Group rg, wg;
    CHECK_MPI(MPI_Comm_remote_group(inter, &rg));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (int i = 0; i < rn; i++) {
        int w;
        CHECK_MPI(MPI_Group_translate_ranks(rg, 1, &i, wg, &w));
        CHECK(w == (low ? nlow + i : i), "remote rank %d is world %d", i, w);
    }
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);

    /* Round trips: each rank i of the low half pings remote rank i % rn. */
    CHECK_MPI(MPI_Comm_dup(inter, &inter2));
    if (low) {
        int v = 1000 + r, back = -1, dummy = 7;
        /* A message on the duplicate must not satisfy the receive on inter. */
        CHECK_MPI(MPI_Send(&dummy, 1, MPI_INT, r % rn, 3, inter2));
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, r % rn, 3, inter));
        CHECK_MPI(MPI_Recv(&back, 1, MPI_INT, r % rn, 4, inter, MPI_STATUS_IGNORE));
        CHECK(back == 2 * v, "round trip got %d", back);
    } else {
        for (int i = r; i < nother; i += nmine) {
            int v = -1, d = -1;
            MPI_Status st;
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, i, 3, inter, &st));
            CHECK(st.MPI_SOURCE == i && v == 1000 + i, "from %d got %d (source %d)", i, v, st.MPI_SOURCE);
            CHECK_MPI(MPI_Recv(&d, 1, MPI_INT, i, 3, inter2, MPI_STATUS_IGNORE));
            CHECK(d == 7, "dup got %d", d);
            v *= 2;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, i, 4, inter));
        }
    }

    /* Merge with the high half first, then the low half first. */
    for (int pass = 0; pass < 2; pass++) {
        int high = pass == 0 ? low : !low;
        CHECK_MPI(MPI_Intercomm_merge(inter, high, &merged));
        int mr, mn;
        MPI_Comm_rank(merged, &mr);
        MPI_Comm_size(merged, &mn);
        int want = high ? nother + r : r;
        CHECK(mn == wsize && mr == want, "pass %d: merged rank %d size %d, want %d", pass, mr, mn, want);
        int sum = 0, one = 1;
        /* A ring through the merged communicator. */
        int to = (mr + 1) % mn, from = (mr + mn - 1) % mn, got = -1;
        CHECK_MPI(MPI_Sendrecv(&mr, 1, MPI_INT, to, 0, &got, 1, MPI_INT, from, 0, merged, MPI_STATUS_IGNORE));
        CHECK(got == from, "merged ring got %d want %d", got, from);
        (void)sum;
        (void)one;
        CHECK_MPI(MPI_Comm_free(&merged));
    }

    /* Split the intercommunicator by rank parity: colour 0 exists on both
     * sides; colour 1 only where a side has two or more ranks. */
    MPI_Comm isplit;
    CHECK_MPI(MPI_Comm_split(inter, r % 2, -r, &isplit));
    {
        int mine_c = (nmine + 1 - r % 2) / 2, other_c = (nother + 1 - r % 2) / 2;
        if (other_c == 0) {
            CHECK(isplit == MPI_COMM_NULL, "colour %d has no remote members but got a communicator", r % 2);
        } else {
            int sn, srn, sr;
            MPI_Comm_size(isplit, &sn);
            MPI_Comm_remote_size(isplit, &srn);
            MPI_Comm_rank(isplit, &sr);
            CHECK(sn == mine_c && srn == other_c && sr == mine_c - 1 - r / 2, "split: size %d remote %d rank %d",
                  sn, srn, sr);
            /* Local rank 0 of each side swaps a value with the other's rank 0. */
            if (sr == 0) {
                int o = wrank, in = -1;
                CHECK_MPI(MPI_Sendrecv(&o, 1, MPI_INT, 0, 8, &in, 1, MPI_INT, 0, 8, isplit, MPI_STATUS_IGNORE));
                CHECK(in >= 0 && in < wsize && (in < nlow) != low, "split exchange got world rank %d", in);
            }
            CHECK_MPI(MPI_Comm_free(&isplit));
        }
    }
    /* MPI_Comm_create on the intercommunicator: each side keeps its rank 0. */
    {
        MPI_Group lg, first;
        MPI_Comm_group(inter, &lg);
        int zero = 0;
        MPI_Group_incl(lg, 1, &zero, &first);
        MPI_Comm ic0;
        CHECK_MPI(MPI_Comm_create(inter, first, &ic0));
        if (r == 0) {
            int s1, s2;
            MPI_Comm_size(ic0, &s1);
            MPI_Comm_remote_size(ic0, &s2);
            CHECK(s1 == 1 && s2 == 1, "create on intercomm: sizes %d %d", s1, s2);
            MPI_Comm_free(&ic0);
        } else {
            CHECK(ic0 == MPI_COMM_NULL, "non-member got a communicator");
        }
        MPI_Group_free(&first);
        MPI_Group_free(&lg);
    }

    int res;
    CHECK_MPI(MPI_Comm_compare(inter, inter2, &res));
    CHECK(res == MPI_CONGRUENT, "compare(inter, dup) = %d", res);
    CHECK_MPI(MPI_Comm_free(&inter2));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&half));
    MPI_Finalize();
    return check_status();
}
