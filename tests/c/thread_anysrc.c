//go:build ignore

/* gompi-test: np=1,2,4 timeout=240 */
/* MPI_THREAD_MULTIPLE, wildcard receivers: on every rank R receiver threads
 * take messages with MPI_ANY_SOURCE/MPI_ANY_TAG through MPI_Mprobe (even
 * threads) or MPI_Improbe polling (odd threads), size the buffer from the
 * message's status, and MPI_Mrecv / MPI_Imrecv it, while S sender threads
 * per rank send M messages each to every rank (sizes vary, some past the
 * eager limit). Matched probe is the thread-safe probe: each message must
 * arrive exactly once, intact, at one receiver. The receiver that takes a
 * rank's last message sends one message of tag STOP per receiver to its
 * own rank. */
#include <stdlib.h>
#include <string.h>

#include "thread_common.h"

#define R 3
#define S 2
#define M 40
#define STOP 9999

static unsigned char *seen; /* [src][sender thread][msg] */
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static int received;

static int msg_len(int src, int t, int m) {
    static const int lens[] = {0, 1, 5, 100, 4096, 40000};
    return lens[(src + t + m) % 6];
}

static void sender(int t) {
    int32_t *b = malloc(40000 * 4 + 12);
    for (int m = 0; m < M; m++) {
        for (int d = 0; d < thr_size; d++) {
            int n = msg_len(thr_rank, t, m);
            b[0] = thr_rank;
            b[1] = t;
            b[2] = m;
            thr_fill(b + 3, n, thr_rank, t, m);
            TCHECK_MPI(MPI_Send(b, n + 3, MPI_INT32_T, d, m % 7, MPI_COMM_WORLD));
        }
    }
    free(b);
}

static void receiver(int i) {
    for (;;) {
        MPI_Message msg;
        MPI_Status st;
        if (i % 2 == 0) {
            TCHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st));
        } else {
            int flag = 0;
            while (!flag)
                TCHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
        }
        int cnt = -1;
        MPI_Get_count(&st, MPI_INT32_T, &cnt);
        int32_t *b = malloc((size_t)(cnt > 0 ? cnt : 1) * 4);
        MPI_Status rs;
        if (i % 3 == 0) {
            MPI_Request rq;
            TCHECK_MPI(MPI_Imrecv(b, cnt, MPI_INT32_T, &msg, &rq));
            TCHECK_MPI(MPI_Wait(&rq, &rs));
        } else {
            TCHECK_MPI(MPI_Mrecv(b, cnt, MPI_INT32_T, &msg, &rs));
        }
        TCHECK(rs.MPI_SOURCE == st.MPI_SOURCE && rs.MPI_TAG == st.MPI_TAG,
               "Mrecv status %d/%d, probe said %d/%d", rs.MPI_SOURCE, rs.MPI_TAG, st.MPI_SOURCE,
               st.MPI_TAG);
        if (st.MPI_TAG == STOP) {
            free(b);
            return;
        }
        int src = b[0], t = b[1], m = b[2];
        if (cnt < 3 || src != st.MPI_SOURCE || t < 0 || t >= S || m < 0 || m >= M ||
            st.MPI_TAG != m % 7 || cnt != msg_len(src, t, m) + 3) {
            TCHECK(0, "receiver %d: bad message: count %d source %d/%d tag %d", i, cnt, src,
                   st.MPI_SOURCE, st.MPI_TAG);
        } else {
            thr_verify(b + 3, cnt - 3, src, t, m, "anysrc");
            pthread_mutex_lock(&seen_lock);
            unsigned char *p = &seen[(src * S + t) * M + m];
            TCHECK(*p == 0, "message %d of rank %d thread %d arrived twice", m, src, t);
            *p = 1;
            int last = ++received == thr_size * S * M;
            pthread_mutex_unlock(&seen_lock);
            if (last) /* everything for this rank is in: stop the receivers */
                for (int k = 0; k < R; k++)
                    TCHECK_MPI(MPI_Send(NULL, 0, MPI_INT32_T, thr_rank, STOP, MPI_COMM_WORLD));
        }
        free(b);
    }
}

static void worker(int i) {
    if (i < R)
        receiver(i);
    else
        sender(i - R);
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    for (int round = 0; round < 3; round++) {
        seen = calloc((size_t)thr_size * S * M, 1);
        received = 0;
        thr_run(R + S, worker);
        for (int k = 0; k < thr_size * S * M; k++)
            CHECK(seen[k], "message %d of rank %d thread %d never arrived", k % M, k / (S * M),
                  k / M % S);
        free(seen);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* rounds apart: STOPs are per round */
    }
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
