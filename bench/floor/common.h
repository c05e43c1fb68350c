/* Shared helpers of the floor programs: plain C, no MPI, so what they
 * measure is the machine (cross-core copies, yielding the core), not a
 * library. */
#ifndef FLOOR_COMMON_H
#define FLOOR_COMMON_H
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* shared returns n zeroed bytes shared with the children forked later. */
static inline void *shared(size_t n)
{
    void *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    return p;
}

/* spawn forks p-1 children; it returns the caller's index (0 for the parent). */
static inline int spawn(int p)
{
    for (int i = 1; i < p; i++)
        if (fork() == 0) return i;
    return 0;
}

static inline void reap(int p)
{
    for (int i = 1; i < p; i++) wait(0);
}

/* Counters on their own cache lines: cnt[r*8] is how many steps process r
 * has reached. */
static inline void arrive(volatile uint64_t *cnt, int me, uint64_t s)
{
    __atomic_store_n(&cnt[me * 8], s, __ATOMIC_RELEASE);
}

static inline void wait_for(volatile uint64_t *cnt, int r, uint64_t s)
{
    while (__atomic_load_n(&cnt[r * 8], __ATOMIC_ACQUIRE) < s) sched_yield();
}
#endif
