//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=60 */
/* Communicator calls with bad arguments under MPI_ERRORS_RETURN: every one
 * returns the standard's error class and leaves the job running. Also
 * concurrent creation from disjoint groups: the two halves of the world dup
 * and split their own communicators in different numbers and orders while
 * traffic flows on all of them, and nothing crosses. */
#include <mpi.h>

#include "check.h"

static int rank, size;

static void errors(void) {
    MPI_Comm c = MPI_COMM_NULL, bogus = (MPI_Comm)0x84001234, ic;
    MPI_Group g;
    int v;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    EXPECT_CLASS(MPI_Comm_dup(MPI_COMM_NULL, &c), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_dup(bogus, &c), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &c), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_size(MPI_COMM_NULL, &v), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_rank(bogus, &v), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_free(&c), MPI_ERR_COMM); /* c is MPI_COMM_NULL */
    c = MPI_COMM_WORLD;
    EXPECT_CLASS(MPI_Comm_free(&c), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &v), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_remote_group(MPI_COMM_WORLD, &g), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &c), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &v), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_set_name(MPI_COMM_NULL, "x"), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Intercomm_create(MPI_COMM_SELF, 5, MPI_COMM_WORLD, 0, 0, &ic), MPI_ERR_RANK);
    /* A group that is not a subgroup of MPI_COMM_SELF. */
    MPI_Group wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    if (size > 1)
        EXPECT_CLASS(MPI_Comm_create_group(MPI_COMM_SELF, wg, 0, &c), MPI_ERR_GROUP);
    EXPECT_CLASS(MPI_Comm_create_group(MPI_COMM_WORLD, wg, -3, &c), MPI_ERR_TAG);
    MPI_Group_free(&wg);
    /* The world still works. */
    int x = rank, y = -1;
    CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, (rank + 1) % size, 0, &y, 1, MPI_INT, (rank + size - 1) % size, 0,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(y == (rank + size - 1) % size, "ring after errors got %d", y);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* concurrent: each half makes its own communicators; traffic on them uses
 * the same tags and peers. */
static void concurrent(void) {
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    int hr, hn;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hn);
    int rounds = rank % 2 ? 7 : 3;
    MPI_Comm made[8];
    for (int i = 0; i < rounds; i++) {
        if (i % 2)
            CHECK_MPI(MPI_Comm_dup(half, &made[i]));
        else
            CHECK_MPI(MPI_Comm_split(half, 0, -hr, &made[i]));
    }
    /* World traffic while the halves hold different numbers of communicators. */
    int out = 100 + rank, in = -1;
    CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 9, &in, 1, MPI_INT, (rank + size - 1) % size, 9,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(in == 100 + (rank + size - 1) % size, "world got %d", in);
    for (int i = rounds - 1; i >= 0; i--) {
        int r, n;
        MPI_Comm_rank(made[i], &r);
        MPI_Comm_size(made[i], &n);
        int o = 1000 * i + r, got = -1;
        CHECK_MPI(MPI_Sendrecv(&o, 1, MPI_INT, (r + 1) % n, 9, &got, 1, MPI_INT, (r + n - 1) % n, 9, made[i],
                               MPI_STATUS_IGNORE));
        CHECK(got == 1000 * i + (r + n - 1) % n, "communicator %d got %d", i, got);
        CHECK_MPI(MPI_Comm_free(&made[i]));
    }
    CHECK_MPI(MPI_Comm_free(&half));
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    errors();
    concurrent();
    MPI_Finalize();
    return check_status();
}
