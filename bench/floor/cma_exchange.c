/* cma_exchange: P unbound processes run an allgather or alltoall with no
 * library: every process publishes its buffers once; per call everyone
 * arrives (buffers ready), each moves its blocks with one single-copy system
 * call per peer, copies its own block, and everyone arrives again (all data
 * in place). MODE 0: allgather pushing with process_vm_writev, 1: alltoall
 * pushing, 2: alltoall pulling with process_vm_readv.
 * Usage: cma_exchange P BYTES ITERS MODE; prints the best of 5 loops. */
#include "common.h" /* first: it asks for the GNU declarations */

#include <sys/uio.h>

static volatile uint64_t *cnt;
static int p, me;

static void step(uint64_t s)
{
    arrive(cnt, me, s);
    for (int r = 0; r < p; r++) wait_for(cnt, r, s);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: cma_exchange P BYTES ITERS MODE\n");
        return 2;
    }
    p = atoi(argv[1]);
    size_t n = strtoul(argv[2], 0, 0);
    int iters = atoi(argv[3]), mode = atoi(argv[4]);
    if (p < 2 || p > 64 || mode < 0 || mode > 2) return 2;
    cnt = shared(64 * 64);
    volatile uintptr_t *raddr = shared(64 * 64), *saddr = shared(64 * 64);
    volatile pid_t *pid = shared(64 * 64);
    me = spawn(p);
    char *sb = aligned_alloc(4096, n * p), *rb = aligned_alloc(4096, n * p);
    memset(sb, me + 1, n * p);
    memset(rb, 0, n * p);
    raddr[me * 8] = (uintptr_t)rb;
    saddr[me * 8] = (uintptr_t)sb;
    pid[me * 8] = getpid();
    uint64_t s = 0;
    step(++s);
    double best = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        step(++s);
        double t0 = now();
        for (int i = 0; i < iters; i++) {
            step(++s);
            for (int k = 1; k < p; k++) {
                int r = (me + k) % p;
                struct iovec l, rem;
                ssize_t got;
                if (mode == 2) {
                    l = (struct iovec){rb + r * n, n};
                    rem = (struct iovec){(void *)(saddr[r * 8] + me * n), n};
                    got = process_vm_readv(pid[r * 8], &l, 1, &rem, 1, 0);
                } else {
                    l = (struct iovec){mode == 0 ? sb : sb + r * n, n};
                    rem = (struct iovec){(void *)(raddr[r * 8] + me * n), n};
                    got = process_vm_writev(pid[r * 8], &l, 1, &rem, 1, 0);
                }
                if (got != (ssize_t)n) {
                    perror("process_vm_readv/writev");
                    return 1;
                }
            }
            memcpy(rb + me * n, mode == 0 ? sb : sb + me * n, n);
            step(++s);
        }
        double t = now() - t0;
        if (t < best) best = t;
    }
    if (me == 0) {
        const char *what[] = {"allgather, pushed", "alltoall, pushed", "alltoall, pulled"};
        printf("cma_exchange %d processes, %s, %zu-byte blocks: %.1f us per call\n", p, what[mode], n,
               best / iters * 1e6);
        reap(p);
    }
    return 0;
}
