//go:build ignore

/* gompi-test: np=2,3 timeout=60 */
/* gompi-expect: exit=nonzero stderr=~"rank [0-9]+ \(pid [0-9]+\) killed by signal 11 \(SIGSEGV" stderr!~"signal 3" */
/* gompi-expect: stderr=~"gompi: rank [0-9]+ \(pid [0-9]+\): SIGSEGV \(segmentation fault\) at address \S+ in C code; backtrace:\n  \S" maxtime=30 */
/* A user reduction op, called from inside the library (Go calls it through
 * cgo), dereferences NULL in MPI_Allreduce: the launcher must name SIGSEGV (not the
 * SIGQUIT the Go runtime crashed with) and the rank's report must show the
 * faulting frame (bad_op and its line with -g; the object and offset
 * without). */
#include <mpi.h>
#include <stddef.h>

#include "check.h"

static volatile int *nowhere;

static void bad_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
    (void)in, (void)len, (void)dt;
    *(int *)inout = *nowhere;
}

int main(int argc, char **argv) {
    int rank, v[1000] = {1}, sum[1000];
    MPI_Op op;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;
    MPI_Op_create(bad_op, 1, &op);
    MPI_Allreduce(v, sum, 1000, MPI_INT, op, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(0, "rank %d survived the NULL dereference", rank);
    MPI_Finalize();
    return 0;
}
