/* yield_barrier: P unbound processes meet at a barrier of flags in shared
 * memory, each spinning POLLS times before every sched_yield.
 * Usage: yield_barrier P ITERS POLLS; prints the best of 5 loops. */
#include "common.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: yield_barrier P ITERS POLLS\n");
        return 2;
    }
    int p = atoi(argv[1]), iters = atoi(argv[2]), polls = atoi(argv[3]);
    if (p < 2 || p > 64) return 2;
    volatile uint64_t *cnt = shared(64 * 64);
    int me = spawn(p);
    uint64_t s = 0;
    double best = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (int i = 0; i < iters; i++) {
            arrive(cnt, me, ++s);
            for (int r = 0; r < p; r++)
                for (int spins = 0; __atomic_load_n(&cnt[r * 8], __ATOMIC_ACQUIRE) < s; spins++)
                    if (spins >= polls)
                        sched_yield();
                    else
                        __builtin_ia32_pause();
        }
        double t = now() - t0;
        if (t < best) best = t;
    }
    if (me == 0) {
        printf("yield_barrier %d processes, %d polls: %.2f us per barrier\n", p, polls, best / iters * 1e6);
        reap(p);
    }
    return 0;
}
