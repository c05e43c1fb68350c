//go:build ignore

/* gompi-test: np=1,2 timeout=120 */
/* The shared heap (capi/heap.c) replaces malloc: large blocks come from a
 * memfd arena the other ranks map. Checks every allocation call at sizes on
 * both sides of the threshold: alignment, calloc's zeroes (also of reused
 * blocks), realloc keeping data both ways across the threshold, blocks never
 * overlapping in a random alloc/free soak from two threads, malloc_usable_size,
 * more free fragments than the arena tracks,
 * a forked child's writes staying its own, the heap staying off under a limit
 * on address space, and that large blocks really are in the arena (unless
 * GOMPI_SHARED_HEAP=0: heap_alloc_off). With 2 ranks, windows of messages
 * between heap blocks and static buffers, both ways, arrive intact, and each
 * rank has mapped the other's heap (the plain-copy path was taken). */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define BIG (64 << 10)

static uintptr_t arena_lo, arena_hi;

/* heap_files counts the distinct memfd heaps mapped here (ours, plus each
 * peer's once a copy went through it) and records the range of the first
 * one listed: ours, while no peer's is mapped yet. */
static int heap_files(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    unsigned long seen[16];
    int n = 0;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi, inode;
        if (!strstr(line, "gompi-heap") || sscanf(line, "%lx-%lx %*s %*s %*s %lu", &lo, &hi, &inode) != 3) continue;
        int known = 0;
        for (int i = 0; i < n; i++) known |= seen[i] == inode;
        if (!known && n < 16) seen[n++] = inode;
        if (inode == seen[0] && !arena_hi) { /* the arena is one mapping */
            arena_lo = lo;
            arena_hi = hi;
        }
    }
    if (f) fclose(f);
    return n;
}

static int in_arena(const void *p) { return (uintptr_t)p >= arena_lo && (uintptr_t)p < arena_hi; }

static void fill(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 31 + seed);
}

static int same(const unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(i * 31 + seed)) return 0;
    return 1;
}

static void check_calls(int heap_on) {
    size_t sizes[] = {1, 100, BIG - 1, BIG, BIG + 1, 3 * BIG + 5, 1 << 20, (8 << 20) + 3};
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        unsigned char *p = malloc(n);
        CHECK(p && (uintptr_t)p % 16 == 0, "malloc(%zu) = %p", n, (void *)p);
        CHECK(malloc_usable_size(p) >= n, "malloc_usable_size(%zu-byte block) = %zu", n, malloc_usable_size(p));
        CHECK(!heap_on || (n >= BIG) == in_arena(p), "malloc(%zu) at %p: arena %d, want %d", n, (void *)p,
              in_arena(p), n >= BIG);
        fill(p, n, 7);
        memset(p, 0xAB, n); /* dirty it so a reused block must be zeroed by calloc */
        free(p);
        unsigned char *z = calloc(1, n);
        int zero = 1;
        for (size_t i = 0; i < n; i++) zero &= z[i] == 0;
        CHECK(zero, "calloc(1, %zu) not zeroed", n);
        free(z);
        size_t aligns[] = {16, 4096, 1 << 16, 1 << 21, 1 << 22};
        for (unsigned a = 0; a < sizeof aligns / sizeof aligns[0]; a++) {
            void *q = NULL;
            CHECK(posix_memalign(&q, aligns[a], n) == 0 && (uintptr_t)q % aligns[a] == 0,
                  "posix_memalign(%zu, %zu) = %p", aligns[a], n, q);
            if (q) memset(q, 1, n);
            free(q);
            q = aligned_alloc(aligns[a], n);
            CHECK(q && (uintptr_t)q % aligns[a] == 0, "aligned_alloc(%zu, %zu) = %p", aligns[a], n, q);
            free(q);
            q = memalign(aligns[a], n);
            CHECK(q && (uintptr_t)q % aligns[a] == 0, "memalign(%zu, %zu) = %p", aligns[a], n, q);
            free(q);
        }
        void *v = valloc(n);
        CHECK(v && (uintptr_t)v % 4096 == 0, "valloc(%zu) = %p", n, v);
        free(v);
        void *q = NULL;
        CHECK(posix_memalign(&q, 24, n) == EINVAL, "posix_memalign with alignment 24 must fail");
    }
    /* realloc keeps the data growing into the arena, within it, and out of it. */
    unsigned char *r = malloc(1000);
    fill(r, 1000, 3);
    r = realloc(r, 5 * BIG);
    CHECK(r && same(r, 1000, 3), "realloc 1000 -> %d lost data", 5 * BIG);
    fill(r, 5 * BIG, 4);
    r = realloc(r, 40 * BIG);
    CHECK(r && same(r, 5 * BIG, 4), "realloc %d -> %d lost data", 5 * BIG, 40 * BIG);
    r = realloc(r, 100);
    CHECK(r && same(r, 100, 4), "realloc down to 100 lost data");
    free(r);
    void *big = reallocarray(NULL, 1 << 20, 1 << 20);
    CHECK(big == NULL, "reallocarray overflowing size_t must fail");
    free(NULL);
}

