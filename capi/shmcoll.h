/* Shared-memory collectives in C, so a small barrier, broadcast, reduction
 * or allgather costs no crossing into Go: MPI_COMM_WORLD's group is
 * gompi_shm, every other intracommunicator with a collective area has its
 * own (gompi_shm_comms, capi/shmcomms.go). This is the protocol of package
 * shmcoll, step for step, on the same area and the same call counter: C and
 * Go calls may follow each other on one communicator. Every call that is
 * not obviously valid, or that the C side cannot do (derived types, user
 * ops, large data, a forced algorithm), goes to Go.
 *
 * At MPI_THREAD_MULTIPLE these calls take no lock, not even mtlock's reader
 * share: everything they touch (the group, its area's counters and slots)
 * belongs to one communicator, whose collectives the standard forbids two
 * threads to run at once, and no Go holder touches it but that
 * communicator's own collectives (and its MPI_Comm_free, likewise
 * exclusive). So threads on different communicators run them in parallel.
 * A wait that outlasts its C budget crosses into Go once (gompi_shm_wait,
 * which takes the lock and drives point-to-point progress, releasing the
 * lock between polls). */
#ifndef GOMPI_SHMCOLL_H
#define GOMPI_SHMCOLL_H
#include <stdint.h>
#include <sched.h>
#include <string.h>
#include "gompi.h"
#include "layout_gen.h" /* GOMPI_SHM_*: the area's geometry, from package shmcoll */

struct gompi_shm {
    MPI_Comm handle;   /* the communicator (the Go side's key for a wait) */
    int enabled;
    int size, me, nlocal, slot;
    int polls;         /* polls before the rest of a wait goes to Go (1 when oversubscribed) */
    int yields;        /* then core yields in C before it does (oversubscribed) */
    int spin_max;      /* oversubscribed: pauses a wait may spend instead of yields (below) */
    int mt;            /* MPI_THREAD_MULTIPLE: waits count themselves in *released */
    int32_t *released; /* internal/mtlock's count of threads waiting inside MPI */
    char *base;        /* the area */
    char *bigbase;     /* its big slots (contributions above slot bytes) */
    int big;
    int64_t max[8];    /* per collective kind, the largest contribution taken here (-1: none) */
    int64_t allreduce_blocks; /* from this many bytes an allreduce folds by blocks (0: never) */
    int *locals;       /* node-local index of each rank */
    uint64_t *bases;   /* each rank's counter when the group formed */
    uint64_t *seq;     /* calls made, shared with the Go group */
    uint64_t seen[GOMPI_SHM_MAX_GROUP]; /* calls each rank is known to have arrived at (a lower bound) */
};
extern struct gompi_shm gompi_shm; /* MPI_COMM_WORLD's */

/* Every other communicator's group, found as gompi_fast_comms finds its
 * entry (the handle's slot plus its kind), valid while the handle matches;
 * written by Go holders only when a communicator is made or freed. */
#define GOMPI_SHM_COMMS 1024
extern struct gompi_shm *gompi_shm_comms[GOMPI_SHM_COMMS];
static inline unsigned gompi_shm_comm_index(MPI_Comm h)
{
    return ((unsigned)h + ((unsigned)h >> 30)) & (GOMPI_SHM_COMMS - 1);
}

/* gompi_shm_of is comm's group, NULL when it has none in C. */
static inline struct gompi_shm *gompi_shm_of(MPI_Comm comm)
{
    if (__builtin_expect(comm == MPI_COMM_WORLD, 1)) return &gompi_shm;
    struct gompi_shm *g = gompi_shm_comms[gompi_shm_comm_index(comm)];
    return g && g->handle == comm ? g : NULL;
}

enum { GOMPI_SHM_BARRIER, GOMPI_SHM_BCAST, GOMPI_SHM_REDUCE, GOMPI_SHM_ALLREDUCE, GOMPI_SHM_ALLGATHER,
       GOMPI_SHM_ALLTOALL, GOMPI_SHM_REDUCE_SCATTER };
/* Collectives the C side ran through shared memory, per kind (MPI_T). */
extern uint64_t gompi_shm_ncalls[8];
extern int gompi_shm_mt; /* MPI_THREAD_MULTIPLE: the counters are atomic */
static inline int gompi_shm_counted(int kind)
{
    if (__builtin_expect(gompi_shm_mt, 0))
        __atomic_add_fetch(&gompi_shm_ncalls[kind], 1, __ATOMIC_RELAXED);
    else
        gompi_shm_ncalls[kind]++;
    return MPI_SUCCESS;
}

