//go:build ignore

/* gompi-test: np=1,2 timeout=90 */
/* MPI_Comm_spawn of 1 and then 4 children running this program (argv
 * passed, "a b" kept whole): the intercommunicator's sizes, MPI_APPNUM and
 * MPI_Comm_get_parent in the children, point-to-point both ways, Bcast,
 * Allreduce and Barrier over the intercommunicator, Intercomm_merge (parents
 * first), then MPI_Comm_disconnect on both sides (the parent handle becomes
 * MPI_COMM_NULL). */
#include <mpi.h>
#include <string.h>

#include "check.h"

static void both_sides(MPI_Comm ic, int parent_side) {
    int rank, size, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_size(ic, &size);
    MPI_Comm_remote_size(ic, &rsize);
    /* Point-to-point: every process sends its rank to each remote process
     * and gets every remote rank back. */
    for (int r = 0; r < rsize; r++) {
        int v = 1000 * parent_side + rank;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, r, 7, ic));
    }
    for (int r = 0; r < rsize; r++) {
        int v = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, r, 7, ic, &st));
        CHECK(v == 1000 * !parent_side + r, "got %d from remote %d", v, r);
        CHECK(st.MPI_SOURCE == r, "source %d, want %d", st.MPI_SOURCE, r);
    }
    /* A large message (pipelined fragments between jobs). */
    enum { BIG = 1 << 20 };
    static int big[BIG];
    if (parent_side && rank == 0) {
        for (int i = 0; i < BIG; i++) big[i] = i ^ 0x5a5a;
        CHECK_MPI(MPI_Send(big, BIG, MPI_INT, rsize - 1, 8, ic));
    } else if (!parent_side && rank == size - 1) {
        memset(big, 0, sizeof big);
        CHECK_MPI(MPI_Recv(big, BIG, MPI_INT, 0, 8, ic, MPI_STATUS_IGNORE));
        int bad = 0;
        for (int i = 0; i < BIG; i++) bad += big[i] != (i ^ 0x5a5a);
        CHECK(bad == 0, "%d wrong ints in the large message", bad);
    }
    /* Bcast from parent 0 to the children. */
    int b = parent_side ? 4242 : 0;
    int root = parent_side ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, root, ic));
    if (!parent_side) CHECK(b == 4242, "bcast gave %d", b);
    /* Allreduce: each side gets the sum over the other side. */
    int mine = parent_side ? 1 + rank : 100 * (1 + rank), sum = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, ic));
    int want = parent_side ? 100 * rsize * (rsize + 1) / 2 : rsize * (rsize + 1) / 2;
    CHECK(sum == want, "intercomm allreduce %d, want %d", sum, want);
    CHECK_MPI(MPI_Barrier(ic));
    /* Merge: parents (high=0) first. */
    MPI_Comm m;
    CHECK_MPI(MPI_Intercomm_merge(ic, !parent_side, &m));
    int mrank, msize;
    MPI_Comm_rank(m, &mrank);
    MPI_Comm_size(m, &msize);
    CHECK(msize == size + rsize, "merged size %d", msize);
    CHECK(mrank == (parent_side ? rank : rsize + rank), "merged rank %d", mrank);
    int total = 0;
    CHECK_MPI(MPI_Allreduce(&mrank, &total, 1, MPI_INT, MPI_SUM, m));
    CHECK(total == msize * (msize - 1) / 2, "merged allreduce %d", total);
    CHECK_MPI(MPI_Comm_free(&m));
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm parent;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    if (parent == MPI_COMM_NULL) {
        check_rank = wrank;
        CHECK(argc == 1, "the parents got %d arguments", argc);
        int counts[2] = {1, 4};
        for (int k = 0; k < 2; k++) {
            char *args[] = {"child", "a b", NULL};
            int codes[4] = {-1, -1, -1, -1};
            MPI_Comm ic;
            CHECK_MPI(MPI_Comm_spawn(argv[0], args, counts[k], MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, codes));
            for (int i = 0; i < counts[k]; i++) CHECK(codes[i] == MPI_SUCCESS, "errcode %d: %d", i, codes[i]);
            int inter = 0, rsize = 0, size = 0;
            MPI_Comm_test_inter(ic, &inter);
            MPI_Comm_remote_size(ic, &rsize);
            MPI_Comm_size(ic, &size);
            CHECK(inter && rsize == counts[k] && size == wsize, "inter %d remote %d size %d", inter, rsize, size);
            both_sides(ic, 1);
            CHECK_MPI(MPI_Comm_disconnect(&ic));
            CHECK(ic == MPI_COMM_NULL, "disconnect left the handle");
        }
    } else {
        check_rank = 100 + wrank;
        CHECK(argc == 3 && strcmp(argv[1], "child") == 0 && strcmp(argv[2], "a b") == 0, "child argv wrong (argc %d)",
              argc);
        int *appnum, flag = 0;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
        CHECK(flag && *appnum == 0, "MPI_APPNUM %d", flag ? *appnum : -1);
        both_sides(parent, 0);
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        MPI_Comm again;
        MPI_Comm_get_parent(&again);
        CHECK(again == MPI_COMM_NULL, "MPI_Comm_get_parent after disconnect");
    }
    MPI_Finalize();
    return check_status();
}
