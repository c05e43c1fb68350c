/* cma_read: how fast process_vm_readv moves data between processes here.
 * Usage: cma_read BYTES ITERS READERS SAME
 * READERS (1 or 2) processes, each bound to its own CPU, read BYTES from a
 * sleeping source process ITERS times (SAME=1: both from one source). Prints
 * the best of 5 loops per reader. */
#include "common.h" /* first: it asks for the GNU declarations */

#include <signal.h>
#include <sys/uio.h>

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: cma_read BYTES ITERS READERS SAME\n");
        return 2;
    }
    size_t n = strtoul(argv[1], 0, 0);
    int iters = atoi(argv[2]), readers = atoi(argv[3]), same = atoi(argv[4]);
    if (readers < 1 || readers > 2) return 2;
    uintptr_t *addr = shared(4096);
    pid_t src[2], rd[2];
    int nsrc = same ? 1 : readers;
    for (int i = 0; i < nsrc; i++) {
        int ready[2];
        if (pipe(ready)) return 1;
        pid_t c = fork();
        if (c == 0) {
            char *b = aligned_alloc(4096, n);
            memset(b, i + 1, n);
            addr[i] = (uintptr_t)b;
            if (write(ready[1], "x", 1) != 1) _exit(1);
            pause();
            _exit(0);
        }
        char x;
        if (read(ready[0], &x, 1) != 1) return 1;
        src[i] = c;
    }
    for (int i = 0; i < readers; i++) {
        pid_t c = fork();
        if (c == 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(i, &set);
            sched_setaffinity(0, sizeof set, &set);
            char *d = aligned_alloc(4096, n);
            memset(d, 0, n);
            int k = same ? 0 : i;
            double best = 1e9;
            for (int rep = 0; rep < 5; rep++) {
                double t0 = now();
                for (int j = 0; j < iters; j++) {
                    struct iovec l = {d, n}, r = {(void *)addr[k], n};
                    if (process_vm_readv(src[k], &l, 1, &r, 1, 0) != (ssize_t)n) {
                        perror("process_vm_readv");
                        _exit(1);
                    }
                }
                double t = now() - t0;
                if (t < best) best = t;
            }
            printf("cma_read %zu bytes, reader %d of %d%s: %.1f us per read, %.1f GB/s\n", n, i, readers,
                   same ? " (one source)" : "", best / iters * 1e6, n / (best / iters) / 1e9);
            fflush(stdout);
            _exit(0);
        }
        rd[i] = c;
    }
    for (int i = 0; i < readers; i++) waitpid(rd[i], 0, 0);
    for (int i = 0; i < nsrc; i++) kill(src[i], SIGKILL);
    return 0;
}
