/* Cache-line round trip between CPUs 0 and 1 (two threads handing a
 * counter back and forth), in nanoseconds: tells which phase a virtual
 * machine is in when its vCPUs share a cache at times and not at others
 * (58 against 320 ns on the 2-core EPYC guest of docs/performance.md).
 * Argument: round trips (default 300000). */
#include "common.h"
#include <pthread.h>
#include <stdatomic.h>

static _Alignas(64) atomic_long turn;
static long trips = 300000;

static void pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof s, &s);
}

static void *answer(void *arg)
{
    (void)arg;
    pin(1);
    for (long i = 0; i < trips; i++) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 1)
            ;
        atomic_store_explicit(&turn, 2 * i + 2, memory_order_release);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1) trips = atol(argv[1]);
    pthread_t t;
    pin(0);
    pthread_create(&t, NULL, answer, NULL);
    double t0 = now();
    for (long i = 0; i < trips; i++) {
        atomic_store_explicit(&turn, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 2)
            ;
    }
    double t1 = now();
    pthread_join(t, NULL);
    printf("%.0f\n", (t1 - t0) * 1e9 / trips);
    return 0;
}
