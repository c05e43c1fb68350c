//go:build ignore

/* gompi-test: np=1,2,4 timeout=240 */
/* MPI_THREAD_MULTIPLE, a communicator per thread: the main thread dups
 * MPI_COMM_WORLD once per thread; each thread then, concurrently with the
 * others and repeatedly, dups and splits its own parent (communicator
 * creation on different parents at once), exchanges around the ring on the
 * new communicators with the same tag as every other thread, and runs
 * nonblocking collectives (Iallreduce, Ibcast, Iallgather, Ibarrier) on
 * them; every element is checked. */
#include <stdlib.h>
#include <string.h>

#include "thread_common.h"

#define T 4
#define ROUNDS 15
#define N 300

static MPI_Comm parent[T];

static void ring(MPI_Comm c, int t, int r) {
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int32_t sb[N], rb[N];
    int right = (me + 1) % n, left = (me + n - 1) % n;
    thr_fill(sb, N, me, t, r);
    MPI_Request rq[2];
    TCHECK_MPI(MPI_Irecv(rb, N, MPI_INT32_T, left, 5, c, &rq[0]));
    TCHECK_MPI(MPI_Isend(sb, N, MPI_INT32_T, right, 5, c, &rq[1]));
    TCHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    thr_verify(rb, N, left, t, r, "ring");
}

static void colls(MPI_Comm c, int t, int r) {
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int64_t in[N], sum[N];
    int32_t bc[N], *all = malloc(sizeof(int32_t) * N * n), mine[N];
    for (int i = 0; i < N; i++) in[i] = (int64_t)(me + 1) * (i + t + r);
    if (me == 0) thr_fill(bc, N, 0, t, r);
    thr_fill(mine, N, me, t, r);
    MPI_Request rq[4];
    TCHECK_MPI(MPI_Iallreduce(in, sum, N, MPI_INT64_T, MPI_SUM, c, &rq[0]));
    TCHECK_MPI(MPI_Ibcast(bc, N, MPI_INT32_T, 0, c, &rq[1]));
    TCHECK_MPI(MPI_Iallgather(mine, N, MPI_INT32_T, all, N, MPI_INT32_T, c, &rq[2]));
    TCHECK_MPI(MPI_Ibarrier(c, &rq[3]));
    TCHECK_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
    int64_t tri = (int64_t)n * (n + 1) / 2;
    for (int i = 0; i < N; i++) {
        if (sum[i] != tri * (i + t + r)) {
            TCHECK(0, "thread %d round %d: Iallreduce element %d is %lld, want %lld", t, r, i,
                   (long long)sum[i], (long long)(tri * (i + t + r)));
            break;
        }
    }
    thr_verify(bc, N, 0, t, r, "Ibcast");
    for (int p = 0; p < n; p++) thr_verify(all + p * N, N, p, t, r, "Iallgather");
    free(all);
}

static void worker(int t) {
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Comm d, s;
        TCHECK_MPI(MPI_Comm_dup(parent[t], &d));
        /* split: the even and the odd ranks, reversed order */
        TCHECK_MPI(MPI_Comm_split(parent[t], thr_rank % 2, thr_size - thr_rank, &s));
        int sn = -1, sr = -1;
        MPI_Comm_size(s, &sn);
        MPI_Comm_rank(s, &sr);
        int want = (thr_size - thr_rank % 2 + 1) / 2;
        TCHECK(sn == want, "split size %d, want %d", sn, want);
        ring(d, t, r);
        ring(s, t, r);
        colls(d, t, r);
        colls(s, t, r);
        TCHECK_MPI(MPI_Comm_free(&d));
        TCHECK_MPI(MPI_Comm_free(&s));
    }
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    for (int t = 0; t < T; t++) CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent[t]));
    thr_run(T, worker);
    for (int t = 0; t < T; t++) CHECK_MPI(MPI_Comm_free(&parent[t]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
