//go:build ignore

/* gompi-test: np=2,3,4 timeout=240 */
/* MPI_THREAD_MULTIPLE: each thread idups its own intercommunicator (the
 * lower half of MPI_COMM_WORLD against the upper half) and waits, several
 * outstanding per round, while the last thread duplicates its own with the
 * blocking MPI_Comm_dup in odd rounds. The threads of one process run in
 * any order relative to the other processes' threads, so idups cross;
 * all complete, and the duplicates carry their own traffic. */
#include "thread_common.h"

#define T 3
#define ROUNDS 5
#define K 3

static MPI_Comm parent[T];
static int lsize, rsize, lrank;

static void body(int t) {
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Comm kids[K];
        MPI_Request rq[K];
        if (t == T - 1 && round % 2) {
            for (int i = 0; i < K; i++)
                TCHECK_MPI(MPI_Comm_dup(parent[t], &kids[i]));
        } else {
            for (int i = 0; i < K; i++)
                TCHECK_MPI(MPI_Comm_idup(parent[t], &kids[i], &rq[i]));
            TCHECK_MPI(MPI_Waitall(K, rq, MPI_STATUSES_IGNORE));
        }
        for (int i = 0; i < K; i++) {
            int inter = 0, sum = -1, want = 0;
            TCHECK_MPI(MPI_Comm_test_inter(kids[i], &inter));
            TCHECK(inter, "thread %d round %d kid %d: not an intercommunicator", t, round, i);
            int mine = 1000 * t + 10 * i + lrank;
            for (int s = 0; s < rsize; s++)
                want += 1000 * t + 10 * i + s;
            TCHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, kids[i]));
            TCHECK(sum == want, "thread %d round %d kid %d: allreduce %d, want %d", t, round, i, sum, want);
        }
        for (int i = 0; i < K; i++)
            TCHECK_MPI(MPI_Comm_free(&kids[i]));
    }
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    int half = thr_size / 2, low = thr_rank < half;
    MPI_Comm local;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low, thr_rank, &local));
    MPI_Comm_size(local, &lsize);
    MPI_Comm_rank(local, &lrank);
    rsize = thr_size - lsize;
    for (int t = 0; t < T; t++)
        CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? half : 0, 20 + t, &parent[t]));
    thr_run(T, body);
    for (int t = 0; t < T; t++)
        CHECK_MPI(MPI_Comm_free(&parent[t]));
    MPI_Comm_free(&local);
    MPI_Finalize();
    return check_status();
}