/* From op/kernels.c. */
int gompi_op_reduce_builtin(int op, int dt, const void *in, void *inout, int count);
int gompi_op_reduce3_builtin(int op, int dt, const void *a, const void *b, void *out, int count);
int gompi_op_builtin_ok(int op, int dt);

static inline uint64_t *gompi_shm_counter(struct gompi_shm *g, int local) { return (uint64_t *)(g->base + (size_t)local * GOMPI_SHM_LINE); }

/* Placement as in shmcoll: up to GOMPI_SHM_INLINE bytes of a synchronizing
 * collective (allreduce, allgather) ride on the counter's cache line in two
 * halves (call parity); other data up to a line goes to the
 * GOMPI_SHM_TINY_DEPTH tiny slots, more than a slot to the
 * GOMPI_SHM_BIG_DEPTH big slots; everything else uses GOMPI_SHM_DEPTH slots. */

static inline int gompi_shm_inline(uint64_t n, int sync) { return sync && n <= GOMPI_SHM_INLINE; }

static inline char *gompi_shm_data(struct gompi_shm *g, uint64_t s, int r, uint64_t n, int sync)
{
    size_t tiny = (size_t)g->nlocal * GOMPI_SHM_LINE;
    if (gompi_shm_inline(n, sync))
        return g->base + (size_t)g->locals[r] * GOMPI_SHM_LINE + GOMPI_SHM_INLINE_OFF +
               (size_t)(s & 1) * GOMPI_SHM_INLINE;
    if (n <= GOMPI_SHM_TINY)
        return g->base + tiny + ((size_t)(s % GOMPI_SHM_TINY_DEPTH) * g->nlocal + g->locals[r]) * GOMPI_SHM_LINE;
    if (n > (uint64_t)g->slot)
        return g->bigbase +
               ((size_t)(s % GOMPI_SHM_BIG_DEPTH) * g->nlocal + g->locals[r]) * g->big;
    size_t slots = tiny + (size_t)GOMPI_SHM_TINY_DEPTH * g->nlocal * GOMPI_SHM_LINE;
    return g->base + slots + ((size_t)(s % GOMPI_SHM_DEPTH) * g->nlocal + g->locals[r]) * g->slot;
}

/* From capi/fastpath.go: the rest of a long wait, in Go (which drives
 * point-to-point progress meanwhile: a peer may need this process's half of
 * a split single copy, or a buffered send, before it can arrive). */
extern void gompi_shm_wait(MPI_Comm comm, int r, uint64_t s);

/* gompi_shm_arrived reports whether rank r has arrived at call s. A rank
 * that ran ahead (a broadcast's root, readers freeing slots) was seen there
 * once: its counter line, which it keeps writing, is not fetched again until
 * a later call needs it. */
static inline int gompi_shm_arrived(struct gompi_shm *g, int r, uint64_t s)
{
    if (g->seen[r] > s) return 1;
    g->seen[r] = __atomic_load_n(gompi_shm_counter(g, g->locals[r]), __ATOMIC_ACQUIRE) - g->bases[r];
    return g->seen[r] > s;
}

/* Oversubscribed, a rank notes on its counter line the CPU it ran on when it
 * last arrived (GOMPI_SHM_CPU_OFF, after the inline halves). A waiter gives
 * its core away only while a rank seen on its own CPU is behind it (has not
 * arrived at every call this one has): otherwise the neighbour is waiting
 * too, yielding would only make it spin in turn, and each switch costs more
 * than a whole barrier. A hint can be stale (the kernel migrates processes),
 * so at most spin_max pauses of a wait go without yielding. */

extern int sched_getcpu(void); /* glibc's, declared by <sched.h> only under _GNU_SOURCE */

static inline int32_t *gompi_shm_cpu(struct gompi_shm *g, int local) { return (int32_t *)(g->base + (size_t)local * GOMPI_SHM_LINE + GOMPI_SHM_CPU_OFF); }

static inline void gompi_shm_note_cpu(struct gompi_shm *g)
{
    if (g->spin_max)
        __atomic_store_n(gompi_shm_cpu(g, g->locals[g->me]), sched_getcpu(), __ATOMIC_RELAXED);
}

