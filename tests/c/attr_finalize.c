//go:build ignore

/* gompi-test: np=1,2 timeout=30 */
/* MPI_Finalize deletes MPI_COMM_SELF's attributes first, newest first, with
 * MPI still usable inside the callbacks (libraries clean up there). */
#include <mpi.h>

#include "check.h"

static int order[4], n;

static int del(MPI_Comm c, int k, void *v, void *e) {
    int fin = 1, size = 0;
    (void)k;
    (void)e;
    MPI_Finalized(&fin);
    CHECK(!fin, "delete callback ran after MPI_Finalize");
    CHECK(c == MPI_COMM_SELF, "callback got another communicator");
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (n < 4)
        order[n++] = (int)(long)v;
    return MPI_SUCCESS;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    int k1, k2;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del, &k1, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del, &k2, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k1, (void *)1));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void *)2));
    CHECK_MPI(MPI_Finalize());
    CHECK(n == 2 && order[0] == 2 && order[1] == 1, "delete callbacks ran %d times, order %d %d", n, order[0],
          order[1]);
    return check_status();
}
