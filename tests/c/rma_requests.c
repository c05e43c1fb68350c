//go:build ignore

/* gompi-test: np=1,2,3,4 timeout=120 */
/* Request-based RMA (MPI_Rput, Rget, Raccumulate, Rget_accumulate) inside
 * lock_all and inside lock, completed by MPI_Wait, Waitall, Waitany,
 * Waitsome, Test (polled), Testany and Testall; each request's completion is
 * local (buffers reusable / results available), the target sees the data
 * after Win_flush. Every value is checked; completed requests become
 * MPI_REQUEST_NULL.
 * Passes on MPICH 4.0 (Debian mpich) with np=1..4 and Open MPI 4.1.4 (np>=2). */
#include <string.h>

#include "check.h"

#define N 256
#define NR 8

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    check_rank = me;
    int t = (me + 1) % np, s = (me + np - 1) % np;
    int *base;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(NR * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    static int src[NR][N], res[NR][N];
    for (int mode = 0; mode < 7; mode++) {
        CHECK_MPI(MPI_Win_lock_all(0, win));
        for (int i = 0; i < NR * N; i++)
            base[i] = 1000 * me + i;
        CHECK_MPI(MPI_Win_sync(win));
        MPI_Barrier(MPI_COMM_WORLD);
        if (mode == 6) { /* also inside a plain lock */
            CHECK_MPI(MPI_Win_unlock_all(win));
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        }
        MPI_Request rq[NR];
        for (int k = 0; k < NR; k++) {
            for (int i = 0; i < N; i++) {
                src[k][i] = 100 * k + i + mode;
                res[k][i] = -1;
            }
            MPI_Aint d = k * N;
            switch (k % 4) {
            case 0: CHECK_MPI(MPI_Rput(src[k], N, MPI_INT, t, d, N, MPI_INT, win, &rq[k])); break;
            case 1: CHECK_MPI(MPI_Rget(res[k], N, MPI_INT, t, d, N, MPI_INT, win, &rq[k])); break;
            case 2: CHECK_MPI(MPI_Raccumulate(src[k], N, MPI_INT, t, d, N, MPI_INT, MPI_SUM, win, &rq[k])); break;
            case 3:
                CHECK_MPI(MPI_Rget_accumulate(src[k], N, MPI_INT, res[k], N, MPI_INT, t, d, N, MPI_INT, MPI_SUM, win,
                                              &rq[k]));
                break;
            }
        }
        int flag, idx, outcount, idxs[NR];
        MPI_Status sts[NR];
        switch (mode) {
        case 0:
            for (int k = 0; k < NR; k++)
                CHECK_MPI(MPI_Wait(&rq[k], MPI_STATUS_IGNORE));
            break;
        case 1: CHECK_MPI(MPI_Waitall(NR, rq, sts)); break;
        case 2:
            for (int k = 0; k < NR; k++) {
                CHECK_MPI(MPI_Waitany(NR, rq, &idx, MPI_STATUS_IGNORE));
                CHECK(idx >= 0 && idx < NR, "Waitany index %d", idx);
            }
            CHECK_MPI(MPI_Waitany(NR, rq, &idx, MPI_STATUS_IGNORE));
            CHECK(idx == MPI_UNDEFINED, "Waitany on all-null requests gave %d", idx);
            break;
        case 3:
            for (int done = 0; done < NR;) {
                CHECK_MPI(MPI_Waitsome(NR, rq, &outcount, idxs, sts));
                CHECK(outcount >= 1, "Waitsome outcount %d", outcount);
                done += outcount > 0 ? outcount : NR;
            }
            break;
        case 4:
            for (int k = 0; k < NR; k++)
                for (flag = 0; !flag;)
                    CHECK_MPI(MPI_Test(&rq[k], &flag, MPI_STATUS_IGNORE));
            break;
        case 5:
            for (int done = 0; done < NR;) {
                CHECK_MPI(MPI_Testany(NR, rq, &idx, &flag, MPI_STATUS_IGNORE));
                if (flag) {
                    CHECK(idx >= 0 && idx < NR, "Testany index %d", idx);
                    done++;
                }
            }
            break;
        case 6:
            for (flag = 0; !flag;)
                CHECK_MPI(MPI_Testall(NR, rq, &flag, sts));
            break;
        }
        for (int k = 0; k < NR; k++)
            CHECK(rq[k] == MPI_REQUEST_NULL, "mode %d: request %d not MPI_REQUEST_NULL after completion", mode, k);
        /* Local completion: origin buffers reusable, results there. */
        for (int k = 0; k < NR; k++) {
            int bad = 0;
            if (k % 4 == 1 || k % 4 == 3)
                for (int i = 0; i < N; i++)
                    bad += res[k][i] != 1000 * t + k * N + i;
            for (int i = 0; i < N; i++)
                src[k][i] = -5;
            CHECK(bad == 0, "mode %d request %d: %d result ints wrong", mode, k, bad);
        }
        if (mode == 6) {
            CHECK_MPI(MPI_Win_unlock(t, win));
            CHECK_MPI(MPI_Win_lock_all(0, win));
        } else
            CHECK_MPI(MPI_Win_flush(t, win));
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Win_sync(win));
        int bad = 0;
        for (int k = 0; k < NR; k++)
            for (int i = 0; i < N; i++) {
                int w = 1000 * me + k * N + i, v = 100 * k + i + mode;
                int want = k % 4 == 0 ? v : k % 4 == 1 ? w : w + v;
                bad += base[k * N + i] != want;
            }
        CHECK(bad == 0, "mode %d: %d window ints wrong after %d's requests", mode, bad, s);
        CHECK_MPI(MPI_Win_unlock_all(win));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return check_status();
}