/* gompi_shm_calls is how many calls rank r has arrived at. */
static inline uint64_t gompi_shm_calls(struct gompi_shm *g, int r)
{
    return __atomic_load_n(gompi_shm_counter(g, g->locals[r]), __ATOMIC_ACQUIRE) - g->bases[r];
}

/* gompi_shm_neighbour_behind: a rank last seen on this CPU has arrived at
 * fewer calls than this one. */
static inline int gompi_shm_neighbour_behind(struct gompi_shm *g)
{
    int cpu = sched_getcpu();
    uint64_t mine = gompi_shm_calls(g, g->me);
    for (int q = 0; q < g->size; q++)
        if (q != g->me && __atomic_load_n(gompi_shm_cpu(g, g->locals[q]), __ATOMIC_RELAXED) == cpu &&
            gompi_shm_calls(g, q) < mine)
            return 1;
    return 0;
}

struct gompi_shm_waiting {
    int polls;   /* fruitless polls so far (yields after g->polls) */
    int spun;    /* pauses taken instead of yields */
    int counted; /* at MULTIPLE: counted in *released while it yields */
};

/* gompi_shm_idle is one fruitless poll of a wait: pause, or yield the core
 * once past the polls; 1 when the rest of the wait belongs to Go. No rank
 * behind this one now means none later in this wait (ranks only catch up),
 * so the spinning needs no second look. */
static inline int gompi_shm_idle(struct gompi_shm *g, struct gompi_shm_waiting *w)
{
    if (w->polls >= g->polls + g->yields) return 1;
    if (w->polls >= g->polls) {
        if (w->spun && w->spun < g->spin_max) {
            w->spun++;
            __builtin_ia32_pause();
            return 0;
        }
        if (!w->spun && g->spin_max && !gompi_shm_neighbour_behind(g)) {
            w->spun = 1;
            __builtin_ia32_pause();
            return 0;
        }
        if (__builtin_expect(g->mt, 0) && !w->counted) {
            /* Other threads' waits in Go yield rather than spin while one
             * waits here (mtlock.Others): it may be this one with work. */
            __atomic_add_fetch(g->released, 1, __ATOMIC_RELAXED);
            w->counted = 1;
        }
        sched_yield();
    } else
        __builtin_ia32_pause();
    w->polls++;
    return 0;
}

/* gompi_shm_waited ends a wait's count in *released (at MULTIPLE). */
static inline void gompi_shm_waited(struct gompi_shm *g, struct gompi_shm_waiting *w)
{
    if (__builtin_expect(w->counted, 0)) {
        __atomic_sub_fetch(g->released, 1, __ATOMIC_RELAXED);
        w->counted = 0;
    }
}

/* gompi_shm_wait_for polls rank r's counter a while, then waits in Go. */
static inline void gompi_shm_wait_for(struct gompi_shm *g, int r, uint64_t s)
{
    struct gompi_shm_waiting w = {0, 0, 0};
    while (!gompi_shm_arrived(g, r, s)) {
        if (gompi_shm_idle(g, &w)) {
            gompi_shm_waited(g, &w);
            gompi_shm_wait(g->handle, r, s);
            return;
        }
    }
    gompi_shm_waited(g, &w);
}

/* gompi_shm_wait_all: every other rank at call s; at most one crossing. */
static inline void gompi_shm_wait_all(struct gompi_shm *g, uint64_t s)
{
    struct gompi_shm_waiting w = {0, 0, 0};
    for (int r = 0; r < g->size; r++) {
        if (r == g->me) continue;
        w.polls = 0;
        while (!gompi_shm_arrived(g, r, s)) {
            if (gompi_shm_idle(g, &w)) {
                gompi_shm_waited(g, &w);
                gompi_shm_wait(g->handle, -1, s);
                return;
            }
        }
    }
    gompi_shm_waited(g, &w);
}

static inline void gompi_shm_arrive(struct gompi_shm *g, uint64_t s)
{
    gompi_shm_note_cpu(g);
    __atomic_store_n(gompi_shm_counter(g, g->locals[g->me]), g->bases[g->me] + s + 1,
                     __ATOMIC_RELEASE);
}

static inline uint64_t gompi_shm_next(struct gompi_shm *g) { return (*g->seq)++; }

