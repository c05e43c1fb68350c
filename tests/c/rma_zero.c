//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=60 */
/* Windows of size 0 on the odd ranks (create with a NULL base, allocate,
 * allocate_shared): every rank puts to and gets from every even rank under
 * fence and under lock_all, zero-count operations to every rank (odd ones
 * included) are no-ops, MPI_WIN_SIZE is 0 there, and shared_query of an
 * empty segment reports size 0.
 * Passes on MPICH 4.0 (Debian mpich) with np=1..4 and Open MPI 4.1.4 (np>=2). */
#include "check.h"

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    check_rank = me;
    int odd = me % 2, n = odd ? 0 : 8 * np;
    for (int fl = 0; fl < 3; fl++) {
        int *base = NULL, *mem = NULL;
        MPI_Win win;
        MPI_Aint bytes = n * (MPI_Aint)sizeof(int);
        switch (fl) {
        case 0:
            mem = odd ? NULL : malloc(bytes);
            base = mem;
            CHECK_MPI(MPI_Win_create(base, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
            break;
        case 1: CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win)); break;
        case 2:
            CHECK_MPI(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
            for (int r = 0; r < np; r++) {
                MPI_Aint sz;
                int du;
                int *p;
                CHECK_MPI(MPI_Win_shared_query(win, r, &sz, &du, &p));
                CHECK(sz == (r % 2 ? 0 : 8 * np * (MPI_Aint)sizeof(int)), "shared_query(%d) size %ld", r, (long)sz);
            }
            break;
        }
        MPI_Aint *sp;
        int flag;
        CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sp, &flag));
        CHECK(flag && *sp == bytes, "flavour %d: MPI_WIN_SIZE %ld, want %ld", fl, flag ? (long)*sp : -1L, (long)bytes);
        for (int i = 0; i < n; i++)
            base[i] = -1;
        int src[2] = {100 * me + fl, 7}, got[64];
        CHECK_MPI(MPI_Win_fence(0, win));
        for (int t = 0; t < np; t++) {
            CHECK_MPI(MPI_Put(src, 0, MPI_INT, t, 0, 0, MPI_INT, win));
            CHECK_MPI(MPI_Get(got, 0, MPI_INT, t, 0, 0, MPI_INT, win));
            CHECK_MPI(MPI_Accumulate(src, 0, MPI_INT, t, 0, 0, MPI_INT, MPI_SUM, win));
            if (t % 2 == 0)
                CHECK_MPI(MPI_Put(src, 1, MPI_INT, t, me, 1, MPI_INT, win));
        }
        CHECK_MPI(MPI_Win_fence(0, win));
        for (int i = 0; i < n; i++)
            CHECK(base[i] == (i < np ? 100 * i + fl : -1), "flavour %d: int %d is %d after fence", fl, i, base[i]);
        CHECK_MPI(MPI_Win_fence(0, win));
        CHECK_MPI(MPI_Win_lock_all(0, win));
        for (int t = 0; t < np; t += 2) {
            CHECK_MPI(MPI_Get(&got[t], 1, MPI_INT, t, (me + 1) % np, 1, MPI_INT, win));
            CHECK_MPI(MPI_Accumulate(&src[1], 1, MPI_INT, t, np + me, 1, MPI_INT, MPI_SUM, win));
        }
        CHECK_MPI(MPI_Win_flush_all(win));
        for (int t = 0; t < np; t += 2)
            CHECK(got[t] == 100 * ((me + 1) % np) + fl, "flavour %d: get from %d gave %d", fl, t, got[t]);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Win_sync(win));
        for (int i = np; i < 2 * np && i < n; i++)
            CHECK(base[i] == 6, "flavour %d: int %d is %d after accumulate", fl, i, base[i]);
        CHECK_MPI(MPI_Win_unlock_all(win));
        CHECK_MPI(MPI_Win_free(&win));
        free(mem);
    }
    MPI_Finalize();
    return check_status();
}
