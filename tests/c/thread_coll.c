//go:build ignore

/* gompi-test: np=1,2,4 timeout=300 */
/* MPI_THREAD_MULTIPLE, collectives of several threads at once, each thread
 * on its own communicator (duplicates and a reversed split, so comm ranks
 * differ from world ranks): blocking Allreduce, Bcast, Barrier, Allgather,
 * Reduce and Alltoall of 4 B to 1 MiB (the small ones run by the C
 * shared-memory collectives without a lock, capi/shmcoll.h; the large ones
 * in Go), then the nonblocking forms all in flight together; every element
 * is checked. With 2 ranks or more, pvar shm_coll_c_calls must show that
 * the threads' collectives took the C path at MULTIPLE. */
#include <stdlib.h>
#include <string.h>

#include "counter.h"
#include "thread_common.h"

#define T 3
#define ROUNDS 3

static MPI_Comm comm[T];
/* ints per rank: inline (<= 24 B), tiny slots, slots, big slots, past them */
static const int sizes[] = {1, 5, 6, 16, 100, 1000, 4096, 16384, 65536, 262144};
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))

static int64_t red64(int n, int i, int t, int r) { return (int64_t)n * (n + 1) / 2 * (i % 1000 + t + r); }

static void check64(const int64_t *b, int cnt, int n, int t, int r, const char *what) {
    for (int i = 0; i < cnt; i++)
        if (b[i] != red64(n, i, t, r)) {
            TCHECK(0, "thread %d round %d %s of %d: element %d is %lld, want %lld", t, r, what, cnt, i,
                   (long long)b[i], (long long)red64(n, i, t, r));
            return;
        }
}

/* one round of every blocking collective at cnt ints per rank */
static void blocking(MPI_Comm c, int me, int n, int t, int r, int cnt, int32_t *a, int32_t *b, int64_t *x,
                     int64_t *y) {
    int k = cnt / 2 > 0 ? cnt / 2 : 1, root = (r + t) % n;
    for (int i = 0; i < k; i++) x[i] = (int64_t)(me + 1) * (i % 1000 + t + r);
    TCHECK_MPI(MPI_Allreduce(x, y, k, MPI_INT64_T, MPI_SUM, c));
    check64(y, k, n, t, r, "Allreduce");
    TCHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, x, k, MPI_INT64_T, MPI_SUM, c));
    check64(x, k, n, t, r, "Allreduce in place");

    if (me == root) thr_fill(a, cnt, root, t, r);
    else memset(a, 0, sizeof(int32_t) * cnt);
    TCHECK_MPI(MPI_Bcast(a, cnt, MPI_INT32_T, root, c));
    thr_verify(a, cnt, root, t, r, "Bcast");

    TCHECK_MPI(MPI_Barrier(c));

    thr_fill(a, cnt, me, t, r);
    TCHECK_MPI(MPI_Allgather(a, cnt, MPI_INT32_T, b, cnt, MPI_INT32_T, c));
    for (int p = 0; p < n; p++) thr_verify(b + (size_t)p * cnt, cnt, p, t, r, "Allgather");

    for (int i = 0; i < k; i++) x[i] = (int64_t)(me + 1) * (i % 1000 + t + r);
    memset(y, 0, sizeof(int64_t) * k);
    TCHECK_MPI(MPI_Reduce(x, y, k, MPI_INT64_T, MPI_SUM, root, c));
    if (me == root) check64(y, k, n, t, r, "Reduce");

    /* Alltoall: cnt ints in all, cnt/n per block */
    int blk = cnt / n > 0 ? cnt / n : 1;
    for (int p = 0; p < n; p++) thr_fill(a + (size_t)p * blk, blk, me * 64 + p, t, r);
    TCHECK_MPI(MPI_Alltoall(a, blk, MPI_INT32_T, b, blk, MPI_INT32_T, c));
    for (int p = 0; p < n; p++) thr_verify(b + (size_t)p * blk, blk, p * 64 + me, t, r, "Alltoall");
}