static inline void gompi_shm_slot_free(struct gompi_shm *g, uint64_t s, uint64_t n, int sync)
{
    uint64_t d = gompi_shm_inline(n, sync)           ? 2
                 : n <= GOMPI_SHM_TINY           ? GOMPI_SHM_TINY_DEPTH
                 : n > (uint64_t)g->slot ? GOMPI_SHM_BIG_DEPTH
                                                 : GOMPI_SHM_DEPTH;
    if (s >= d) gompi_shm_wait_all(g, s - d + 1);
}

/* gompi_shm_post starts a call with a contribution (shmcoll's post). */
static inline uint64_t gompi_shm_post(struct gompi_shm *g, const void *src, uint64_t n, int sync)
{
    uint64_t s = gompi_shm_next(g);
    gompi_shm_slot_free(g, s, n, sync);
    memcpy(gompi_shm_data(g, s, g->me, n, sync), src, n);
    gompi_shm_arrive(g, s);
    return s;
}

/* gompi_shm_ok: g's C side may run a collective of n bytes per rank (the
 * Go side's limits: mpi.WorldShmLimits, Comm.shmMax). */
static inline int gompi_shm_ok(struct gompi_shm *g, int kind, uint64_t n)
{
    return g && g->enabled && gompi_state == GOMPI_READY && n <= (uint64_t)INT64_MAX && (int64_t)n <= g->max[kind];
}

static inline int gompi_shm_barrier(MPI_Comm comm)
{
    struct gompi_shm *g = gompi_shm_of(comm);
    if (!gompi_shm_ok(g, GOMPI_SHM_BARRIER, 0)) return -1;
    uint64_t s = gompi_shm_next(g);
    gompi_shm_arrive(g, s);
    gompi_shm_wait_all(g, s);
    return MPI_SUCCESS;
}

/* gompi_shm_max: the largest contribution of one call (shmcoll's Max). */
static inline uint64_t gompi_shm_max(struct gompi_shm *g)
{
    return (uint64_t)(g->big > g->slot ? g->big : g->slot);
}

/* gompi_shm_bcast1 is one call of a broadcast (n <= gompi_shm_max). */
static inline void gompi_shm_bcast1(struct gompi_shm *g, void *buf, uint64_t n, int root)
{
    uint64_t s = gompi_shm_next(g);
    if (g->me == root) {
        gompi_shm_slot_free(g, s, n, 0);
        memcpy(gompi_shm_data(g, s, root, n, 0), buf, n);
        gompi_shm_arrive(g, s);
        return;
    }
    gompi_shm_arrive(g, s);
    gompi_shm_wait_for(g, root, s);
    memcpy(buf, gompi_shm_data(g, s, root, n, 0), n);
}

/* gompi_shm_bcast: one call per gompi_shm_max bytes (shmcoll's Bcast). */
static inline int gompi_shm_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    struct gompi_shm *g = gompi_shm_of(comm);
    int es = gompi_builtin_size(dt);
    if (!g || es < 0 || count < 0 || (unsigned)root >= (unsigned)g->size) return -1;
    uint64_t n = (uint64_t)count * (uint64_t)es;
    if (!gompi_shm_ok(g, GOMPI_SHM_BCAST, n) || (n && !buf) || buf == MPI_IN_PLACE) return -1;
    uint64_t c = gompi_shm_max(g);
    for (; n > c; n -= c) {
        gompi_shm_bcast1(g, buf, c, root);
        buf = (char *)buf + c;
    }
    gompi_shm_bcast1(g, buf, n, root);
    return MPI_SUCCESS;
}

/* gompi_shm_reduce_args checks a reduction for the C side: builtin type,
 * predefined op valid for it, proper buffers. It returns the byte count or -1. */
static inline int64_t gompi_shm_reduce_args(const void *sbuf, void *rbuf, int need_rbuf, int count, MPI_Datatype dt,
                                            MPI_Op op)
{
    int es = gompi_builtin_size(dt);
    if (es < 0 || count < 0 || !gompi_op_builtin_ok(op, dt)) return -1;
    int64_t n = (int64_t)count * es;
    if (n == 0) return 0;
    if (!sbuf || (need_rbuf && (!rbuf || rbuf == MPI_IN_PLACE || rbuf == sbuf))) return -1;
    return n;
}

/* gompi_shm_src is rank r's n-byte contribution to call s from byte off
 * on; the caller's own is at own unless that is NULL. */
