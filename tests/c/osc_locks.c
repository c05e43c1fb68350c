//go:build ignore

/* gompi-test: np=2,4,8 timeout=120 */
/* Exclusive locks exclude: every rank increments a counter on every target
 * by get + put under MPI_LOCK_EXCLUSIVE (no atomics), with more ranks than
 * cores; shared locks and lock_all mix in; zero-size windows on odd ranks. */
#include "check.h"

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    check_rank = me;
    long *mem;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(2 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    mem[0] = mem[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    const int iters = 200;
    for (int i = 0; i < iters; i++) {
        for (int k = 0; k < np; k++) {
            int t = (me + k) % np;
            long v;
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
            CHECK_MPI(MPI_Get(&v, 1, MPI_LONG, t, 0, 1, MPI_LONG, win));
            CHECK_MPI(MPI_Win_flush(t, win));
            v++;
            CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, t, 0, 1, MPI_LONG, win));
            CHECK_MPI(MPI_Win_unlock(t, win));
            if (i % 16 == 0) {
                long r;
                CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
                CHECK_MPI(MPI_Get(&r, 1, MPI_LONG, t, 0, 1, MPI_LONG, win));
                CHECK_MPI(MPI_Win_unlock(t, win));
            }
        }
        if (i % 50 == 0) {
            long one = 1;
            CHECK_MPI(MPI_Win_lock_all(0, win));
            for (int t = 0; t < np; t++)
                CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, t, 1, 1, MPI_LONG, MPI_SUM, win));
            CHECK_MPI(MPI_Win_unlock_all(win));
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
    CHECK(mem[0] == (long)np * iters, "counter %ld, want %ld", mem[0], (long)np * iters);
    CHECK(mem[1] == (long)np * 4, "accumulated %ld, want %ld", mem[1], (long)np * 4);
    CHECK_MPI(MPI_Win_unlock(me, win));
    CHECK_MPI(MPI_Win_free(&win));

    /* zero-size windows on odd ranks; shared memory queried from all */
    int *base;
    MPI_Aint sz = (me % 2) ? 0 : 4 * sizeof(int);
    CHECK_MPI(MPI_Win_allocate_shared(sz, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    if (sz) for (int i = 0; i < 4; i++) base[i] = me * 10 + i;
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int r = 0; r < np; r += 2) {
        MPI_Aint qs;
        int du, *qb;
        CHECK_MPI(MPI_Win_shared_query(win, r, &qs, &du, &qb));
        CHECK(qs == 4 * (MPI_Aint)sizeof(int) && du == sizeof(int), "shared_query size %ld", (long)qs);
        for (int i = 0; i < 4; i++) CHECK(qb[i] == r * 10 + i, "shared load rank %d elem %d = %d", r, i, qb[i]);
        int v = -1;
        CHECK_MPI(MPI_Get(&v, 1, MPI_INT, r, 3, 1, MPI_INT, win));
        CHECK(v == r * 10 + 3, "get from rank %d = %d", r, v);
    }
    if (np > 1) {
        MPI_Aint qs;
        int du, *qb;
        CHECK_MPI(MPI_Win_shared_query(win, 1, &qs, &du, &qb));
        CHECK(qs == 0, "rank 1's size %ld", (long)qs);
    }
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return check_status();
}
