//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=120 */
/* MPI_Win_create_dynamic with several attached regions per rank (8 bytes,
 * 4 KiB, 100 KiB, and one on the stack) whose addresses are exchanged with
 * MPI_Get_address + Allgather: put, get and accumulate into each region of
 * the right neighbour (and of oneself) under lock_all + flush, checked;
 * then one region detached, a new one attached and used, all in several
 * rounds on one window; a region attached before any other rank knows it
 * costs nothing to the others.
 * Passes on MPICH 4.0 (Debian mpich) with np=1..4 and Open MPI 4.1.4 (np>=2). */
#include <string.h>

#include "check.h"

#define NREG 4

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    check_rank = me;
    int t = (me + 1) % np, s = (me + np - 1) % np;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    int flavour, *fp, flag;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fp, &flag));
    flavour = flag ? *fp : -1;
    CHECK(flavour == MPI_WIN_FLAVOR_DYNAMIC, "flavour %d", flavour);
    MPI_Aint *size_p;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &size_p, &flag));
    CHECK(flag && *size_p == 0, "dynamic window MPI_WIN_SIZE is not 0");

    int stackreg[64];
    int n[NREG] = {2, 1024, 25600, 64};
    int *reg[NREG];
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < NREG; k++) {
            if (round > 0 && k != round) /* one region replaced per round */
                continue;
            if (round > 0) {
                CHECK_MPI(MPI_Win_detach(win, reg[k]));
                if (k != 3)
                    free(reg[k]);
            }
            reg[k] = k == 3 ? stackreg : malloc(n[k] * sizeof(int));
            for (int i = 0; i < n[k]; i++)
                reg[k][i] = -(me * 1000000 + k * 100000 + i);
            CHECK_MPI(MPI_Win_attach(win, reg[k], n[k] * sizeof(int)));
        }
        MPI_Aint mine[NREG], *all = malloc(sizeof(MPI_Aint) * NREG * np);
        for (int k = 0; k < NREG; k++)
            CHECK_MPI(MPI_Get_address(reg[k], &mine[k]));
        CHECK_MPI(MPI_Allgather(mine, NREG, MPI_AINT, all, NREG, MPI_AINT, MPI_COMM_WORLD));

        CHECK_MPI(MPI_Win_lock_all(0, win));
        for (int k = 0; k < NREG; k++) {
            for (int i = 0; i < n[k]; i++)
                reg[k][i] = me * 1000000 + k * 100000 + i + round;
        }
        CHECK_MPI(MPI_Win_sync(win));
        MPI_Barrier(MPI_COMM_WORLD);
        for (int k = 0; k < NREG; k++) {
            /* Get the whole region, put its first half back plus 1 (as
             * accumulate of ones on the second half), then read it again. */
            int *buf = malloc(n[k] * sizeof(int)), *ones = malloc(n[k] * sizeof(int));
            MPI_Aint a = all[t * NREG + k];
            CHECK_MPI(MPI_Get(buf, n[k], MPI_INT, t, a, n[k], MPI_INT, win));
            CHECK_MPI(MPI_Win_flush(t, win));
            int bad = 0;
            for (int i = 0; i < n[k]; i++)
                bad += buf[i] != t * 1000000 + k * 100000 + i + round;
            CHECK(bad == 0, "round %d region %d of rank %d: %d ints wrong by get", round, k, t, bad);
            int h = n[k] / 2;
            for (int i = 0; i < n[k]; i++) {
                buf[i] = -buf[i];
                ones[i] = 7;
            }
            CHECK_MPI(MPI_Put(buf, h, MPI_INT, t, a, h, MPI_INT, win));
            CHECK_MPI(MPI_Accumulate(ones, n[k] - h, MPI_INT, t, a + h * sizeof(int), n[k] - h, MPI_INT, MPI_SUM,
                                     win));
            CHECK_MPI(MPI_Win_flush(t, win));
            free(buf);
            free(ones);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Win_sync(win));
        for (int k = 0; k < NREG; k++) {
            int bad = 0, h = n[k] / 2;
            for (int i = 0; i < n[k]; i++) {
                int v = me * 1000000 + k * 100000 + i + round;
                bad += reg[k][i] != (i < h ? -v : v + 7);
            }
            CHECK(bad == 0, "round %d region %d: %d ints wrong after %d's put+accumulate", round, k, bad, s);
        }
        CHECK_MPI(MPI_Win_unlock_all(win));
        MPI_Barrier(MPI_COMM_WORLD);
        free(all);
    }
    for (int k = 0; k < NREG; k++) {
        CHECK_MPI(MPI_Win_detach(win, reg[k]));
        if (k != 3)
            free(reg[k]);
    }
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return check_status();
}