static inline const char *gompi_shm_src(struct gompi_shm *g, uint64_t s, int r, int64_t n, int sync, int64_t off, const void *own)
{
    if (r == g->me && own) return (const char *)own + off;
    return gompi_shm_data(g, s, r, (uint64_t)n, sync) + off;
}

/* gompi_shm_fold_part folds count elements of the n-byte contributions of
 * call s from byte off on into rbuf: x0 op (x1 op (... op x_{p-1})); the
 * caller's own contribution is at own unless that is NULL. The first step
 * writes x_{p-2} op x_{p-1} straight into rbuf (no copy of x_{p-1} first:
 * two ranks fold in one pass instead of two). rbuf overlaps no source. */
static inline void gompi_shm_fold_part(struct gompi_shm *g, uint64_t s, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int64_t n,
                                       int sync, int64_t off, const void *own)
{
    int last = g->size - 1;
    gompi_op_reduce3_builtin(op, dt, gompi_shm_src(g, s, last - 1, n, sync, off, own),
                             gompi_shm_src(g, s, last, n, sync, off, own), rbuf, count);
    for (int r = last - 2; r >= 0; r--)
        gompi_op_reduce_builtin(op, dt, gompi_shm_src(g, s, r, n, sync, off, own), rbuf, count);
}

static inline void gompi_shm_fold(struct gompi_shm *g, uint64_t s, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int64_t n, int sync)
{
    gompi_shm_fold_part(g, s, rbuf, count, dt, op, n, sync, 0, NULL);
}

/* gompi_shm_block is rank r's share of count elements split among the
 * ranks: the first element and how many (shmcoll's Block). */
static inline void gompi_shm_block(struct gompi_shm *g, int count, int r, int *first, int *k)
{
    int q = count / g->size, rem = count % g->size;
    *first = r * q + (r < rem ? r : rem);
    *k = q + (r < rem);
}

/* gompi_shm_allreduce1 is one call of an allreduce (n <= gompi_shm_max). */
static inline void gompi_shm_allreduce1(struct gompi_shm *g, const void *src, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int64_t n)
{
    uint64_t s = gompi_shm_post(g, src, (uint64_t)n, 1);
    gompi_shm_wait_all(g, s);
    if (!n) return;
    if (!g->allreduce_blocks || n < g->allreduce_blocks) {
        gompi_shm_fold(g, s, rbuf, count, dt, op, n, 1);
        return;
    }
    /* Large: each rank folds its block into its place of a second call,
     * then everyone gathers the blocks (shmcoll's Allreduce). */
    int64_t es = n / count, bmax = (int64_t)((count + g->size - 1) / g->size) * es;
    int first, k;
    gompi_shm_block(g, count, g->me, &first, &k);
    uint64_t t = gompi_shm_next(g);
    gompi_shm_slot_free(g, t, (uint64_t)bmax, 1);
    if (k) gompi_shm_fold_part(g, s, gompi_shm_data(g, t, g->me, (uint64_t)bmax, 1), k, dt, op, n, 1, first * es, NULL);
    gompi_shm_arrive(g, t);
    gompi_shm_wait_all(g, t);
    for (int r = 0; r < g->size; r++) {
        gompi_shm_block(g, count, r, &first, &k);
        memcpy((char *)rbuf + first * es, gompi_shm_data(g, t, r, (uint64_t)bmax, 1), (size_t)(k * es));
    }
}

/* gompi_shm_per_call: how many of count elements (n bytes) one call of a
 * reduction takes, whole elements of at most gompi_shm_max bytes
 * (shmcoll's perCall); data that fits one call costs no division. */
static inline int gompi_shm_per_call(struct gompi_shm *g, int64_t n, int count)
{
    return (uint64_t)n <= gompi_shm_max(g) ? count : (int)(gompi_shm_max(g) / (uint64_t)(n / count));
}

static inline int gompi_shm_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                                      MPI_Comm comm)
{
    if (rbuf == MPI_IN_PLACE) return -1;
    struct gompi_shm *g = gompi_shm_of(comm);
    const void *src = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    int64_t n = gompi_shm_reduce_args(src, rbuf, sbuf != MPI_IN_PLACE, count, dt, op);
    if (n < 0 || (n == 0 && count) || !gompi_shm_ok(g, GOMPI_SHM_ALLREDUCE, (uint64_t)n) || !rbuf) return -1;
    int c = gompi_shm_per_call(g, n, count);
    if (count > c) {
        int64_t es = n / count;
        for (; count > c; count -= c) {
            gompi_shm_allreduce1(g, src, rbuf, c, dt, op, c * es);
            src = (const char *)src + c * es;
            rbuf = (char *)rbuf + c * es;
        }
        n = (int64_t)count * es;
    }
    gompi_shm_allreduce1(g, src, rbuf, count, dt, op, n);
    return MPI_SUCCESS;
}

