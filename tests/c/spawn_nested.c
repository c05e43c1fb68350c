//go:build ignore

/* gompi-test: np=1,2 timeout=90 */
/* Children spawn again: the parents spawn 2 children, which together spawn
 * 1 grandchild. The grandchild sends a token to the children's rank 0,
 * which adds to it and passes it to the parents' rank 0; both inner and
 * outer intercommunicators are then merged and disconnected. */
#include <mpi.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    int level = argc > 1 ? (argv[1][0] - '0') : 0;
    check_rank = 100 * level + wrank;
    char *args[] = {level == 0 ? "1" : "2", NULL};
    if (level < 2) {
        MPI_Comm ic;
        CHECK_MPI(MPI_Comm_spawn(argv[0], args, level == 0 ? 2 : 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                                 MPI_ERRCODES_IGNORE));
        int token = -1;
        if (wrank == 0) {
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 3, ic, MPI_STATUS_IGNORE));
            CHECK(token == (level == 0 ? 11 : 1), "level %d got token %d", level, token);
        }
        MPI_Comm m;
        CHECK_MPI(MPI_Intercomm_merge(ic, 0, &m));
        int msize, n = 1, sum = 0;
        MPI_Comm_size(m, &msize);
        CHECK_MPI(MPI_Allreduce(&n, &sum, 1, MPI_INT, MPI_SUM, m));
        CHECK(sum == msize && msize == wsize + (level == 0 ? 2 : 1), "merged allreduce %d of %d", sum, msize);
        CHECK_MPI(MPI_Comm_free(&m));
        CHECK_MPI(MPI_Comm_disconnect(&ic));
        if (level == 1 && wrank == 0) {
            token += 10;
            CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 3, parent));
        }
    } else {
        int token = 1;
        CHECK(parent != MPI_COMM_NULL, "the grandchild has no parent");
        CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 3, parent));
        MPI_Comm m;
        CHECK_MPI(MPI_Intercomm_merge(parent, 1, &m));
        int msize, n = 1, sum = 0;
        MPI_Comm_size(m, &msize);
        CHECK_MPI(MPI_Allreduce(&n, &sum, 1, MPI_INT, MPI_SUM, m));
        CHECK(sum == 3, "grandchild merged allreduce %d", sum);
        CHECK_MPI(MPI_Comm_free(&m));
    }
    if (level > 0) {
        if (level == 1) {
            /* the parents merge too */
            MPI_Comm m;
            CHECK_MPI(MPI_Intercomm_merge(parent, 1, &m));
            int n = 1, sum = 0;
            CHECK_MPI(MPI_Allreduce(&n, &sum, 1, MPI_INT, MPI_SUM, m));
            CHECK_MPI(MPI_Comm_free(&m));
        }
        CHECK_MPI(MPI_Comm_disconnect(&parent));
    }
    MPI_Finalize();
    return check_status();
}
