//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=240 */
/* MPI_THREAD_MULTIPLE: threads start MPI_Comm_idups on their own parents
 * at once (several outstanding per thread, then Waitall), while another
 * thread duplicates its parent with the blocking MPI_Comm_dup: agreements
 * in flight together never pick the same context id. Every new
 * communicator works (allreduce) and keeps its messages apart: each thread
 * sends the same tag on all of its communicators and checks what arrives. */
#include <stdlib.h>

#include "thread_common.h"

#define T 3
#define ROUNDS 6
#define K 3

static MPI_Comm parent[T];

static void body(int t) {
    int n = thr_size, r = thr_rank;
    int right = (r + 1) % n, left = (r + n - 1) % n;
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Comm kids[K];
        MPI_Request rq[K];
        if (t == T - 1 && round % 2) { /* blocking dups meanwhile */
            for (int i = 0; i < K; i++)
                TCHECK_MPI(MPI_Comm_dup(parent[t], &kids[i]));
        } else {
            for (int i = 0; i < K; i++)
                TCHECK_MPI(MPI_Comm_idup(parent[t], &kids[i], &rq[i]));
            TCHECK_MPI(MPI_Waitall(K, rq, MPI_STATUSES_IGNORE));
        }
        int sb[K], rb[K];
        MPI_Request sr[K];
        for (int i = 0; i < K; i++) {
            int sum = -1;
            TCHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, kids[i]));
            TCHECK(sum == n * (n - 1) / 2, "thread %d round %d kid %d: allreduce %d", t, round, i, sum);
            sb[i] = 10000 * t + 100 * i + r;
            TCHECK_MPI(MPI_Isend(&sb[i], 1, MPI_INT, right, 9, kids[i], &sr[i]));
        }
        for (int i = K - 1; i >= 0; i--) {
            rb[i] = -1;
            TCHECK_MPI(MPI_Recv(&rb[i], 1, MPI_INT, left, 9, kids[i], MPI_STATUS_IGNORE));
            TCHECK(rb[i] == 10000 * t + 100 * i + left, "thread %d round %d kid %d: got %d", t, round, i,
                   rb[i]);
        }
        TCHECK_MPI(MPI_Waitall(K, sr, MPI_STATUSES_IGNORE));
        for (int i = 0; i < K; i++)
            TCHECK_MPI(MPI_Comm_free(&kids[i]));
    }
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    for (int t = 0; t < T; t++)
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent[t]));
    thr_run(T, body);
    for (int t = 0; t < T; t++)
        CHECK_MPI(MPI_Comm_free(&parent[t]));
    MPI_Finalize();
    return check_status();
}