/* gompi_shm_reduce1 is one call of a reduction (n <= gompi_shm_max). */
static inline void gompi_shm_reduce1(struct gompi_shm *g, const void *src, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                                     int64_t n)
{
    int me_root = g->me == root;
    if (!me_root) {
        gompi_shm_post(g, src, (uint64_t)n, 0);
        return;
    }
    /* Nobody reads the root's contribution but the root: it stays where it
     * is (shmcoll's Reduce), unless in place, where the fold overwrites it. */
    uint64_t s;
    if (src == rbuf) {
        s = gompi_shm_post(g, src, (uint64_t)n, 0);
    } else {
        s = gompi_shm_next(g);
        gompi_shm_arrive(g, s);
    }
    gompi_shm_wait_all(g, s);
    if (n) gompi_shm_fold_part(g, s, rbuf, count, dt, op, n, 0, 0, src == rbuf ? NULL : src);
}

static inline int gompi_shm_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                                   MPI_Comm comm)
{
    struct gompi_shm *g = gompi_shm_of(comm);
    if (!g || (unsigned)root >= (unsigned)g->size) return -1;
    int me_root = g->me == root;
    if (me_root && rbuf == MPI_IN_PLACE) return -1;
    const void *src = me_root && sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (src == MPI_IN_PLACE) return -1;
    int64_t n = gompi_shm_reduce_args(src, rbuf, me_root && sbuf != MPI_IN_PLACE, count, dt, op);
    if (n < 0 || !gompi_shm_ok(g, GOMPI_SHM_REDUCE, (uint64_t)n) || (me_root && n && !rbuf)) return -1;
    int c = gompi_shm_per_call(g, n, count);
    if (count > c) {
        int64_t es = n / count;
        for (; count > c; count -= c) {
            gompi_shm_reduce1(g, src, rbuf, c, dt, op, root, c * es);
            src = (const char *)src + c * es;
            if (me_root) rbuf = (char *)rbuf + c * es;
        }
        n = (int64_t)count * es;
    }
    gompi_shm_reduce1(g, src, rbuf, count, dt, op, root, n);
    return MPI_SUCCESS;
}

/* gompi_shm_clamp is k limited to [0, most]. */
static inline int64_t gompi_shm_clamp(int64_t k, int64_t most) { return k < 0 ? 0 : k > most ? most : k; }

/* gompi_shm_reduce_scatter: every rank posts its vector and folds its own
 * block; counts NULL is the _block form with rcount elements each. */
static inline int gompi_shm_reduce_scatter(const void *sbuf, void *rbuf, int rcount, const int *counts,
                                           MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    struct gompi_shm *g = gompi_shm_of(comm);
    if (!g || !g->enabled || rbuf == MPI_IN_PLACE) return -1;
    int64_t total = 0, longest = 0;
    for (int r = 0; r < g->size; r++) {
        int k = counts ? counts[r] : rcount;
        if (k < 0) return -1;
        if (k > longest) longest = k;
        total += k;
    }
    if (total > INT32_MAX) return -1;
    const void *src = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    int64_t n = gompi_shm_reduce_args(src, rbuf, sbuf != MPI_IN_PLACE, (int)total, dt, op);
    if (n <= 0 || !gompi_shm_ok(g, GOMPI_SHM_REDUCE_SCATTER, (uint64_t)n) || !rbuf) return -1;
    int64_t es = gompi_builtin_size(dt), piece = longest;
    int mine = counts ? counts[g->me] : rcount;
    /* Calls carrying the next piece elements of every block: all of them
     * when the vector fits one call, so every rank folds in every call
     * (shmcoll's ReduceScatter). */
    if ((uint64_t)n > gompi_shm_max(g)) piece = (int64_t)gompi_shm_max(g) / (es * g->size);
    for (int64_t at = 0; at < longest; at += piece) {
        int64_t m = 0, off = 0;
        for (int r = 0; r < g->size; r++) {
            if (r == g->me) off = m;
            m += gompi_shm_clamp((counts ? counts[r] : rcount) - at, piece) * es;
        }
        uint64_t s = gompi_shm_next(g);
        gompi_shm_slot_free(g, s, (uint64_t)m, 1);
        char *dst = gompi_shm_data(g, s, g->me, (uint64_t)m, 1);
        const char *block = src;
        if (piece == longest) /* every block whole: the vector as it is */
            memcpy(dst, block, (size_t)m);
        else
            for (int r = 0; r < g->size; r++) {
                int64_t k = counts ? counts[r] : rcount, l = gompi_shm_clamp(k - at, piece) * es;
                memcpy(dst, block + at * es, (size_t)l);
                dst += l;
                block += k * es;
            }
        gompi_shm_arrive(g, s);
        gompi_shm_wait_all(g, s);
        int64_t l = gompi_shm_clamp(mine - at, piece);
        if (l) gompi_shm_fold_part(g, s, (char *)rbuf + at * es, (int)l, dt, op, m, 1, off, NULL);
    }
    return MPI_SUCCESS;
}

