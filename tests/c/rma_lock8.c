//go:build ignore

/* gompi-test: np=8 timeout=240 */
/* Eight ranks (four per core on two cores) on passive-target locks:
 * exclusive-lock critical sections on rank 0 and on the last rank
 * (get-modify-put of two words that must stay equal; totals exact),
 * shared-lock readers concurrent with exclusive writers (a reader never
 * sees a half-written record), and lock_all + fetch_and_op from all ranks
 * at once. Progress must not need the target to call MPI: the targets spin
 * in their own lock epochs.
 * Passes on MPICH 4.0 (Debian mpich) and Open MPI 4.1.4 with np=8. */
#include "check.h"

#define ROUNDS 40
#define REC 16

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    check_rank = me;
    long *base;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate((REC + 2) * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    for (int i = 0; i < REC + 2; i++)
        base[i] = 0;
    CHECK_MPI(MPI_Win_unlock(me, win));
    MPI_Barrier(MPI_COMM_WORLD);

    int targets[2] = {0, np - 1};
    for (int k = 0; k < ROUNDS; k++) {
        int t = targets[k % 2];
        long rec[REC];
        if ((me + k) % 3 == 0) { /* reader */
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
            CHECK_MPI(MPI_Get(rec, REC, MPI_LONG, t, 0, REC, MPI_LONG, win));
            CHECK_MPI(MPI_Win_unlock(t, win));
            int torn = 0;
            for (int i = 1; i < REC; i++)
                torn |= rec[i] != rec[0];
            CHECK(!torn, "shared lock saw a half-written record: [0]=%ld [%d]=%ld", rec[0], REC - 1, rec[REC - 1]);
        } else { /* writer: every word +1, one put per word */
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
            CHECK_MPI(MPI_Get(rec, REC, MPI_LONG, t, 0, REC, MPI_LONG, win));
            CHECK_MPI(MPI_Win_flush(t, win));
            int torn = 0;
            for (int i = 1; i < REC; i++)
                torn |= rec[i] != rec[0];
            CHECK(!torn, "exclusive lock saw a half-written record");
            for (int i = 0; i < REC; i++) {
                rec[i]++;
                CHECK_MPI(MPI_Put(&rec[i], 1, MPI_LONG, t, i, 1, MPI_LONG, win));
                CHECK_MPI(MPI_Win_flush(t, win));
            }
            CHECK_MPI(MPI_Win_unlock(t, win));
        }
    }
    long writes = 0;
    for (int r = 0; r < np; r++)
        for (int k = 0; k < ROUNDS; k++)
            if ((r + k) % 3 != 0 && targets[k % 2] == me)
                writes++;
    /* lock_all: every rank adds its rank+1 to every other rank's counter. */
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ROUNDS; k++)
        for (int t = 0; t < np; t++) {
            long v = me + 1, old;
            CHECK_MPI(MPI_Fetch_and_op(&v, &old, MPI_LONG, t, REC, MPI_SUM, win));
        }
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
    if (me == 0 || me == np - 1)
        for (int i = 0; i < REC; i++)
            CHECK(base[i] == writes, "record word %d: %ld, want %ld", i, base[i], writes);
    CHECK(base[REC] == (long)ROUNDS * np * (np + 1) / 2, "fetch_and_op total %ld", base[REC]);
    CHECK_MPI(MPI_Win_unlock(me, win));
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return check_status();
}
