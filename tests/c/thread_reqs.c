//go:build ignore

/* gompi-test: np=1,2,4 timeout=240 */
/* MPI_THREAD_MULTIPLE, requests crossing threads:
 * - one thread starts Irecv/Isend pairs around the ring and hands the
 *   requests to two other threads, which wait for them (a request completed
 *   by a thread other than the one that started it), data checked;
 * - while one thread waits for a receive, another's MPI_Test and MPI_Wait
 *   of the same request are MPI_ERR_REQUEST (not a second completion);
 *   then the message comes and the waiter gets it;
 * - a receive that never matches, waited for by one thread, is cancelled
 *   by another: the wait returns and the status says cancelled. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "thread_common.h"

#define PAIRS 400
#define N 64

/* A queue of started requests (one slot per pair). */
static MPI_Request q[PAIRS][2];
static int32_t qbuf[PAIRS][N];
static int qhead, qtail;
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;
static int32_t sbuf[PAIRS][N];

static void starter(void) {
    int right = (thr_rank + 1) % thr_size, left = (thr_rank + thr_size - 1) % thr_size;
    for (int k = 0; k < PAIRS; k++) {
        thr_fill(sbuf[k], N, thr_rank, 0, k);
        TCHECK_MPI(MPI_Irecv(qbuf[k], N, MPI_INT32_T, left, k, MPI_COMM_WORLD, &q[k][0]));
        TCHECK_MPI(MPI_Isend(sbuf[k], N, MPI_INT32_T, right, k, MPI_COMM_WORLD, &q[k][1]));
        pthread_mutex_lock(&qlock);
        qtail = k + 1;
        pthread_cond_broadcast(&qcond);
        pthread_mutex_unlock(&qlock);
    }
}

static void waiter(void) {
    int left = (thr_rank + thr_size - 1) % thr_size;
    for (;;) {
        pthread_mutex_lock(&qlock);
        while (qhead == qtail && qhead < PAIRS) pthread_cond_wait(&qcond, &qlock);
        if (qhead == PAIRS) {
            pthread_mutex_unlock(&qlock);
            return;
        }
        int k = qhead++;
        pthread_mutex_unlock(&qlock);
        MPI_Status st[2];
        TCHECK_MPI(MPI_Waitall(2, q[k], st));
        TCHECK(q[k][0] == MPI_REQUEST_NULL && q[k][1] == MPI_REQUEST_NULL, "pair %d not freed", k);
        TCHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == k, "pair %d: status %d/%d", k,
               st[0].MPI_SOURCE, st[0].MPI_TAG);
        thr_verify(qbuf[k], N, left, 0, k, "handed-over receive");
    }
}

static void handover(int i) {
    if (i == 0)
        starter();
    else
        waiter();
}

/* The request one thread waits for and another tries to wait for too. */
static MPI_Request shared;
static int waiting, waited; /* atomics: set by one thread, read by the other */
static int32_t sval;
static MPI_Status sst;

static void dual(int i) {
    if (i == 0) {
        __atomic_store_n(&waiting, 1, __ATOMIC_RELEASE);
        TCHECK_MPI(MPI_Wait(&shared, &sst));
        __atomic_store_n(&waited, 1, __ATOMIC_RELEASE);
        return;
    }
    while (!__atomic_load_n(&waiting, __ATOMIC_ACQUIRE)) usleep(1000);
    MPI_Request copy = shared;
    int got = 0;
    for (int k = 0; k < 2000 && !got; k++) { /* until the waiter is inside MPI_Wait */
        int flag = 0, rc = MPI_Test(&copy, &flag, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) {
            TCHECK(err_class(rc) == MPI_ERR_REQUEST, "MPI_Test of a waited request: class %d",
                   err_class(rc));
            got = 1;
        } else {
            TCHECK(!flag, "MPI_Test completed a request another thread waits for");
            usleep(5000);
        }
    }
    TCHECK(got, "MPI_Test never saw the request waited for by another thread");
    int rc = MPI_Wait(&copy, MPI_STATUS_IGNORE);
    TCHECK(rc != MPI_SUCCESS && err_class(rc) == MPI_ERR_REQUEST,
           "second MPI_Wait of a waited request: rc %d class %d", rc, err_class(rc));
    TCHECK(!__atomic_load_n(&waited, __ATOMIC_ACQUIRE), "the waiter finished before the message was sent");
    int32_t v = 4242 + thr_rank;
    TCHECK_MPI(MPI_Send(&v, 1, MPI_INT32_T, thr_rank, 77, MPI_COMM_WORLD));
}

static void canceller(int i) {
    if (i == 0) {
        __atomic_store_n(&waiting, 1, __ATOMIC_RELEASE);
        TCHECK_MPI(MPI_Wait(&shared, &sst));
        int c = 0;
        MPI_Test_cancelled(&sst, &c);
        TCHECK(c, "the receive cancelled by another thread is not marked cancelled");
        return;
    }
    while (!__atomic_load_n(&waiting, __ATOMIC_ACQUIRE)) usleep(1000);
    usleep(20000);
    MPI_Request copy = shared;
    TCHECK_MPI(MPI_Cancel(&copy));
}

int main(int argc, char **argv) {
    thr_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int rep = 0; rep < 3; rep++) {
        qhead = qtail = 0;
        thr_run(3, handover);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

        waiting = waited = 0;
        sval = -1;
        CHECK_MPI(MPI_Irecv(&sval, 1, MPI_INT32_T, thr_rank, 77, MPI_COMM_WORLD, &shared));
        thr_run(2, dual);
        CHECK(waited && sval == 4242 + thr_rank && sst.MPI_TAG == 77, "dual wait: got %d tag %d",
              sval, sst.MPI_TAG);

        waiting = 0;
        CHECK_MPI(MPI_Irecv(&sval, 1, MPI_INT32_T, MPI_ANY_SOURCE, 78, MPI_COMM_WORLD, &shared));
        thr_run(2, canceller);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Finalize());
    return check_status();
}
