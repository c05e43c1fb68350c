/* shm_bcast: a broadcast from process 0 to P-1 others through one shared
 * buffer, copied in and out in pieces as they are ready (pipelined), all
 * processes unbound, waits yielding the core.
 * Usage: shm_bcast P BYTES PIECE ITERS; prints the best of 5 loops. */
#include "common.h"

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: shm_bcast P BYTES PIECE ITERS\n");
        return 2;
    }
    int p = atoi(argv[1]), iters = atoi(argv[4]);
    size_t n = strtoul(argv[2], 0, 0), piece = strtoul(argv[3], 0, 0);
    if (p < 2 || p > 64 || piece == 0 || n % piece) return 2;
    volatile uint64_t *cnt = shared(64 * 64), *ready = shared(64);
    char *area = shared(2 * n); /* two buffers: the root may run one call ahead */
    int me = spawn(p);
    char *buf = aligned_alloc(4096, n);
    memset(buf, me + 1, n);
    uint64_t s = 0, pieces = 0, np = n / piece;
    double best = 1e9;
    for (int rep = 0; rep < 6; rep++) {
        arrive(cnt, me, ++s);
        for (int r = 0; r < p; r++) wait_for(cnt, r, s);
        double t0 = now();
        for (int i = 0; i < iters; i++) {
            char *slot = area + (i & 1) * n;
            if (me == 0) {
                for (int r = 1; r < p; r++) wait_for(cnt, r, s); /* call i-2's buffer is free */
                for (uint64_t k = 0; k < np; k++) {
                    memcpy(slot + k * piece, buf + k * piece, piece);
                    __atomic_store_n(ready, pieces + k + 1, __ATOMIC_RELEASE);
                }
            } else {
                for (uint64_t k = 0; k < np; k++) {
                    while (__atomic_load_n(ready, __ATOMIC_ACQUIRE) < pieces + k + 1) sched_yield();
                    memcpy(buf + k * piece, slot + k * piece, piece);
                }
            }
            pieces += np;
            arrive(cnt, me, ++s);
        }
        arrive(cnt, me, ++s);
        for (int r = 0; r < p; r++) wait_for(cnt, r, s);
        double t = now() - t0;
        if (rep > 0 && t < best) best = t; /* the first loop warms up */
    }
    if (me == 0) {
        printf("shm_bcast %d processes, %zu bytes in pieces of %zu: %.1f us per call\n", p, n, piece,
               best / iters * 1e6);
        reap(p);
    }
    return 0;
}
