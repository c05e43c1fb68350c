//go:build ignore

/* gompi-test: np=2,4 timeout=120 */
/* Idups in flight keep their messages apart from communicator management
 * on the same communicator: with 70 MPI_Comm_idups of MPI_COMM_WORLD
 * outstanding, MPI_Intercomm_create with MPI_COMM_WORLD as the peer
 * communicator (tags 0 and 3) and MPI_Comm_create_group on MPI_COMM_WORLD
 * run, then the idups complete. Before, the 65th idup and the leaders of
 * Intercomm_create with tag 0 used the same internal tag on the world's
 * collective context. */
#include <mpi.h>

#include "check.h"

#define N 70

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    check_rank = r;
    MPI_Comm kids[N], local, inter[2], grp;
    MPI_Request rq[N];
    for (int i = 0; i < N; i++)
        CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &kids[i], &rq[i]));
    int half = n / 2, low = r < half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low, r, &local));
    for (int t = 0; t < 2; t++)
        CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? half : 0, 3 * t, &inter[t]));
    MPI_Group wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, wg, 0, &grp));
    MPI_Group_free(&wg);
    CHECK_MPI(MPI_Waitall(N, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; i++) {
        int sum = -1;
        CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, kids[i]));
        CHECK(sum == n * (n - 1) / 2, "idup %d: allreduce %d", i, sum);
        MPI_Comm_free(&kids[i]);
    }
    for (int t = 0; t < 2; t++) {
        int rs = -1;
        MPI_Comm_remote_size(inter[t], &rs);
        CHECK(rs == (low ? n - half : half), "intercomm %d: remote size %d", t, rs);
        int x = r, y = -1;
        CHECK_MPI(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MAX, inter[t]));
        CHECK(y == (low ? n - 1 : half - 1), "intercomm %d: allreduce %d", t, y);
        MPI_Comm_free(&inter[t]);
    }
    int sz = -1;
    MPI_Comm_size(grp, &sz);
    CHECK(sz == n, "create_group size %d", sz);
    MPI_Comm_free(&grp);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return check_status();
}
