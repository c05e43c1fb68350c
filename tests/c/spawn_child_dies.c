//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* gompi-expect: exit=nonzero stderr=~"gompirun: spawned job 1 rank 1 \(pid [0-9]+\) killed by signal 9" maxtime=20 */
/* gompi-expect: stderr!~"TEST-FAIL" */
/* A spawned child that dies ends the whole job, as a dead rank does: the
 * parents and the other child wait in receives that never complete, the
 * launcher names the child, and nothing is left behind (no process, no
 * shared-memory file: the harness checks). The dying child first takes a
 * large message from parent 0 and answers it, so the pair of shared rings
 * between them is in use when it dies. */
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    int wrank, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (parent == MPI_COMM_NULL) {
        MPI_Comm ic;
        char *args[] = {"child", NULL};
        CHECK_MPI(MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE));
        if (wrank == 0) {
            static char big[1 << 20];
            CHECK_MPI(MPI_Send(big, sizeof big, MPI_CHAR, 1, 1, ic));
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 2, ic, MPI_STATUS_IGNORE));
        }
        MPI_Recv(&v, 1, MPI_INT, 0, 0, ic, MPI_STATUS_IGNORE);
        CHECK(0, "a parent's receive completed");
    } else {
        if (wrank == 1) {
            static char big[1 << 20];
            CHECK_MPI(MPI_Recv(big, sizeof big, MPI_CHAR, 0, 1, parent, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, parent));
            usleep(100000);
            kill(getpid(), SIGKILL);
        }
        MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
        CHECK(0, "a child's receive completed");
    }
    MPI_Finalize();
    return 1;
}
