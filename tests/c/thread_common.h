/* Helpers of the MPI_THREAD_MULTIPLE tests (thread_*.c): start MPI at
 * MULTIPLE (and insist on getting it), run a function in T threads, fill
 * and check buffers whose every element names who sent it. */
#ifndef GOMPI_TEST_THREAD_COMMON_H
#define GOMPI_TEST_THREAD_COMMON_H

#include <mpi.h>
#include <pthread.h>
#include <stdint.h>

#include "check.h"

/* Checks run in several threads: the failure counter is shared. */
static pthread_mutex_t thr_check_lock = PTHREAD_MUTEX_INITIALIZER;
#define TCHECK(cond, ...)                           \
    do {                                            \
        if (!(cond)) {                              \
            pthread_mutex_lock(&thr_check_lock);    \
            CHECK(cond, __VA_ARGS__);               \
            pthread_mutex_unlock(&thr_check_lock);  \
        }                                           \
    } while (0)
#define TCHECK_MPI(call)                                                     \
    do {                                                                     \
        int trc_ = (call);                                                   \
        TCHECK(trc_ == MPI_SUCCESS, "%s returned %d", #call, trc_);          \
    } while (0)

static int thr_rank, thr_size;

static inline void thr_init(int *argc, char ***argv) {
    int provided = -1;
    CHECK_MPI(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, &thr_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &thr_size);
    check_rank = thr_rank;
    if (provided != MPI_THREAD_MULTIPLE) {
        CHECK(0, "MPI_Init_thread provided %d, not MPI_THREAD_MULTIPLE", provided);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* thr_run runs fn(i) in n threads (i = 0..n-1) and waits for them. */
typedef void (*thr_fn)(int);
struct thr_arg { thr_fn fn; int i; };
static void *thr_trampoline(void *p) {
    struct thr_arg *a = p;
    a->fn(a->i);
    return NULL;
}
static inline void thr_run(int n, thr_fn fn) {
    pthread_t th[64];
    struct thr_arg args[64];
    for (int i = 0; i < n; i++) {
        args[i].fn = fn;
        args[i].i = i;
        if (pthread_create(&th[i], NULL, thr_trampoline, &args[i]) != 0) {
            CHECK(0, "pthread_create failed");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
}

/* thr_val is element i of the message from rank src, thread t, round r. */
static inline int32_t thr_val(int src, int t, int r, int i) {
    return (int32_t)(((uint32_t)src * 1000003u) ^ ((uint32_t)t * 7919u) ^ ((uint32_t)r * 131u) ^ (uint32_t)i);
}
static inline void thr_fill(int32_t *b, int n, int src, int t, int r) {
    for (int i = 0; i < n; i++) b[i] = thr_val(src, t, r, i);
}
/* thr_verify checks every element; it reports the first wrong one only. */
static inline int thr_verify(const int32_t *b, int n, int src, int t, int r, const char *what) {
    for (int i = 0; i < n; i++) {
        if (b[i] != thr_val(src, t, r, i)) {
            TCHECK(0, "%s: from rank %d thread %d round %d: element %d is %d, want %d", what, src, t, r,
                   i, b[i], thr_val(src, t, r, i));
            return 0;
        }
    }
    return 1;
}

#endif
