//go:build ignore

/* gompi-test: np=2 timeout=60 */
/* A rank blocked in MPI_Recv for two seconds sleeps instead of spinning a
 * core away from the others: its process (every thread) uses well under the
 * wall time meanwhile. TestCNet runs it with each rank a node of its own,
 * so the wait is on btl/ofi's completion queue (libfabric's net provider's
 * wait fd stays readable once signalled: a poll on it never slept); TestC
 * on shared memory. A bound, not a speed: a loaded machine only lowers the
 * CPU time a sleeping process gets. */
#include <mpi.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "check.h"

static double cpu(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;
    char b = 0;
    /* Traffic first, so the endpoint is connected and warm. */
    for (int i = 0; i < 100; i++) {
        if (rank == 0) {
            MPI_Send(&b, 1, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(&b, 1, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&b, 1, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&b, 1, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        double w0 = MPI_Wtime(), c0 = cpu();
        b = 0;
        CHECK_MPI(MPI_Recv(&b, 1, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        double w = MPI_Wtime() - w0, c = cpu() - c0;
        CHECK(b == 7, "received %d, not 7", b);
        CHECK(w >= 1.5, "the receive returned after %.2f s, before the send", w);
        CHECK(c < 0.5 * w, "waiting %.2f s in MPI_Recv used %.2f s of CPU: the wait spins", w, c);
    } else {
        sleep(2);
        b = 7;
        CHECK_MPI(MPI_Send(&b, 1, MPI_CHAR, 0, 2, MPI_COMM_WORLD));
    }
    MPI_Finalize();
    return check_status();
}
