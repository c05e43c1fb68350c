/* A known pattern of calls for gompirun --profile (tests/c/profile_test.go
 * checks the totals): per rank r of n, to (r+1)%n five 40-byte and three
 * 8000-byte MPI_Sends; to (r-1)%n two 100000-byte MPI_Isends and one
 * 24-byte MPI_Send of a derived type on a communicator with reversed ranks;
 * one MPI_Send to MPI_PROC_NULL (no bytes); four barriers; 300 more
 * MPI_Comm_rank calls (past the calls timed one by one: still all counted). */
#include <mpi.h>
#include <stdlib.h>
#include "../check.h"

int main(int argc, char **argv)
{
    int r, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    check_rank = r;
    int next = (r + 1) % n, prev = (r + n - 1) % n;
    int ints[10] = {0};
    double *d = calloc(1000, sizeof(double));
    char *big = calloc(2, 100000), *bigin = calloc(2, 100000);
    for (int i = 0; i < 5; i++) {
        CHECK_MPI(MPI_Send(ints, 10, MPI_INT, next, 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(ints, 10, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    for (int i = 0; i < 3; i++) {
        CHECK_MPI(MPI_Send(d, 1000, MPI_DOUBLE, next, 2, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(d, 1000, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    MPI_Request req[4];
    CHECK_MPI(MPI_Irecv(bigin, 100000, MPI_BYTE, next, 3, MPI_COMM_WORLD, &req[0]));
    CHECK_MPI(MPI_Irecv(bigin + 100000, 100000, MPI_BYTE, next, 3, MPI_COMM_WORLD, &req[1]));
    CHECK_MPI(MPI_Isend(big, 100000, MPI_BYTE, prev, 3, MPI_COMM_WORLD, &req[2]));
    CHECK_MPI(MPI_Isend(big + 100000, 100000, MPI_BYTE, prev, 3, MPI_COMM_WORLD, &req[3]));
    CHECK_MPI(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));

    /* Reversed ranks: comm rank c = n-1-r, so comm rank (c+1)%n is world rank prev. */
    MPI_Comm rev;
    MPI_Datatype three;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, n - 1 - r, &rev));
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &three));
    CHECK_MPI(MPI_Type_commit(&three));
    int c = n - 1 - r;
    CHECK_MPI(MPI_Send(ints, 2, three, (c + 1) % n, 4, rev));
    CHECK_MPI(MPI_Recv(ints, 2, three, (c + n - 1) % n, 4, rev, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Type_free(&three));
    CHECK_MPI(MPI_Comm_free(&rev));
    CHECK_MPI(MPI_Send(ints, 10, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD));
    for (int i = 0; i < 4; i++)
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < 300; i++)
        CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &c));
    free(d);
    free(big);
    free(bigin);
    MPI_Finalize();
    return check_failures != 0;
}
