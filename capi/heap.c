/* Shared heap: large allocations (>= HEAP_MIN) come from one memfd-backed
 * arena that the other ranks on the node map, so a rendezvous message whose
 * buffer lives there moves with a plain memcpy from the peer's mapping
 * (45-55 GB/s here) instead of process_vm_readv (10-14 GB/s: the kernel pins
 * and copies page by page). Everything smaller, and everything when the arena
 * is off (GOMPI_SHARED_HEAP=0) or full, goes to glibc's allocator, which
 * supports being replaced this way. The arena never moves or shrinks its
 * mapping, so a peer's mapping stays valid; freed blocks keep their pages up
 * to a budget, then the pages are punched out of the file. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "heap.h"

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_pvalloc(size_t);

#define HEAP_MIN ((size_t)64 << 10)
#define GRANULE ((size_t)64 << 10)
#define MAX_FREE 4096
#define RESIDENT_BUDGET ((size_t)64 << 20) /* freed bytes kept mapped before punching */

struct extent {
    uint32_t start, len; /* in granules */
    uint32_t dirty;      /* pages may be resident (not punched since freed) */
};

static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
static int heap_state;      /* 0 not tried, 1 on, -1 off, 2 forked child */
static int heap_fd = -1;
char *gompi_heap_base;
size_t gompi_heap_size; /* capacity in bytes, 0 while off */
static uint32_t *heap_len;   /* granule -> length of the live block starting there */
static uint32_t heap_top;    /* granules ever handed out by bumping, minus freed tail */
static uint32_t heap_hwm;    /* highest granule ever handed out: above it the file is zero */
static struct extent heap_free_list[MAX_FREE];
static int heap_nfree;
static size_t heap_dirty_granules; /* estimate of freed granules still resident */

static void heap_undirty(size_t n) { heap_dirty_granules -= n < heap_dirty_granules ? n : heap_dirty_granules; }

static void heap_fork_prepare(void) { pthread_mutex_lock(&heap_lock); }
static void heap_fork_parent(void) { pthread_mutex_unlock(&heap_lock); }

/* A forked child must not share its heap with the parent: remap it private
 * (copy on write of the file's pages). The child normally execs at once. */
static void heap_fork_child(void)
{
    if (heap_state == 1 && heap_hwm > 0)
        mmap(gompi_heap_base, (size_t)heap_hwm * GRANULE, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_FIXED, heap_fd, 0);
    /* 2: old blocks are still ours to free; new large ones come from glibc */
    heap_state = heap_hwm > 0 ? 2 : -1;
    pthread_mutex_unlock(&heap_lock);
}

