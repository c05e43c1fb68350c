//go:build ignore

/* gompi-test: np=2,3 timeout=60 */
/* gompi-env: GOMPI_COLL_BCAST=binomial */
/* A broadcast whose receivers give fewer elements than the root sends is
 * erroneous; under MPI_ERRORS_RETURN the receivers get MPI_ERR_TRUNCATE from
 * MPI_Bcast (blocking, and from MPI_Wait for MPI_Ibcast), the root succeeds,
 * and collectives keep working afterwards. The point-to-point algorithm is
 * forced: the shared-memory one (blocking, node-local) is tested elsewhere. */
#include <mpi.h>

#include "check.h"

int main(int argc, char **argv) {
    int rank, size, cls;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int it = 0; it < 2; it++) { /* the second call reuses the cached schedule */
        int rc = MPI_Bcast(b, rank == 0 ? 8 : 4, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Error_class(rc, &cls);
        CHECK(cls == (rank == 0 ? MPI_SUCCESS : MPI_ERR_TRUNCATE), "bcast: class %d", cls);
    }
    MPI_Request r;
    CHECK_MPI(MPI_Ibcast(b, rank == 0 ? 8 : 4, MPI_INT, 0, MPI_COMM_WORLD, &r));
    int rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    CHECK(cls == (rank == 0 ? MPI_SUCCESS : MPI_ERR_TRUNCATE), "ibcast wait: class %d", cls);
    int x = rank, y = -1;
    CHECK_MPI(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(y == size * (size - 1) / 2, "allreduce after truncation: %d", y);
    MPI_Finalize();
    return check_status();
}