/* check_fragments frees every other one of many blocks, more free extents
 * than the arena remembers, and more freed bytes than it keeps resident, then
 * checks the survivors and that new blocks (calloc's zeroed) still work. */
static void check_fragments(void) {
    enum { N = 9000 };
    static unsigned char *blk[N];
    for (int i = 0; i < N; i++) {
        blk[i] = malloc(BIG + (size_t)(i % 3) * 4096);
        if (blk[i]) blk[i][0] = blk[i][BIG - 1] = (unsigned char)i;
    }
    for (int i = 0; i < N; i += 2) free(blk[i]);
    int bad = 0;
    for (int i = 1; i < N; i += 2)
        bad += !blk[i] || blk[i][0] != (unsigned char)i || blk[i][BIG - 1] != (unsigned char)i;
    CHECK(bad == 0, "%d blocks damaged after freeing their neighbours", bad);
    for (int i = 1; i < N; i += 2) free(blk[i]);
    for (int k = 0; k < 64; k++) {
        unsigned char *z = calloc(1, 2 * BIG);
        int zero = z != NULL;
        for (size_t j = 0; z && j < 2 * BIG; j += 512) zero &= z[j] == 0;
        CHECK(zero, "calloc after fragmentation not zeroed");
        if (z) memset(z, 0x5A, 2 * BIG);
        free(z);
    }
}

struct soak {
    unsigned seed;
    int failures;
};

/* soak allocates and frees blocks of random sizes, each filled with its own
 * pattern and checked before it is freed: blocks that overlapped would
 * overwrite each other's pattern. */
static void *soak(void *arg) {
    struct soak *s = arg;
    enum { SLOTS = 64 };
    unsigned char *blk[SLOTS] = {0};
    size_t len[SLOTS] = {0};
    unsigned x = s->seed;
    for (int it = 0; it < 4000; it++) {
        x = x * 1103515245u + 12345u;
        int i = (int)((x >> 8) % SLOTS);
        if (blk[i]) {
            if (!same(blk[i], len[i], (unsigned)i + s->seed)) s->failures++;
            free(blk[i]);
            blk[i] = NULL;
        } else {
            len[i] = (x >> 4) % 3 == 0 ? (x >> 10) % 4096 : BIG / 2 + (x >> 12) % (6 * BIG);
            if ((x >> 3) % 5 == 0) {
                void *p = NULL;
                posix_memalign(&p, (size_t)1 << (12 + (x >> 20) % 10), len[i]);
                blk[i] = p;
            } else {
                blk[i] = malloc(len[i]);
            }
            if (blk[i]) fill(blk[i], len[i], (unsigned)i + s->seed);
        }
    }
    for (int i = 0; i < SLOTS; i++) {
        if (blk[i] && !same(blk[i], len[i], (unsigned)i + s->seed)) s->failures++;
        free(blk[i]);
    }
    return NULL;
}

static void check_fork(void) {
    unsigned char *p = malloc(4 * BIG);
    memset(p, 1, 4 * BIG);
    pid_t pid = fork();
    if (pid == 0) {
        memset(p, 2, 4 * BIG); /* must not reach the parent's block */
        unsigned char *q = malloc(8 * BIG);
        if (q) memset(q, 3, 8 * BIG);
        free(q);
        free(p);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "forked child failed (status %d)", st);
    CHECK(p[0] == 1 && p[4 * BIG - 1] == 1, "a forked child's write reached the parent's heap block");
    free(p);
}