static inline int gompi_shm_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                                      MPI_Datatype rtype, MPI_Comm comm)
{
    struct gompi_shm *g = gompi_shm_of(comm);
    int es = gompi_builtin_size(rtype);
    if (!g || !g->enabled || es < 0 || rcount < 0 || !rbuf || rbuf == MPI_IN_PLACE) return -1;
    uint64_t n = (uint64_t)rcount * (uint64_t)es;
    const char *src = (const char *)rbuf + (size_t)g->me * n;
    if (sbuf != MPI_IN_PLACE) {
        int ss = gompi_builtin_size(stype);
        if (ss < 0 || scount < 0 || (uint64_t)scount * (uint64_t)ss != n || (n && !sbuf)) return -1;
        src = sbuf;
    }
    if (!gompi_shm_ok(g, GOMPI_SHM_ALLGATHER, n)) return -1;
    uint64_t s = gompi_shm_post(g, src, n, 1);
    /* The own block comes from src while the others arrive (shmcoll's Allgather). */
    char *own = (char *)rbuf + (size_t)g->me * n;
    if (n && src != own) memcpy(own, src, n);
    gompi_shm_wait_all(g, s);
    for (int r = 0; r < g->size; r++)
        if (r != g->me)
            memcpy((char *)rbuf + (size_t)r * n, gompi_shm_data(g, s, r, n, 1), n);
    return MPI_SUCCESS;
}
static inline int gompi_shm_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                                     MPI_Datatype rtype, MPI_Comm comm)
{
    struct gompi_shm *g = gompi_shm_of(comm);
    int es = gompi_builtin_size(rtype);
    if (!g || !g->enabled || es < 0 || rcount < 0 || !rbuf || rbuf == MPI_IN_PLACE) return -1;
    uint64_t n = (uint64_t)rcount * (uint64_t)es, total = n * (uint64_t)g->size;
    const void *src = rbuf;
    if (sbuf != MPI_IN_PLACE) {
        int ss = gompi_builtin_size(stype);
        if (ss < 0 || scount < 0 || (uint64_t)scount * (uint64_t)ss != n || (n && (!sbuf || sbuf == rbuf))) return -1;
        src = sbuf;
    }
    if (!gompi_shm_ok(g, GOMPI_SHM_ALLTOALL, total)) return -1;
    /* Nobody else reads the block a rank sends itself: it goes straight
     * across (shmcoll's Alltoall). */
    size_t own = (size_t)g->me * n;
    uint64_t s = gompi_shm_next(g);
    gompi_shm_slot_free(g, s, total, 1);
    char *mine = gompi_shm_data(g, s, g->me, total, 1);
    if (n) {
        memcpy(mine, src, own);
        memcpy(mine + own + n, (const char *)src + own + n, total - own - n);
    }
    gompi_shm_arrive(g, s);
    if (n && src != rbuf) memcpy((char *)rbuf + own, (const char *)src + own, n);
    gompi_shm_wait_all(g, s);
    for (int r = 0; r < g->size; r++)
        if (r != g->me)
            memcpy((char *)rbuf + (size_t)r * n, gompi_shm_data(g, s, r, total, 1) + own, n);
    return MPI_SUCCESS;
}
#endif