/* heap_open reserves the arena; called with heap_lock held. */
static void heap_open(void)
{
    const char *env = getenv("GOMPI_SHARED_HEAP");
    heap_state = -1;
    if (env && env[0] == '0')
        return;
    /* Under a limit on address space the reservation, and every peer's
     * mapping of it, would eat into what the program may map: stay off. */
    struct rlimit lim;
    if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
        return;
    int fd = memfd_create("gompi-heap", MFD_CLOEXEC);
    if (fd < 0)
        return;
    static const size_t sizes[] = {(size_t)64 << 30, (size_t)16 << 30, (size_t)4 << 30};
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t size = sizes[i], align = (size_t)2 << 20;
        if (ftruncate(fd, (off_t)size) != 0)
            continue;
        char *res = mmap(NULL, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (res == MAP_FAILED)
            continue;
        char *base = (char *)(((uintptr_t)res + align - 1) & ~(uintptr_t)(align - 1));
        uint32_t *len = mmap(NULL, size / GRANULE * sizeof(uint32_t), PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (len == MAP_FAILED ||
            mmap(base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
            munmap(res, size + align);
            if (len != MAP_FAILED)
                munmap(len, size / GRANULE * sizeof(uint32_t));
            continue;
        }
        if (base > res)
            munmap(res, (size_t)(base - res));
        munmap(base + size, (size_t)(res + align - base));
        heap_fd = fd;
        gompi_heap_base = base;
        gompi_heap_size = size;
        heap_len = len;
        heap_state = 1;
        return;
    }
    close(fd);
}

static int heap_ready(void)
{
    if (__builtin_expect(heap_state != 0, 1))
        return heap_state == 1;
    pthread_mutex_lock(&heap_lock);
    int opened = 0;
    if (heap_state == 0) {
        heap_open();
        opened = heap_state == 1;
    }
    int on = heap_state == 1;
    pthread_mutex_unlock(&heap_lock);
    if (opened)
        pthread_atfork(heap_fork_prepare, heap_fork_parent, heap_fork_child);
    return on;
}

static void heap_punch(uint32_t start, uint32_t len)
{
    fallocate(heap_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)start * GRANULE,
              (off_t)len * GRANULE);
}

static void heap_remove_extent(int i)
{
    memmove(&heap_free_list[i], &heap_free_list[i + 1], (size_t)(heap_nfree - i - 1) * sizeof heap_free_list[0]);
    heap_nfree--;
}

/* heap_take carves [at, at+n) out of free extent i. */
static void heap_take(int i, uint32_t at, uint32_t n)
{
    struct extent e = heap_free_list[i];
    uint32_t head = at - e.start, tail = e.start + e.len - (at + n);
    if (e.dirty)
        heap_undirty(n);
    if (head && tail && heap_nfree < MAX_FREE) {
        memmove(&heap_free_list[i + 1], &heap_free_list[i], (size_t)(heap_nfree - i) * sizeof heap_free_list[0]);
        heap_nfree++;
        heap_free_list[i].len = head;
        heap_free_list[i + 1] = (struct extent){at + n, tail, e.dirty};
    } else if (head) {
        heap_free_list[i].len = head; /* a tail that finds no room is lost (address space only) */
        if (tail && e.dirty)
            heap_undirty(tail);
    } else if (tail) {
        heap_free_list[i] = (struct extent){at + n, tail, e.dirty};
    } else {
        heap_remove_extent(i);
    }
}

/* heap_alloc returns a block of size bytes aligned to align (a power of two),
 * or NULL when the block is below HEAP_MIN or the arena is off or full;
 * *fresh tells that its pages are zero. */
static void *heap_alloc(size_t size, size_t align, int *fresh)
{
    if (size < HEAP_MIN || !heap_ready() || size > gompi_heap_size)
        return NULL;
    uint32_t n = (uint32_t)((size + GRANULE - 1) / GRANULE);
    uint32_t step = align > GRANULE ? (uint32_t)(align / GRANULE) : 1;
    uint32_t base_g = (uint32_t)((uintptr_t)gompi_heap_base / GRANULE); /* base is 2 MiB aligned */
    void *p = NULL;
    pthread_mutex_lock(&heap_lock);
    for (int i = 0; i < heap_nfree; i++) {
        struct extent e = heap_free_list[i];
        uint32_t at = e.start + ((step - (base_g + e.start) % step) % step);
        if ((uint64_t)at + n <= (uint64_t)e.start + e.len) {
            heap_take(i, at, n);
            heap_len[at] = n;
            *fresh = 0;
            p = gompi_heap_base + (size_t)at * GRANULE;
            break;
        }
    }
    if (!p) {
        uint32_t at = heap_top + ((step - (base_g + heap_top) % step) % step);
        if ((uint64_t)at + n <= gompi_heap_size / GRANULE) {
            if (at > heap_top && heap_nfree < MAX_FREE) /* the gap alignment skipped stays usable */
                heap_free_list[heap_nfree++] = (struct extent){heap_top, at - heap_top, heap_top < heap_hwm};
            heap_len[at] = n;
            *fresh = at >= heap_hwm;
            if (at < heap_hwm)
                heap_undirty(heap_hwm - at < n ? heap_hwm - at : n);
            heap_top = at + n;
            if (heap_top > heap_hwm)
                heap_hwm = heap_top;
            p = gompi_heap_base + (size_t)at * GRANULE;
        }
    }
    pthread_mutex_unlock(&heap_lock);
    return p;
}

static void heap_release(void *p)
{
    uint32_t g = (uint32_t)(((uintptr_t)p - (uintptr_t)gompi_heap_base) / GRANULE);
    pthread_mutex_lock(&heap_lock);
    uint32_t n = heap_len[g];
    if (n == 0 || (uintptr_t)p % GRANULE) { /* not a live block: ignore, as glibc would abort */
        pthread_mutex_unlock(&heap_lock);
        return;
    }
    heap_len[g] = 0;
    if (heap_state != 1) { /* forked child: the mapping is private, leave it */
        pthread_mutex_unlock(&heap_lock);
        return;
    }
    int i = 0;
    while (i < heap_nfree && heap_free_list[i].start < g)
        i++;
    struct extent e = {g, n, 1};
    heap_dirty_granules += n;
    if (i > 0 && heap_free_list[i - 1].start + heap_free_list[i - 1].len == g) {
        i--;
        e.start = heap_free_list[i].start;
        e.len += heap_free_list[i].len;
        heap_remove_extent(i);
    }
    if (i < heap_nfree && e.start + e.len == heap_free_list[i].start) {
        e.len += heap_free_list[i].len;
        heap_remove_extent(i);
    }
    if (e.start + e.len == heap_top) {
        heap_top = e.start; /* give the tail back to the bump pointer */
    } else if (heap_nfree < MAX_FREE) {
        memmove(&heap_free_list[i + 1], &heap_free_list[i], (size_t)(heap_nfree - i) * sizeof heap_free_list[0]);
        heap_free_list[i] = e;
        heap_nfree++;
    } else {
        heap_punch(e.start, e.len); /* no room to remember it: release the memory at least */
        heap_undirty(n);
    }
    if (heap_dirty_granules * GRANULE > RESIDENT_BUDGET) {
        for (int k = 0; k < heap_nfree; k++)
            if (heap_free_list[k].dirty) {
                heap_punch(heap_free_list[k].start, heap_free_list[k].len);
                heap_free_list[k].dirty = 0;
            }
        if (heap_top < heap_hwm)
            heap_punch(heap_top, heap_hwm - heap_top);
        heap_hwm = heap_top; /* everything above top is zero again */
        heap_dirty_granules = 0;
    }
    pthread_mutex_unlock(&heap_lock);
}

static size_t heap_block_size(const void *p)
{
    return (size_t)heap_len[((uintptr_t)p - (uintptr_t)gompi_heap_base) / GRANULE] * GRANULE;
}

int gompi_heap_info(int *fd, uintptr_t *base, size_t *size)
{
    if (!heap_ready())
        return 0;
    *fd = heap_fd;
    *base = (uintptr_t)gompi_heap_base;
    *size = gompi_heap_size;
    return 1;
}

/* The replaced allocator. Blocks below HEAP_MIN never touch the arena. */

void *malloc(size_t n)
{
    int fresh;
    void *p = heap_alloc(n, 0, &fresh);
    return p ? p : __libc_malloc(n);
}

void free(void *p)
{
    if (gompi_heap_holds(p, 1))
        heap_release(p);
    else
        __libc_free(p);
}

void *calloc(size_t k, size_t n)
{
    size_t total;
    if (__builtin_mul_overflow(k, n, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    int fresh;
    void *p = heap_alloc(total, 0, &fresh);
    if (!p)
        return __libc_calloc(k, n);
    if (!fresh)
        memset(p, 0, total);
    return p;
}

static void *aligned_block(size_t align, size_t n)
{
    int fresh;
    void *p = heap_alloc(n, align, &fresh);
    return p ? p : __libc_memalign(align, n);
}

void *realloc(void *p, size_t n)
{
    if (!gompi_heap_holds(p, 1))
        return __libc_realloc(p, n); /* glibc's blocks stay glibc's */
    if (n == 0) {
        free(p);
        return NULL;
    }
    size_t have = heap_block_size(p);
    if (n <= have)
        return p;
    void *q = malloc(n);
    if (q) {
        memcpy(q, p, have);
        free(p);
    }
    return q;
}

void *reallocarray(void *p, size_t k, size_t n)
{
    size_t total;
    if (__builtin_mul_overflow(k, n, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, total);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    void *p = aligned_block(align, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
    if (align == 0 || (align & (align - 1))) {
        errno = EINVAL;
        return NULL;
    }
    return aligned_block(align, n);
}

void *memalign(size_t align, size_t n)
{
    size_t a = sizeof(void *);
    while (a < align) /* glibc rounds an odd alignment up to a power of two */
        a <<= 1;
    return aligned_block(a, n);
}

void *valloc(size_t n) { return aligned_block(4096, n); }

void *pvalloc(size_t n) { return n >= HEAP_MIN ? aligned_block(4096, (n + 4095) & ~(size_t)4095) : __libc_pvalloc(n); }

size_t malloc_usable_size(void *p)
{
    static size_t (*real)(void *);
    if (gompi_heap_holds(p, 1))
        return heap_block_size(p);
    if (!p)
        return 0;
    if (!real)
        real = (size_t(*)(void *))dlsym(RTLD_NEXT, "malloc_usable_size");
    return real ? real(p) : 0;
}
