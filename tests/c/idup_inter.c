//go:build ignore

/* gompi-test: np=2,3,4 timeout=120 */
/* MPI_Comm_idup on intercommunicators is nonblocking: the lower half of
 * MPI_COMM_WORLD idups intercomm X then Y while the upper half idups Y then
 * X (and with MPI_Comm_idup_with_info), and all complete (before: the idup
 * was a blocking MPI_Comm_dup, so the halves waited for each other). Then
 * many idups outstanding at once on both intercomms, in crossed orders,
 * completed by one MPI_Waitall. Every duplicate is an intercommunicator
 * congruent to its parent whose traffic stays apart from the others'. */
#include <mpi.h>

#include "check.h"

#define MANY 8

static int n, r, low, lsize, rsize;

/* verify checks that d duplicates parent and carries its own messages:
 * every process sends its rank + salt to remote rank 0, which checks them. */
static void verify(MPI_Comm d, MPI_Comm parent, int salt, const char *what) {
    int inter = 0, cmp = -1, rs = -1, ls = -1, lr = -1;
    CHECK_MPI(MPI_Comm_test_inter(d, &inter));
    CHECK(inter, "%s: not an intercommunicator", what);
    MPI_Comm_compare(d, parent, &cmp);
    CHECK(cmp == MPI_CONGRUENT, "%s: compare %d", what, cmp);
    MPI_Comm_remote_size(d, &rs);
    MPI_Comm_size(d, &ls);
    MPI_Comm_rank(d, &lr);
    CHECK(rs == rsize && ls == lsize, "%s: sizes %d/%d", what, ls, rs);
    /* Allreduce over an intercomm: each side gets the other side's sum. */
    int sum = -1, want = 0;
    for (int i = 0; i < rsize; i++)
        want += 1000 * salt + i;
    int mine = 1000 * salt + lr;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, d));
    CHECK(sum == want, "%s: allreduce %d, want %d", what, sum, want);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    r = check_rank;
    int half = n / 2; /* np=3: one process against two */
    low = r < half;
    MPI_Comm local;
    MPI_Comm_split(MPI_COMM_WORLD, low, r, &local);
    MPI_Comm_size(local, &lsize);
    rsize = n - lsize;
    MPI_Comm x, y;
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? half : 0, 11, &x));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? half : 0, 12, &y));

    /* Crossed: low idups x then y, high y then x. */
    for (int round = 0; round < 3; round++) {
        MPI_Comm dx, dy;
        MPI_Request rq[2];
        if (low) {
            CHECK_MPI(MPI_Comm_idup(x, &dx, &rq[0]));
            CHECK_MPI(MPI_Comm_idup_with_info(y, MPI_INFO_NULL, &dy, &rq[1]));
        } else {
            CHECK_MPI(MPI_Comm_idup_with_info(y, MPI_INFO_NULL, &dy, &rq[1]));
            CHECK_MPI(MPI_Comm_idup(x, &dx, &rq[0]));
        }
        /* Completing one at a time in the crossed order too. */
        CHECK_MPI(MPI_Wait(&rq[low ? 1 : 0], MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&rq[low ? 0 : 1], MPI_STATUS_IGNORE));
        verify(dx, x, 1 + round, "crossed dx");
        verify(dy, y, 5 + round, "crossed dy");
        if (round < 2) { /* the next round idups the duplicates */
            MPI_Comm_free(&x);
            MPI_Comm_free(&y);
            x = dx;
            y = dy;
        } else {
            MPI_Comm_free(&dx);
            MPI_Comm_free(&dy);
        }
    }

    /* Many outstanding: MANY idups of each, interleaved differently on the
     * two sides (each side keeps the per-communicator order the standard
     * asks for). */
    MPI_Comm dx[MANY], dy[MANY];
    MPI_Request rq[2 * MANY];
    int k = 0;
    if (low) {
        for (int i = 0; i < MANY; i++) {
            CHECK_MPI(MPI_Comm_idup(x, &dx[i], &rq[k++]));
            CHECK_MPI(MPI_Comm_idup(y, &dy[i], &rq[k++]));
        }
    } else {
        for (int i = 0; i < MANY; i++)
            CHECK_MPI(MPI_Comm_idup(y, &dy[i], &rq[k++]));
        for (int i = 0; i < MANY; i++)
            CHECK_MPI(MPI_Comm_idup(x, &dx[i], &rq[k++]));
    }
    CHECK_MPI(MPI_Waitall(k, rq, MPI_STATUSES_IGNORE));
    /* Point-to-point across all of them at once: every process sends to
     * remote rank lr % rsize on each duplicate, tagged alike, and receives
     * in reverse order of duplicates. */
    int lr;
    MPI_Comm_rank(local, &lr);
    int sb[2 * MANY], rb[2 * MANY];
    MPI_Request sr[2 * MANY];
    for (int i = 0; i < 2 * MANY; i++) {
        MPI_Comm d = i < MANY ? dx[i] : dy[i - MANY];
        sb[i] = 100 * i + lr;
        CHECK_MPI(MPI_Isend(&sb[i], 1, MPI_INT, lr % rsize, 3, d, &sr[i]));
    }
    /* Remote ranks sending to me: those with rank % lsize == lr. */
    for (int i = 2 * MANY - 1; i >= 0; i--) {
        MPI_Comm d = i < MANY ? dx[i] : dy[i - MANY];
        for (int s = 0; s < rsize; s++) {
            if (s % lsize != lr)
                continue;
            rb[i] = -1;
            CHECK_MPI(MPI_Recv(&rb[i], 1, MPI_INT, s, 3, d, MPI_STATUS_IGNORE));
            CHECK(rb[i] == 100 * i + s, "many: dup %d from %d got %d", i, s, rb[i]);
        }
    }
    CHECK_MPI(MPI_Waitall(2 * MANY, sr, MPI_STATUSES_IGNORE));
    for (int i = 0; i < MANY; i++) {
        verify(dx[i], x, 20 + i, "many dx");
        verify(dy[i], y, 40 + i, "many dy");
        MPI_Comm_free(&dx[i]);
        MPI_Comm_free(&dy[i]);
    }
    MPI_Comm_free(&x);
    MPI_Comm_free(&y);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return check_status();
}