static unsigned char bss_src[5 << 20], bss_dst[5 << 20];

/* check_messages sends windows of 4 messages between every pair of buffer
 * kinds (heap block, static memory outside the heap), both ways: the
 * receiver reads heap senders with a plain copy and others with
 * process_vm_readv, and the sender may write part into a heap receiver. */
static void check_messages(int rank) {
    unsigned char *heap_src = malloc(5 << 20), *heap_dst = malloc(5 << 20);
    unsigned char *srcs[2] = {heap_src, bss_src}, *dsts[2] = {heap_dst, bss_dst};
    size_t sizes[] = {1000, 16 << 10, 40 << 10, (64 << 10) + 1, 200 << 10, (1 << 20) + 3};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                size_t n = sizes[k];
                for (int dir = 0; dir < 2; dir++) {
                    int sender = dir, seed = (int)(a * 100 + b * 10 + k + dir * 1000);
                    MPI_Request rq[4];
                    if (rank == sender) {
                        fill(srcs[a], n, (unsigned)seed);
                        for (int w = 0; w < 4; w++)
                            CHECK_MPI(MPI_Isend(srcs[a], (int)n, MPI_BYTE, 1 - rank, w, MPI_COMM_WORLD, &rq[w]));
                    } else {
                        memset(dsts[b], 0, 4 * n);
                        for (int w = 0; w < 4; w++)
                            CHECK_MPI(MPI_Irecv(dsts[b] + w * n, (int)n, MPI_BYTE, 1 - rank, w, MPI_COMM_WORLD, &rq[w]));
                    }
                    CHECK_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
                    if (rank != sender)
                        for (int w = 0; w < 4; w++)
                            CHECK(same(dsts[b] + w * n, n, (unsigned)seed), "%s -> %s, %zu bytes, message %d corrupt",
                                  a ? "static" : "heap", b ? "static" : "heap", n, w);
                    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
                }
            }
    free(heap_src);
    free(heap_dst);
}

/* check_rlimit runs this program again under a limit on address space,
 * where the heap must stay off (its reservation would eat into the limit). */
static void check_rlimit(void) {
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit lim = {(rlim_t)16 << 30, (rlim_t)16 << 30};
        setrlimit(RLIMIT_AS, &lim);
        char *args[] = {"heap_alloc", "rlimit-child", NULL};
        execv("/proc/self/exe", args);
        _exit(3);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "under RLIMIT_AS the shared heap must stay off (child status %d)",
          st);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "rlimit-child") == 0) {
        unsigned char *volatile p = malloc(1 << 20); /* volatile: a malloc/free pair may be elided */
        p[0] = 1;
        int on = heap_files() > 0;
        free(p);
        return on ? 1 : 0;
    }
    int rank, size;
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    check_rank = rank;
    const char *env = getenv("GOMPI_SHARED_HEAP");
    int heap_on = !(env && env[0] == '0');
    unsigned char *volatile probe = malloc(BIG);
    probe[0] = 1;
    CHECK((heap_files() > 0) == heap_on, "shared heap mapping %s in /proc/self/maps", heap_on ? "missing" : "present");
    free(probe);

    check_calls(heap_on);
    struct soak s[2] = {{11, 0}, {977, 0}};
    pthread_t t;
    pthread_create(&t, NULL, soak, &s[1]);
    soak(&s[0]);
    pthread_join(t, NULL);
    CHECK(s[0].failures == 0 && s[1].failures == 0, "soak: %d and %d blocks overwritten", s[0].failures,
          s[1].failures);
    check_fork();
    check_rlimit();
    check_fragments();
    if (size > 1) {
        check_messages(rank);
        /* Both ranks read from the other's heap (heap -> * messages), so each maps it. */
        CHECK(heap_files() == (heap_on ? 2 : 0), "%d shared heaps mapped, want %d", heap_files(), heap_on ? 2 : 0);
    }
    CHECK_MPI(MPI_Finalize());
    return check_failures != 0;
}