/* the nonblocking forms, all in flight at once */
static void nonblocking(MPI_Comm c, int me, int n, int t, int r, int cnt, int32_t *a, int32_t *b, int64_t *x,
                        int64_t *y) {
    int k = cnt / 2 > 0 ? cnt / 2 : 1, root = (r + t + 1) % n, blk = cnt / n > 0 ? cnt / n : 1;
    int32_t *bc = malloc(sizeof(int32_t) * cnt), *ag = malloc(sizeof(int32_t) * cnt * n),
            *as = malloc(sizeof(int32_t) * blk * n), *ar = malloc(sizeof(int32_t) * blk * n);
    int64_t *rd = malloc(sizeof(int64_t) * k);
    for (int i = 0; i < k; i++) x[i] = (int64_t)(me + 1) * (i % 1000 + t + r);
    if (me == root) thr_fill(bc, cnt, root, t, r);
    thr_fill(a, cnt, me, t, r);
    for (int p = 0; p < n; p++) thr_fill(as + (size_t)p * blk, blk, me * 64 + p, t, r);
    MPI_Request rq[6];
    TCHECK_MPI(MPI_Iallreduce(x, y, k, MPI_INT64_T, MPI_SUM, c, &rq[0]));
    TCHECK_MPI(MPI_Ibcast(bc, cnt, MPI_INT32_T, root, c, &rq[1]));
    TCHECK_MPI(MPI_Iallgather(a, cnt, MPI_INT32_T, ag, cnt, MPI_INT32_T, c, &rq[2]));
    TCHECK_MPI(MPI_Ireduce(x, rd, k, MPI_INT64_T, MPI_SUM, root, c, &rq[3]));
    TCHECK_MPI(MPI_Ialltoall(as, blk, MPI_INT32_T, ar, blk, MPI_INT32_T, c, &rq[4]));
    TCHECK_MPI(MPI_Ibarrier(c, &rq[5]));
    TCHECK_MPI(MPI_Waitall(6, rq, MPI_STATUSES_IGNORE));
    check64(y, k, n, t, r, "Iallreduce");
    thr_verify(bc, cnt, root, t, r, "Ibcast");
    for (int p = 0; p < n; p++) thr_verify(ag + (size_t)p * cnt, cnt, p, t, r, "Iallgather");
    if (me == root) check64(rd, k, n, t, r, "Ireduce");
    for (int p = 0; p < n; p++) thr_verify(ar + (size_t)p * blk, blk, p * 64 + me, t, r, "Ialltoall");
    free(bc), free(ag), free(as), free(ar), free(rd);
    (void)b;
}

static void worker(int t) {
    MPI_Comm c = comm[t];
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int max = sizes[NSIZES - 1];
    int32_t *a = malloc(sizeof(int32_t) * max * 2), *b = malloc(sizeof(int32_t) * max * n);
    int64_t *x = malloc(sizeof(int64_t) * max), *y = malloc(sizeof(int64_t) * max);
    for (int s = 0; s < NSIZES; s++) {
        int rounds = sizes[s] <= 4096 ? 8 * ROUNDS : ROUNDS;
        for (int r = 0; r < rounds; r++) blocking(c, me, n, t, r, sizes[s], a, b, x, y);
        if (s % 3 == 0 || s == NSIZES - 1)
            for (int r = 0; r < ROUNDS; r++) nonblocking(c, me, n, t, r, sizes[s], a, b, x, y);
    }
    free(a), free(b), free(x), free(y);
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    int provided;
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    for (int t = 0; t < T; t++) {
        if (t == 1) /* reversed: comm rank = size-1-world rank */
            CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, thr_size - thr_rank, &comm[t]));
        else
            CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm[t]));
    }
    counter calls = counter_start("shm_coll_c_calls");
    unsigned long long before = counter_read(calls);
    thr_run(T, worker);
    unsigned long long after = counter_read(calls);
    counter_free(&calls);
    /* every thread's barriers alone (one per round of the small sizes) */
    if (thr_size > 1)
        CHECK(after - before >= (unsigned long long)T * 8 * ROUNDS,
              "shm_coll_c_calls rose by %llu during the threaded collectives: the C path was not taken",
              after - before);
    for (int t = 0; t < T; t++) CHECK_MPI(MPI_Comm_free(&comm[t]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_T_finalize());
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
