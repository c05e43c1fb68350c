//go:build ignore

/* gompi-test: np=3,4 timeout=60 */
/* Regression (issue 23): MPI_Neighbor_alltoallw, MPI_Alltoallw and
 * MPI_Gatherv with MPI_BOTTOM buffers and absolute displacements or types
 * (from MPI_Get_address) work (before: MPI_ERR_BUFFER). Three or more ranks,
 * so that a rank's two ring neighbours differ. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int r = check_rank, n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    /* A ring: neighbours left and right (the same process when n <= 2). */
    MPI_Comm ring;
    int dims[1] = {n}, periods[1] = {1};
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int sendv[2] = {r * 10 + 1, r * 10 + 2}, recvv[2] = {-1, -1};
    int counts[2] = {1, 1};
    MPI_Aint sd[2], rd[2];
    MPI_Get_address(&sendv[0], &sd[0]);
    MPI_Get_address(&sendv[1], &sd[1]);
    MPI_Get_address(&recvv[0], &rd[0]);
    MPI_Get_address(&recvv[1], &rd[1]);
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    CHECK_MPI(MPI_Neighbor_alltoallw(MPI_BOTTOM, counts, sd, types, MPI_BOTTOM, counts, rd, types, ring));
    int left = (r + n - 1) % n, right = (r + 1) % n;
    /* Neighbour 0 is left (it sent its "up" value, slot 1), neighbour 1 right. */
    CHECK(recvv[0] == left * 10 + 2 && recvv[1] == right * 10 + 1, "neighbor_alltoallw got %d %d", recvv[0], recvv[1]);

    /* Alltoallw and Alltoallv with MPI_BOTTOM: each block's type carries the
     * absolute address (hindexed on MPI_BOTTOM), displacements are 0. */
    int *sb = malloc(sizeof(int) * n), *rb = malloc(sizeof(int) * n), *c = malloc(sizeof(int) * n);
    int *z = calloc(n, sizeof(int));
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * n), *rt = malloc(sizeof(MPI_Datatype) * n);
    for (int i = 0; i < n; i++) {
        sb[i] = r * 100 + i;
        rb[i] = -1;
        c[i] = 1;
        int one = 1;
        MPI_Aint a;
        MPI_Get_address(&sb[i], &a);
        MPI_Type_create_hindexed(1, &one, &a, MPI_INT, &st[i]);
        MPI_Type_commit(&st[i]);
        MPI_Get_address(&rb[i], &a);
        MPI_Type_create_hindexed(1, &one, &a, MPI_INT, &rt[i]);
        MPI_Type_commit(&rt[i]);
    }
    CHECK_MPI(MPI_Alltoallw(MPI_BOTTOM, c, z, st, MPI_BOTTOM, c, z, rt, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++)
        CHECK(rb[i] == i * 100 + r, "alltoallw rb[%d] = %d", i, rb[i]);
    /* Gatherv to rank 0 with MPI_BOTTOM on the sending side. */
    int one_val = r + 7, *all = malloc(sizeof(int) * n), *displs = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++)
        displs[i] = i;
    MPI_Aint a;
    MPI_Get_address(&one_val, &a);
    int one = 1;
    MPI_Datatype abs_one;
    MPI_Type_create_hindexed(1, &one, &a, MPI_INT, &abs_one);
    MPI_Type_commit(&abs_one);
    CHECK_MPI(MPI_Gatherv(MPI_BOTTOM, 1, abs_one, all, c, displs, MPI_INT, 0, MPI_COMM_WORLD));
    if (r == 0)
        for (int i = 0; i < n; i++)
            CHECK(all[i] == i + 7, "gatherv all[%d] = %d", i, all[i]);
    MPI_Type_free(&abs_one);
    for (int i = 0; i < n; i++) {
        MPI_Type_free(&st[i]);
        MPI_Type_free(&rt[i]);
    }
    free(sb); free(rb); free(c); free(z); free(st); free(rt); free(all); free(displs);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return check_status();
}
