//go:build ignore

/* gompi-test: np=1,2,4 timeout=240 */
/* MPI_THREAD_MULTIPLE, one-sided: each of T threads creates a window on its
 * own communicator (collective creation on different communicators at
 * once), then repeatedly puts its round's data into the right neighbour's
 * window under a passive-target lock, and reads the left neighbour's
 * contribution after a fence; accumulates into a shared counter window
 * from every thread inside one MPI_Win_lock_all epoch of the main thread,
 * with MPI_Win_flush per thread. Every element is checked. */
#include <stdlib.h>
#include <string.h>

#include "thread_common.h"

#define T 4
#define ROUNDS 20
#define N 128

static MPI_Comm comms[T];
static MPI_Win counter;
static int64_t *count_mem;

static void worker(int t) {
    MPI_Comm c = comms[t];
    int me, n;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &n);
    int right = (me + 1) % n, left = (me + n - 1) % n;
    int32_t *mem;
    MPI_Win w;
    TCHECK_MPI(MPI_Win_allocate(N * sizeof(int32_t), sizeof(int32_t), MPI_INFO_NULL, c, &mem, &w));
    int32_t out[N], got[N];
    for (int r = 0; r < ROUNDS; r++) {
        thr_fill(out, N, me, t, r);
        /* passive target: put into the right neighbour, then fence so the
         * left neighbour's put is visible here */
        TCHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w));
        TCHECK_MPI(MPI_Put(out, N, MPI_INT32_T, right, 0, N, MPI_INT32_T, w));
        TCHECK_MPI(MPI_Win_unlock(right, w));
        TCHECK_MPI(MPI_Win_fence(0, w));
        TCHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, w));
        memcpy(got, mem, sizeof got);
        TCHECK_MPI(MPI_Win_unlock(me, w));
        thr_verify(got, N, left, t, r, "put from the left neighbour");
        /* Get back what we put, then a fence before the next round's put. */
        TCHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w));
        TCHECK_MPI(MPI_Get(got, N, MPI_INT32_T, right, 0, N, MPI_INT32_T, w));
        TCHECK_MPI(MPI_Win_unlock(right, w));
        thr_verify(got, N, me, t, r, "get of our own put");
        TCHECK_MPI(MPI_Win_fence(0, w));
        int64_t one = 1;
        TCHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, MPI_SUM, counter));
        TCHECK_MPI(MPI_Win_flush(0, counter));
    }
    TCHECK_MPI(MPI_Win_free(&w));
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    for (int t = 0; t < T; t++) CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]));
    CHECK_MPI(MPI_Win_allocate(sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &count_mem,
                               &counter));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, thr_rank, 0, counter));
    *count_mem = 0;
    CHECK_MPI(MPI_Win_unlock(thr_rank, counter));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    /* One passive epoch on the counter for all threads: a lock is the
     * process's, so threads must not lock the same target at once. */
    CHECK_MPI(MPI_Win_lock_all(0, counter));
    thr_run(T, worker);
    CHECK_MPI(MPI_Win_unlock_all(counter));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (thr_rank == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, counter));
        int64_t v = *count_mem;
        CHECK_MPI(MPI_Win_unlock(0, counter));
        CHECK(v == (int64_t)thr_size * T * ROUNDS, "counter %lld, want %lld", (long long)v,
              (long long)thr_size * T * ROUNDS);
    }
    CHECK_MPI(MPI_Win_free(&counter));
    for (int t = 0; t < T; t++) CHECK_MPI(MPI_Comm_free(&comms[t]));
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
