//go:build ignore

/* gompi-test: np=1,3 timeout=60 */
/* Argument errors of the collectives under MPI_ERRORS_RETURN, each with the
 * standard's class: invalid root (MPI_ERR_ROOT), negative count
 * (MPI_ERR_COUNT), null or invalid datatype (MPI_ERR_TYPE), null op or an op
 * undefined for the type (MPI_ERR_OP), NULL buffer with data, MPI_IN_PLACE
 * where it is not allowed and aliased send/receive buffers (MPI_ERR_BUFFER),
 * MPI_COMM_NULL (MPI_ERR_COMM). After the errors, collectives still work. */
#include <mpi.h>

#include "check.h"

static void expect(int rc, int cls, const char *what) {
    int c = -1;
    MPI_Error_class(rc, &c);
    CHECK(c == cls, "%s: class %d, want %d", what, c, cls);
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int a[64] = {0}, b[64] = {0};
    MPI_Request r;

    expect(MPI_Bcast(a, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT, "bcast root=size");
    expect(MPI_Bcast(a, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT, "bcast root=-1");
    expect(MPI_Ibcast(a, 1, MPI_INT, size, MPI_COMM_WORLD, &r), MPI_ERR_ROOT, "ibcast root");
    expect(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, size + 3, MPI_COMM_WORLD), MPI_ERR_ROOT, "reduce root");
    expect(MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, -5, MPI_COMM_WORLD), MPI_ERR_ROOT, "gather root");
    expect(MPI_Scatter_init(a, 1, MPI_INT, b, 1, MPI_INT, size, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_ROOT,
           "scatter_init root");

    expect(MPI_Bcast(a, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "bcast count");
    expect(MPI_Allreduce(a, b, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT, "allreduce count");
    expect(MPI_Allgather(a, -1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT, "allgather count");

    expect(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "bcast type");
    expect(MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD), MPI_ERR_TYPE, "alltoall type");
    expect(MPI_Allreduce(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_TYPE, "allreduce type");

    expect(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP, "allreduce op null");
    expect(MPI_Reduce(a, b, 1, MPI_DOUBLE, MPI_BAND, 0, MPI_COMM_WORLD), MPI_ERR_OP, "reduce band double");
    expect(MPI_Iscan(a, b, 1, MPI_FLOAT, MPI_LXOR, MPI_COMM_WORLD, &r), MPI_ERR_OP, "iscan lxor float");

    expect(MPI_Bcast(NULL, 3, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "bcast NULL");
    expect(MPI_Bcast(MPI_IN_PLACE, 3, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "bcast IN_PLACE");
    expect(MPI_Allreduce(a, a, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "allreduce aliased");
    expect(MPI_Allreduce(a, MPI_IN_PLACE, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
           "allreduce recvbuf IN_PLACE");
    expect(MPI_Allgather(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
           "allgather recvbuf IN_PLACE");

    expect(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "barrier comm null");
    expect(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &r), MPI_ERR_COMM, "iallreduce comm null");

    /* still working afterwards */
    a[0] = rank;
    CHECK_MPI(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(b[0] == size * (size - 1) / 2, "allreduce after errors: %d", b[0]);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return check_status();
}
