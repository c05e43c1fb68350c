/* Self-checks for the C tests. A failed check prints one line starting with
 * "TEST-FAIL:" on stderr; the harness fails any run whose output contains that
 * marker, whatever the exit status, so a program expected to die cannot pass
 * by failing for the wrong reason. */
#ifndef GOMPI_TEST_CHECK_H
#define GOMPI_TEST_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures __attribute__((unused));
static int check_rank __attribute__((unused)) = -1;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            check_failures++;                                                   \
            fprintf(stderr, "TEST-FAIL: %s:%d: rank %d: ", __FILE__, __LINE__,  \
                    check_rank);                                                \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

/* CHECK_MPI checks that an MPI call returns MPI_SUCCESS. */
#define CHECK_MPI(call)                                                         \
    do {                                                                        \
        int check_rc_ = (call);                                                 \
        CHECK(check_rc_ == MPI_SUCCESS, "%s returned %d", #call, check_rc_);    \
    } while (0)

/* err_class is the error class of an MPI return code (-1 when MPI cannot say). */
static inline int err_class(int rc) {
    int c = -1;
    if (MPI_Error_class(rc, &c) != MPI_SUCCESS)
        return -1;
    return c;
}

/* EXPECT_CLASS checks that a call fails with error class cls (the test must
 * have set MPI_ERRORS_RETURN). */
#define EXPECT_CLASS(call, cls)                                                                    \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        CHECK(rc_ != MPI_SUCCESS && err_class(rc_) == (cls), "%s returned %d (class %d), want %d", \
              #call, rc_, err_class(rc_), cls);                                                    \
    } while (0)

/* check_status is main's return value: 0 only if every check passed. */
#define check_status() (check_failures ? 1 : 0)

#endif
