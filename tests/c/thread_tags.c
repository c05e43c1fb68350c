//go:build ignore

/* gompi-test: np=1,2,4 timeout=240 */
/* MPI_THREAD_MULTIPLE, point-to-point on one communicator: T threads per
 * rank (2, 4 and 8) exchange around the ring on MPI_COMM_WORLD, thread t
 * with tag t, so only the tags keep the threads' messages apart. Each round
 * mixes blocking Sendrecv, Isend/Irecv with Waitall and Send/Recv of small
 * (eager) and large (rendezvous) messages; every element is checked. */
#include <stdlib.h>
#include <string.h>

#include "thread_common.h"

#define ROUNDS 60
#define BIG (64 * 1024) /* int32 elements: 256 KiB, past the eager limit */

static int sizes[] = {1, 17, 1000, BIG};

static void worker(int t) {
    int right = (thr_rank + 1) % thr_size, left = (thr_rank + thr_size - 1) % thr_size;
    int32_t *sb = malloc(BIG * 4), *rb = malloc(BIG * 4);
    for (int r = 0; r < ROUNDS; r++) {
        int n = sizes[(r + t) % 4];
        thr_fill(sb, n, thr_rank, t, r);
        memset(rb, 0xff, (size_t)n * 4);
        MPI_Status st;
        switch (r % 3) {
        case 0:
            TCHECK_MPI(MPI_Sendrecv(sb, n, MPI_INT32_T, right, t, rb, n, MPI_INT32_T, left, t,
                                    MPI_COMM_WORLD, &st));
            TCHECK(st.MPI_SOURCE == left && st.MPI_TAG == t, "Sendrecv status %d/%d", st.MPI_SOURCE,
                   st.MPI_TAG);
            break;
        case 1: {
            MPI_Request rq[2];
            MPI_Status sts[2];
            TCHECK_MPI(MPI_Irecv(rb, n, MPI_INT32_T, left, t, MPI_COMM_WORLD, &rq[0]));
            TCHECK_MPI(MPI_Isend(sb, n, MPI_INT32_T, right, t, MPI_COMM_WORLD, &rq[1]));
            TCHECK_MPI(MPI_Waitall(2, rq, sts));
            int cnt = -1;
            MPI_Get_count(&sts[0], MPI_INT32_T, &cnt);
            TCHECK(cnt == n && sts[0].MPI_TAG == t, "Irecv count %d tag %d, want %d %d", cnt,
                   sts[0].MPI_TAG, n, t);
            break;
        }
        default:
            /* even ranks send first, odd receive first; with one rank or an
             * odd ring the sends are buffered by Isend */
            if (thr_size % 2 == 0 && thr_rank % 2 == 1) {
                TCHECK_MPI(MPI_Recv(rb, n, MPI_INT32_T, left, t, MPI_COMM_WORLD, &st));
                TCHECK_MPI(MPI_Send(sb, n, MPI_INT32_T, right, t, MPI_COMM_WORLD));
            } else if (thr_size % 2 == 0) {
                TCHECK_MPI(MPI_Send(sb, n, MPI_INT32_T, right, t, MPI_COMM_WORLD));
                TCHECK_MPI(MPI_Recv(rb, n, MPI_INT32_T, left, t, MPI_COMM_WORLD, &st));
            } else {
                MPI_Request rq;
                TCHECK_MPI(MPI_Isend(sb, n, MPI_INT32_T, right, t, MPI_COMM_WORLD, &rq));
                TCHECK_MPI(MPI_Recv(rb, n, MPI_INT32_T, left, t, MPI_COMM_WORLD, &st));
                TCHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
            }
        }
        thr_verify(rb, n, left, t, r, "thread_tags");
    }
    free(sb);
    free(rb);
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    int counts[] = {2, 4, 8};
    for (int k = 0; k < 3; k++) {
        thr_run(counts[k], worker);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
