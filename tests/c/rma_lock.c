//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=240 */
/* Passive target with MPI_Win_lock/unlock, exclusive and shared, and with
 * MPI_Win_flush_local + MPI_Win_flush inside the lock (origin buffers
 * overwritten after flush_local must not change what the target gets), on
 * every window flavour, with put, get, accumulate and get_accumulate for
 * every pair of origin and target layouts (rma_common.h). The target reads
 * its window under a lock on itself after the origin's unlock and a barrier.
 * Then an exclusive-lock critical section: every rank adds to a counter on
 * rank 0 by get, local add and put (not atomic by itself) 50 times; the
 * exclusive lock alone must make the total exact.
 * Passes on MPICH 4.0 (Debian mpich) with np=1..4. Open MPI 4.1.4 (Debian)
 * refuses Win_create on one process and, on create and dynamic windows
 * (osc rdma), returns wrong get_accumulate results when the target type is
 * not contiguous; everything else passes there. */
#include "rma_common.h"

static void critical_section(void) {
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    long *base;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(2 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    base[0] = base[1] = 0;
    CHECK_MPI(MPI_Win_unlock(me, win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < 50; k++) {
        long v[2];
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Get(v, 2, MPI_LONG, 0, 0, 2, MPI_LONG, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        CHECK(v[0] == v[1], "inside the exclusive lock the pair differs: %ld %ld", v[0], v[1]);
        v[0]++;
        CHECK_MPI(MPI_Put(&v[0], 1, MPI_LONG, 0, 0, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        v[1]++;
        CHECK_MPI(MPI_Put(&v[1], 1, MPI_LONG, 0, 1, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK(base[0] == 50L * np && base[1] == 50L * np, "counter %ld %ld, want %d", base[0], base[1], 50 * np);
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    rma_matrix(SY_LOCK_EXCL);
    rma_matrix(SY_LOCK_SHARED);
    rma_matrix(SY_LOCK_FLUSH_LOCAL);
    critical_section();
    MPI_Finalize();
    return check_status();
}
