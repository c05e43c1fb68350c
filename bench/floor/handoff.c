/* What a synchronizing collective pays per call when two processes share
 * a core: a system call, a sched_yield with nobody else to run, and a
 * handoff between two processes pinned to one CPU (each yields until the
 * other has taken its turn), in microseconds. A 4-rank barrier on 2 cores
 * needs at least one handoff per core per call: each process must run
 * once per call.
 * Argument: iterations (default 200000). */
#include "common.h"
#include <sys/syscall.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    double t0 = now();
    for (long i = 0; i < n; i++) syscall(SYS_getppid);
    printf("handoff: system call %.3f us\n", (now() - t0) / n * 1e6);
    t0 = now();
    for (long i = 0; i < n; i++) sched_yield();
    printf("handoff: sched_yield alone %.3f us\n", (now() - t0) / n * 1e6);
    fflush(stdout);

    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(0, &s);
    sched_setaffinity(0, sizeof s, &s);
    volatile uint64_t *turn = shared(64);
    int me = spawn(2);
    t0 = now();
    for (uint64_t i = 0; i < (uint64_t)n; i++) {
        uint64_t mine = 2 * i + (uint64_t)me;
        while (__atomic_load_n(turn, __ATOMIC_ACQUIRE) != mine) sched_yield();
        __atomic_store_n(turn, mine + 1, __ATOMIC_RELEASE);
    }
    if (me == 0) {
        printf("handoff: between two processes on one CPU %.3f us\n", (now() - t0) / (2.0 * n) * 1e6);
        reap(2);
    }
    return 0;
}
