/* A started MPI_T counter, read before and after: the test programs that
 * check how many operations took a path (a C fast path, a transport). */
#ifndef GOMPI_TEST_COUNTER_H
#define GOMPI_TEST_COUNTER_H

#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct {
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
} counter;

/* counter_start opens a session with the counter pvar name started. */
static inline counter counter_start(const char *name) {
    counter c;
    int idx = -1, count;
    CHECK_MPI(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &idx));
    CHECK_MPI(MPI_T_pvar_session_create(&c.s));
    CHECK_MPI(MPI_T_pvar_handle_alloc(c.s, idx, NULL, &c.h, &count));
    CHECK_MPI(MPI_T_pvar_start(c.s, c.h));
    return c;
}

static inline unsigned long long counter_read(counter c) {
    unsigned long long v = 0;
    CHECK_MPI(MPI_T_pvar_read(c.s, c.h, &v));
    return v;
}

static inline void counter_free(counter *c) {
    CHECK_MPI(MPI_T_pvar_handle_free(c->s, &c->h));
    CHECK_MPI(MPI_T_pvar_session_free(&c->s));
}

/* counter_init starts MPI and the tool interface (single-threaded) and
 * sets *rank, *size and check.h's rank. */
static inline void counter_init(int *argc, char ***argv, int *rank, int *size) {
    int provided;
    CHECK_MPI(MPI_Init(argc, argv));
    CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    check_rank = *rank;
}

/* counter_finalize ends both and is main's return value. */
static inline int counter_finalize(void) {
    CHECK_MPI(MPI_T_finalize());
    MPI_Finalize();
    return check_status();
}

/* env_off: the run sets variable name to 0 (TestCModes turns the C fast
 * paths off that way). */
static inline int env_off(const char *name) {
    const char *v = getenv(name);
    return v && strcmp(v, "0") == 0;
}

#endif
