/* Self-checks for the C tests. A failed check prints one line starting with
 * "TEST-FAIL:" on stderr; the harness fails any run whose output contains that
 * marker, whatever the exit status, so a program expected to die cannot pass
 * by failing for the wrong reason. */
#ifndef GOMPI_TEST_CHECK_H
#define GOMPI_TEST_CHECK_H

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

/* check_status is main's return value: 0 only if every check passed. */
#define check_status() (check_failures ? 1 : 0)

#endif
