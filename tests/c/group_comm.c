//go:build ignore

/* gompi-test: np=2,3,4 timeout=60 */
/* Groups and communicators together: a group made with MPI_Group_incl
 * creates a communicator (MPI_Comm_create) whose group compares MPI_IDENT
 * to it; freeing the group handle first leaves the communicator working (a ring
 * exchange on it); groups of split communicators translate back to world ranks. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;

    MPI_Group world, top, cg;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int ranges[][3] = {{size - 1, 1, -1}}; /* everyone but 0, reversed */
    CHECK_MPI(MPI_Group_range_incl(world, 1, ranges, &top));
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, top, &c));
    if (rank == 0) {
        CHECK(c == MPI_COMM_NULL, "rank 0 got a communicator");
    } else {
        int res, r;
        CHECK_MPI(MPI_Comm_group(c, &cg));
        CHECK_MPI(MPI_Group_compare(cg, top, &res));
        CHECK(res == MPI_IDENT, "comm group vs group: %d", res);
        CHECK_MPI(MPI_Group_free(&cg));
        CHECK_MPI(MPI_Group_free(&top));
        CHECK_MPI(MPI_Comm_rank(c, &r));
        CHECK(r == size - 1 - rank, "rank %d in reversed communicator", r);
        /* Ring in the new communicator: my predecessor there is world rank+1. */
        int n = size - 1, got = -1;
        CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (r + 1) % n, 5, &got, 1, MPI_INT, (r + n - 1) % n, 5, c,
                               MPI_STATUS_IGNORE));
        CHECK(got == (rank == size - 1 ? 1 : rank + 1), "ring on the new communicator got %d", got);
        CHECK_MPI(MPI_Comm_free(&c));
    }
    if (top != MPI_GROUP_NULL)
        CHECK_MPI(MPI_Group_free(&top));

    /* Split by parity; translate the sub-group back to world ranks. */
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
    CHECK_MPI(MPI_Comm_group(half, &cg));
    int n, in[8], out[8];
    CHECK_MPI(MPI_Group_size(cg, &n));
    for (int i = 0; i < n; i++)
        in[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(cg, n, in, world, out));
    for (int i = 0; i < n; i++) {
        CHECK(out[i] % 2 == rank % 2, "member %d of my half is world rank %d", i, out[i]);
        if (i > 0)
            CHECK(out[i] < out[i - 1], "keys -rank give descending world ranks");
    }
    CHECK_MPI(MPI_Group_free(&cg));
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Group_free(&world));
    MPI_Finalize();
    return check_status();
}
