/* The C fast path: small contiguous messages on an intracommunicator between
 * processes of one node, sent and received straight through the shared-memory
 * rings without crossing into Go. It speaks exactly the protocol of
 * btl/shmring and pml (record word, match header, per-peer sequence numbers)
 * and steps aside (returns -1) whenever the Go engine has state that could
 * interfere: posted or unexpected receives on the communicator, queued sends,
 * a record it does not recognise, a ring that must wrap, a full ring. */
#ifndef GOMPI_FASTPATH_H
#define GOMPI_FASTPATH_H
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "gompi.h"
#include "heap.h"
#include "layout_gen.h" /* gompi_ring_state, gompi_match_hdr, record words: from Go */
#include "../btl/ofi/gofi.h" /* the network endpoint's frames and functions */

typedef struct {
    char *data;
    uint64_t size;
    uint64_t *tail;
    gompi_ring_state *st;
} gompi_ring;
typedef struct {
    gompi_ring out, in;
    uint32_t *sleeping, *doorbell;
    uint64_t getmin; /* from this size the Go engine would use single copy; 0 never */
    /* shmring's copy verdict on out (word, then run of slow copies; see
     * btl/sm/copyclock.go) */
    uint32_t *out_slow;
    /* from this size a buffer in our shared heap goes by single copy; 0 never */
    uint64_t sharedmin;
    /* At MPI_THREAD_MULTIPLE: spin locks of the producer side of out (the
     * ring and the send sequence numbers to this peer, on every
     * communicator) and of the consumer side of in (the ring, the receive
     * sequence numbers from it, its queue of C receives). */
    int32_t out_lock, in_lock;
    /* At MULTIPLE: the fast sends into out and their bytes (under
     * out_lock: no atomics; gompi_fast_sent sums them). */
    uint64_t sends, send_bytes;
} gompi_fpeer;
typedef struct { uint16_t send, recv; } gompi_seqpair;

/* A communicator the fast path serves (mpi/fastcomm.go publishes every
 * intracommunicator, MPI_COMM_WORLD first): its pml matching state lives in
 * C memory. Found by the low bits of its handle, valid while the handle
 * matches; an empty entry has size 0, so no rank passes its checks. */
typedef struct {
    MPI_Comm handle;
    uint32_t ctx;
    int32_t rank, size;
    const int32_t *world; /* comm rank -> world rank */
    gompi_seqpair *seq;   /* by comm rank */
    int32_t *busy;        /* pml.Shared.Busy: the Go engine holds matching state */
} gompi_fcomm;
#define GOMPI_FAST_COMMS 1024
extern gompi_fcomm gompi_fast_comms[GOMPI_FAST_COMMS];

/* The entry of handle h: the slot of a user communicator's handle (low
 * bits) plus its kind, so MPI_COMM_WORLD (builtin, index 0) and the first
 * user communicators (direct, from slot 0) do not collide. */
static inline unsigned gompi_fast_comm_index(MPI_Comm h)
{
    return ((unsigned)h + ((unsigned)h >> 30)) & (GOMPI_FAST_COMMS - 1);
}

static inline gompi_fcomm *gompi_fast_comm(MPI_Comm comm)
{
    gompi_fcomm *c = &gompi_fast_comms[gompi_fast_comm_index(comm)];
    return c->handle == comm ? c : NULL;
}

struct gompi_fast {
    int enabled;
    int size;
    int eager;
    int spin;  /* polls before handing the wait to the Go engine */
    int yield_after; /* polls before each poll yields the core (oversubscribed) */
    uint64_t big_room; /* ring bytes in flight up to which a single-copy-sized message may still go eager */
    int shared_single; /* a shared-heap message from sharedmin always goes by single copy (oversubscribed, as pml) */
    uint64_t slow_from;  /* from this size copies into a ring are timed, and a slow verdict means single copy; 0 never */
    uint64_t slow_picos; /* per byte: above it a copy counts as slow */
    uint32_t slow_tick;
    int32_t *pending;
    int32_t posted;         /* receives waiting in the C queues (fastslot.h) */
    int32_t *qhead, *qtail; /* per world rank, slot indices, -1 when empty */
    gompi_fpeer *peers;
    /* At MPI_THREAD_MULTIPLE: internal/mtlock's lock word and the counts
     * its Others reads (Go memory, see mtlock.Words). */
    int mt;
    int32_t *mt_state, *mt_waiters, *mt_released, *mt_readers;
    int32_t slots_lock; /* the request slots' free list (fastslot.h) */
    const _Bool *timed; /* pml.TimeWaits: Go times waits, so C does not wait */
    /* The network endpoint (btl/ofi's gofi; NULL without one) and its
     * functions, called through pointers since a build without libfabric
     * has none; by world rank, the largest message the fast path sends
     * eagerly through it, -1 for ranks it does not reach. */
    gofi *net;
    int (*net_send)(gofi *g, int rank, int tag, const void *hdr, size_t hlen, const void *payload, size_t n);
    const char *(*net_peek)(gofi *g, uint64_t *len, int *other);
    void (*net_pop)(gofi *g);
    int32_t *net_eager;
    /* At MULTIPLE: mtlock's per-thread reader counts (mtlock.Slots): the
     * first, the bytes between two, one past the highest in use. */
    char *mt_slots;
    uintptr_t mt_stride;
    int32_t *mt_claimed;
    int mt_max; /* how many counts there are (mtlock.MaxSlots) */
};
extern struct gompi_fast gompi_fast;
/* At MULTIPLE: threads holding a reader count of their own (alive, having
 * made a fast-path call), and this thread's count (NULL before its first
 * call, &gompi_reader_shared when every count is taken: it then uses the
 * shared readers count). */
extern int32_t gompi_fast_threads;
extern int32_t gompi_reader_shared;
extern __thread int32_t *gompi_reader __attribute__((tls_model("initial-exec")));
int32_t *gompi_reader_claim(void);
/* Messages and bytes sent by gompi_fast_send (the immediate protocol done in
 * C), for MPI_T: plain per-process counters. */
extern uint64_t gompi_fast_sends, gompi_fast_send_bytes;

/* At MPI_THREAD_MULTIPLE the fast paths share the Go side's lock
 * (internal/mtlock) as readers: a call raises the readers count, then
 * proceeds only if no Go holder has the lock word (else it backs out and
 * takes its Go path, which waits for the lock, or takes it again
 * recursively when this very thread holds it inside a callback). Go's Lock
 * takes the word, then waits for the readers inside to leave. C never
 * calls into Go while inside. So C calls of several threads run at once
 * (on different communicators, or different peers, in parallel), each
 * guarding what it touches with the spin locks below, and every Go holder
 * still has the engine to itself. Below MULTIPLE gompi_fast_lock is one
 * predictable branch. */
static inline int gompi_fast_lock(void)
{
    if (__builtin_expect(!gompi_fast.mt, 1)) return 1;
    int32_t *r = gompi_reader;
    if (__builtin_expect(!r, 0)) r = gompi_reader_claim();
    if (__builtin_expect(r == &gompi_reader_shared, 0)) {
        __atomic_add_fetch(gompi_fast.mt_readers, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(gompi_fast.mt_state, __ATOMIC_SEQ_CST) == 0) return 1;
        __atomic_sub_fetch(gompi_fast.mt_readers, 1, __ATOMIC_RELEASE);
        return 0;
    }
    /* The thread's own count, on its own cache line: one exchange to enter
     * (the fence before reading the lock word), a plain store to leave,
     * and no line shared with other threads. Already inside (nested), a Go
     * holder waits for us, so it has not started: no check. */
    int32_t d = *r;
    if (d) {
        __atomic_store_n(r, d + 1, __ATOMIC_RELAXED);
        return 1;
    }
    __atomic_exchange_n(r, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(gompi_fast.mt_state, __ATOMIC_SEQ_CST) == 0) return 1;
    __atomic_store_n(r, 0, __ATOMIC_RELEASE);
    return 0;
}

static inline void gompi_fast_unlock(void)
{
    if (__builtin_expect(!gompi_fast.mt, 1)) return;
    int32_t *r = gompi_reader;
    if (__builtin_expect(r == &gompi_reader_shared, 0))
        __atomic_sub_fetch(gompi_fast.mt_readers, 1, __ATOMIC_RELEASE);
    else
        __atomic_store_n(r, *r - 1, __ATOMIC_RELEASE);
}

/* gompi_fast_others: a Go caller holds or wants the lock, so it waits for
 * the C calls inside; a C wait then hands over to its Go path at once
 * rather than spinning. */
static inline int gompi_fast_others(void)
{
    return gompi_fast.mt && (__atomic_load_n(gompi_fast.mt_state, __ATOMIC_RELAXED) ||
                             __atomic_load_n(gompi_fast.mt_waiters, __ATOMIC_RELAXED));
}

/* A C wait that returned as soon as a Go caller wanted the lock sent its
 * thread into Go too, where it took the lock, adopted every queued C
 * receive and so sent the other threads' calls into Go as well: with 2
 * threads per rank the rate fell to a quarter. Instead the wait steps
 * aside: it leaves the reader section (the Go caller gets in once the
 * readers drain), counts itself as waiting with the lock released (so Go
 * waits yield rather than spin with the lock held), gives the core away
 * and enters again, keeping its wait in C. 1 back inside; 0 still out
 * after a while (the caller takes its Go path and must not unlock). */
#define GOMPI_FAST_UNLOCKED (-3)
#define GOMPI_FAST_ASIDES 16 /* a wait's steps aside before it hands over to Go */
static inline int gompi_fast_step_aside(void)
{
    gompi_fast_unlock();
    __atomic_add_fetch(gompi_fast.mt_released, 1, __ATOMIC_SEQ_CST);
    int in = 0;
    for (int i = 0; i < 64 && !in; i++) {
        sched_yield();
        in = !gompi_fast_others() && gompi_fast_lock();
    }
    __atomic_sub_fetch(gompi_fast.mt_released, 1, __ATOMIC_RELEASE);
    return in;
}

/* The spin locks of the C paths at MULTIPLE (nothing below it). Holders
 * never wait for anything else but the slot lock, and only from a ring's
 * consumer lock, so they cannot deadlock; a waiter yields its core after a
 * short spin (threads may outnumber cores). */
static inline void gompi_spin_lock(int32_t *l)
{
    if (__builtin_expect(!gompi_fast.mt, 1)) return;
    while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE)) {
        for (int i = 0; __atomic_load_n(l, __ATOMIC_RELAXED); i++) {
            if (i < 64)
                __builtin_ia32_pause();
            else
                sched_yield();
        }
    }
}

static inline int gompi_spin_trylock(int32_t *l)
{
    return !gompi_fast.mt || (!__atomic_load_n(l, __ATOMIC_RELAXED) && !__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE));
}

static inline void gompi_spin_unlock(int32_t *l)
{
    if (__builtin_expect(!gompi_fast.mt, 1)) return;
    __atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* gompi_fast_count adds to a statistics counter other threads' C calls
 * may bump at the same time at MULTIPLE. */
static inline void gompi_fast_count(uint64_t *c, uint64_t v)
{
    if (__builtin_expect(!gompi_fast.mt, 1))
        *c += v;
    else
        __atomic_add_fetch(c, v, __ATOMIC_RELAXED);
}

#define GOMPI_REQ_SEND_DONE ((MPI_Request)GOMPI_HANDLE_SEND_DONE)
/* A data record with pml's match tag; shmring's wrap marker. */
#define GOMPI_REC_MATCH (((uint64_t)GOMPI_RING_KIND_DATA << GOMPI_RING_KIND_SHIFT) | \
                         ((uint64_t)GOMPI_PML_TAG_MATCH << GOMPI_RING_TAG_SHIFT))
#define GOMPI_REC_WRAP ((uint64_t)GOMPI_RING_KIND_WRAP << GOMPI_RING_KIND_SHIFT)
#define GOMPI_REC_LEN(body) ((GOMPI_RING_HEADER_SIZE + (body) + GOMPI_RING_ALIGN - 1) & ~(uint64_t)(GOMPI_RING_ALIGN - 1))

/* Sizes of the predefined datatypes by handle index, -1 for none (filled at
 * MPI_Init from the Go table, so a forged handle never passes). */
extern signed char gompi_builtin_sizes[256];

static inline int gompi_builtin_size(MPI_Datatype dt)
{
    if (((unsigned)dt >> 16) != GOMPI_DTYPE_BUILTIN_HI) return -1;
    int s = gompi_builtin_sizes[dt & 0xff];
    return s == ((dt >> 8) & 0xff) ? s : -1;
}

/* gompi_note_copy is shmring's NoteCopy: two slow copies in a row make the
 * verdict slow, one fast copy clears it. */
static inline void gompi_note_copy(uint32_t *verdict, int slow)
{
    uint32_t *run = verdict + 1;
    if (!slow) {
        if (*run) *run = 0;
        if (__atomic_load_n(verdict, __ATOMIC_RELAXED)) __atomic_store_n(verdict, 0, __ATOMIC_RELEASE);
        return;
    }
    if (*run < 2) (*run)++;
    if (*run >= 2 && !__atomic_load_n(verdict, __ATOMIC_RELAXED)) __atomic_store_n(verdict, 1, __ATOMIC_RELEASE);
}

/* gompi_fast_copy_in copies a message's n bytes into p's ring, timing some
 * of the large ones as btl/sm's copyClock does. */
static inline void gompi_fast_copy_in(gompi_fpeer *p, void *dst, const void *rec, uint64_t n)
{
    uint32_t *v = p->out_slow;
    if (!gompi_fast.slow_from || n < gompi_fast.slow_from || ((++gompi_fast.slow_tick & 3) && !*v)) {
        if (n) memcpy(dst, rec, n);
        return;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    memcpy(dst, rec, n);
    clock_gettime(CLOCK_MONOTONIC, &b);
    int64_t ns = (int64_t)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
    gompi_note_copy(v, ns * 1000 > (int64_t)(gompi_fast.slow_picos * n) + 200000);
}

static inline int gompi_fast_put(gompi_fcomm *c, gompi_fpeer *p, const void *buf, uint64_t n, int dest, int tag);

/* gompi_net_send sends a small message to world rank w through the
 * network endpoint as the pml's immediate send does (one frame: match
 * header and payload), below MPI_THREAD_MULTIPLE and while the Go engine
 * has no sends waiting for room; -1 leaves it to the Go side. */
static inline int gompi_net_send(gompi_fcomm *c, int w, const void *buf, uint64_t n, int dest, int tag)
{
    if (!gompi_fast.net || gompi_fast.mt || (int64_t)n > gompi_fast.net_eager[w] || (n && !buf) || *gompi_fast.pending)
        return -1;
    gompi_seqpair *sq = &c->seq[dest];
    gompi_match_hdr h = {.ctx = c->ctx, .src = c->rank, .tag = tag, .seq = sq->send};
    if (gompi_fast.net_send(gompi_fast.net, w, GOMPI_PML_TAG_MATCH, &h, sizeof h, buf, n) != 1) return -1;
    sq->send++;
    gompi_fast_sends++;
    gompi_fast_send_bytes += n;
    return MPI_SUCCESS;
}

static inline int gompi_fast_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
                                  MPI_Comm comm)
{
    int esize = gompi_builtin_size(dt);
    gompi_fcomm *c = gompi_fast_comm(comm);
    if (!gompi_fast.enabled || !c || esize < 0 || count < 0 || tag < 0 || (unsigned)dest >= (unsigned)c->size)
        return -1;
    gompi_fpeer *p = &gompi_fast.peers[c->world[dest]];
    uint64_t n = (uint64_t)count * (uint64_t)esize;
    if (!p->out.data) return gompi_net_send(c, c->world[dest], buf, n, dest, tag);
    if (n > (uint64_t)gompi_fast.eager || (n && !buf)) return -1;
    /* Copies into this ring run slow: the Go engine sends this by single
     * copy (or as one of its eager probes). */
    if (gompi_fast.slow_from && n >= gompi_fast.slow_from && p->getmin && __atomic_load_n(p->out_slow, __ATOMIC_RELAXED))
        return -1;
    gompi_spin_lock(&p->out_lock);
    int rc = gompi_fast_put(c, p, buf, n, dest, tag);
    gompi_spin_unlock(&p->out_lock);
    if (rc == MPI_SUCCESS && __atomic_load_n(p->sleeping, __ATOMIC_SEQ_CST)) {
        __atomic_add_fetch(p->doorbell, 1, __ATOMIC_SEQ_CST);
        syscall(SYS_futex, p->doorbell, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
    }
    return rc;
}

/* gompi_fast_put writes one message into p's ring (its producer lock held
 * at MULTIPLE): MPI_SUCCESS, or -1 when it does not fit as the fast path
 * sends. */
static inline int gompi_fast_put(gompi_fcomm *c, gompi_fpeer *p, const void *buf, uint64_t n, int dest, int tag)
{
    gompi_ring *r = &p->out;
    gompi_ring_state *st = r->st;
    uint64_t body = sizeof(gompi_match_hdr) + n, rec = GOMPI_REC_LEN(body);
    uint64_t off = st->pos & (r->size - 1);
    uint64_t skip = off + rec > r->size ? r->size - off : 0; /* to the ring's start first */
    /* A message the engine would move by single copy (past the crossover,
     * or read straight from our shared heap) goes eager only while the ring
     * is nearly empty: that is the latency case, where skipping the
     * handshake wins; behind a window of others, copying it twice through
     * the ring loses to the receiver's single copy (measured). */
    uint64_t room = r->size; /* big_room 0: no limit */
    int shared = p->sharedmin && n >= p->sharedmin && gompi_heap_holds(buf, n);
    if (shared && gompi_fast.shared_single) return -1;
    int single = shared || (p->getmin && n >= p->getmin);
    if (single && gompi_fast.big_room && gompi_fast.big_room < room) room = gompi_fast.big_room;
    if (st->pos + skip + rec + GOMPI_RING_HEADER_SIZE - st->cached > room) {
        st->cached = __atomic_load_n(r->tail, __ATOMIC_ACQUIRE);
        if (st->pos + skip + rec + GOMPI_RING_HEADER_SIZE - st->cached > room) return -1;
    }
    if (skip) {
        /* As shmring's Reserve: the next lap's terminator, then the marker.
         * Leaving the wrap to the Go side sent every following message
         * through Go until small records had walked to the ring's end. */
        *(uint64_t *)r->data = 0;
        __atomic_store_n((uint64_t *)(r->data + off), GOMPI_REC_WRAP, __ATOMIC_RELEASE);
        st->pos += skip;
        off = 0;
    }
    char *b = r->data + off;
    gompi_match_hdr *h = (gompi_match_hdr *)(b + GOMPI_RING_HEADER_SIZE);
    gompi_seqpair *sq = &c->seq[dest];
    h->ctx = c->ctx;
    h->src = c->rank;
    h->tag = tag;
    h->seq = sq->send;
    h->flags = 0;
    h->sreq = 0;
    h->pad = 0;
    gompi_fast_copy_in(p, h + 1, buf, n);
    *(uint64_t *)(r->data + ((st->pos + rec) & (r->size - 1))) = 0;
    /* A release store, no fence: a sequentially consistent one (xchg) waited
     * for every store of the record to reach the cache before the next
     * message, which halved the message rate (32 B windows: 10 against
     * 21 million per second). So the peer may find its sleeping flag read
     * as 0 while the record still sits in our store buffer; its Idle looks
     * for records a while after raising the flag, long enough for a store
     * buffer to drain (btl/sm's sleepGrace). */
    __atomic_store_n((uint64_t *)b, GOMPI_REC_MATCH | body, __ATOMIC_RELEASE);
    st->pos += rec;
    sq->send++;
    if (__builtin_expect(!gompi_fast.mt, 1)) {
        gompi_fast_sends++;
        gompi_fast_send_bytes += n;
    } else {
        p->sends++;
        p->send_bytes += n;
    }
    return MPI_SUCCESS;
}

/* gompi_fast_sent: the messages (or bytes) the fast path sent, for MPI_T. */
static inline uint64_t gompi_fast_sent(int bytes)
{
    uint64_t v = bytes ? gompi_fast_send_bytes : gompi_fast_sends;
    for (int i = 0; gompi_fast.peers && i < gompi_fast.size; i++)
        v += __atomic_load_n(bytes ? &gompi_fast.peers[i].send_bytes : &gompi_fast.peers[i].sends, __ATOMIC_RELAXED);
    return v;
}

/* gompi_fast_send_locked is gompi_fast_send under the MULTIPLE lock; calls
 * on communicators the fast path does not serve go straight to Go without
 * touching the lock from C (see gompi_fast_lock). */
static inline int gompi_fast_send_locked(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    if (!gompi_fast_comm(comm) || !gompi_fast_lock()) return -1;
    int rc = gompi_fast_send(buf, count, dt, dest, tag, comm);
    gompi_fast_unlock();
    return rc;
}

/* gompi_ring_head returns the next record of r and its first word (0:
 * none yet), stepping over a wrap marker as shmring's consumer does. */
static inline char *gompi_ring_head(gompi_ring *r, uint64_t *w)
{
    gompi_ring_state *st = r->st;
    char *b = r->data + (st->pos & (r->size - 1));
    *w = __atomic_load_n((uint64_t *)b, __ATOMIC_ACQUIRE);
    if ((*w & ~0xffffffffull) == GOMPI_REC_WRAP) {
        st->pos += r->size - (st->pos & (r->size - 1));
        b = r->data;
        *w = __atomic_load_n((uint64_t *)b, __ATOMIC_ACQUIRE);
    }
    return b;
}

/* gompi_fast_head finds the next record from world rank w when it is a
 * plain eager message: 1 with its header and payload size, 0 nothing there
 * yet, -1 anything else (the Go engine's business). Its communicator and
 * sequence number are for the caller to check. */
static inline int gompi_fast_head(int w, gompi_match_hdr **hp, uint64_t *n)
{
    uint64_t word;
    char *b = gompi_ring_head(&gompi_fast.peers[w].in, &word);
    if (word == 0) return 0;
    if ((word & ~0xffffffffull) != GOMPI_REC_MATCH) return -1;
    gompi_match_hdr *h = (gompi_match_hdr *)(b + GOMPI_RING_HEADER_SIZE);
    if (h->flags != 0) return -1;
    *hp = h;
    *n = (uint32_t)word - sizeof *h;
    return 1;
}

/* gompi_fast_inorder: h (from world rank w) is c's next message from that
 * peer, and the Go engine holds nothing it could match first. */
static inline int gompi_fast_inorder(const gompi_fcomm *c, const gompi_match_hdr *h)
{
    return h->ctx == c->ctx && (unsigned)h->src < (unsigned)c->size && h->seq == c->seq[h->src].recv && !*c->busy;
}

/* gompi_fast_consume releases the message of c gompi_fast_head found in
 * world rank w's ring. */
static inline void gompi_fast_consume(gompi_fcomm *c, int src, int w, uint64_t n)
{
    gompi_ring *r = &gompi_fast.peers[w].in;
    c->seq[src].recv++;
    r->st->pos += GOMPI_REC_LEN(sizeof(gompi_match_hdr) + n);
    __atomic_store_n(r->tail, r->st->pos, __ATOMIC_RELEASE);
}

/* gompi_fast_take receives the next message from src (world rank w) on c
 * into buf when it is already in the ring and nothing in the Go engine
 * could claim it first: 1 taken, 0 not there yet, -1 the fast path must
 * step aside, -2 the ring's next message is another communicator's. */
static inline int gompi_fast_take(gompi_fcomm *c, void *buf, uint64_t cap, int src, int w, int tag, int *mtag,
                                  uint64_t *mlen)
{
    if (!gompi_fast.peers[w].in.data || *c->busy || *gompi_fast.pending) return -1;
    gompi_match_hdr *h;
    uint64_t n;
    int k = gompi_fast_head(w, &h, &n);
    if (k <= 0) return k;
    if (h->ctx != c->ctx) return -2;
    if (h->seq != c->seq[src].recv || (tag != MPI_ANY_TAG && h->tag != tag) || n > cap) return -1;
    if (n) memcpy(buf, h + 1, n);
    *mtag = h->tag;
    *mlen = n;
    gompi_fast_consume(c, src, w, n);
    return 1;
}

/* gompi_fast_idle is one fruitless poll of a C wait: pause, or give the core
 * away when oversubscribed. */
#define GOMPI_FAST_MT_YIELD 32
static inline void gompi_fast_idle(int spin)
{
    /* Several threads in MPI at MULTIPLE may outnumber the cores: the one
     * this wait needs may be off-core, so yield early (one thread alone
     * spins as below MULTIPLE). */
    int after = gompi_fast.yield_after;
    if (gompi_fast.mt && after > GOMPI_FAST_MT_YIELD && __atomic_load_n(&gompi_fast_threads, __ATOMIC_RELAXED) > 1)
        after = GOMPI_FAST_MT_YIELD;
    if (spin >= after)
        sched_yield();
    else
        __builtin_ia32_pause();
}

/* gompi_fast_args checks that a receive may use the fast path at all: its
 * communicator, or NULL. */
static inline gompi_fcomm *gompi_fast_args(const void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                                           uint64_t *cap)
{
    int esize = gompi_builtin_size(dt);
    gompi_fcomm *c = gompi_fast_comm(comm);
    if (!gompi_fast.enabled || !c || esize < 0 || count < 0 || tag < MPI_ANY_TAG || (unsigned)src >= (unsigned)c->size)
        return NULL;
    *cap = (uint64_t)count * (uint64_t)esize;
    return *cap == 0 || buf ? c : NULL; /* the Go side reports a NULL buffer */
}

/* gompi_fast_queued: a receive on c is queued from world rank w
 * (fastslot.h). */
static inline int gompi_fast_queued(const gompi_fcomm *c, int w);
static inline int gompi_fast_match(int w);

/* gompi_fast_peek: something is at the head of world rank w's ring, read
 * without its consumer lock (at MULTIPLE a fruitless poll then costs no
 * atomic; the caller looks again under the lock). */
static inline int gompi_fast_peek(int w)
{
    gompi_ring *r = &gompi_fast.peers[w].in;
    uint64_t pos = __atomic_load_n(&r->st->pos, __ATOMIC_RELAXED);
    return __atomic_load_n((uint64_t *)(r->data + (pos & (r->size - 1))), __ATOMIC_RELAXED) != 0;
}

/* Polls a blocking receive at MPI_THREAD_MULTIPLE waits while another
 * communicator's message heads the ring (its thread may take it) before the
 * Go engine queues that message; below MULTIPLE it does so at once. */
#define GOMPI_FAST_FOREIGN_POLLS 256

static inline void gompi_fast_status(MPI_Status *status, int src, int tag, uint64_t n)
{
    if (!GOMPI_STATUS_IGNORED(status)) {
        status->count_lo = (int)n;
        status->count_hi_and_cancelled = 0;
        status->MPI_SOURCE = src;
        status->MPI_TAG = tag;
    }
}

/* gompi_net_take receives the frame heading the network endpoint's queue
 * into buf when it is c's next message from src (world rank w) and matches
 * tag: 1 taken, 0 nothing received yet, -1 the Go side's business (any
 * other frame: another peer's, a control frame, one that fails the checks
 * the Go side reports, read completions). Everything is checked before a
 * byte is copied: the frame comes from the network. */
static inline int gompi_net_take(gompi_fcomm *c, void *buf, uint64_t cap, int src, int w, int tag, int *mtag,
                                 uint64_t *mlen)
{
    uint64_t len;
    int other = 0;
    const char *f = gompi_fast.net_peek(gompi_fast.net, &len, &other);
    if (!f) return other ? -1 : 0;
    gompi_match_hdr h;
    uint32_t from;
    if (len < GOFI_FRAME_HDR + sizeof h) return -1;
    memcpy(&from, f, 4);
    memcpy(&h, f + GOFI_FRAME_HDR, sizeof h);
    uint64_t n = len - GOFI_FRAME_HDR - sizeof h;
    if (from != (uint32_t)w || (uint8_t)f[4] != GOMPI_PML_TAG_MATCH || (uint8_t)f[5] != GOFI_MAGIC || h.flags != 0 ||
        h.ctx != c->ctx || h.src != src || h.seq != c->seq[src].recv || (tag != MPI_ANY_TAG && h.tag != tag) || n > cap)
        return -1;
    if (n) memcpy(buf, f + GOFI_FRAME_HDR + sizeof h, n);
    c->seq[src].recv++;
    gompi_fast.net_pop(gompi_fast.net);
    *mtag = h.tag;
    *mlen = n;
    return 1;
}

/* gompi_net_recv is gompi_fast_recv from a rank reached through the
 * network: it polls the endpoint's completion queue from C, below
 * MPI_THREAD_MULTIPLE, while the Go engine holds nothing that could match
 * first or that waits for progress. */
static inline int gompi_net_recv(gompi_fcomm *c, void *buf, uint64_t cap, int src, int w, int tag,
                                 MPI_Status *status)
{
    if (!gompi_fast.net || gompi_fast.mt || gompi_fast.net_eager[w] < 0) return -1;
    for (int spin = 0; spin < gompi_fast.spin; spin++) {
        if (*c->busy || *gompi_fast.pending || gompi_fast.posted || *gompi_fast.timed) return -1;
        int mtag;
        uint64_t n;
        int got = gompi_net_take(c, buf, cap, src, w, tag, &mtag, &n);
        if (got < 0) return -1;
        if (got == 0) {
            if (spin >= gompi_fast.yield_after) sched_yield();
            continue;
        }
        gompi_fast_status(status, src, mtag, n);
        return MPI_SUCCESS;
    }
    return -1;
}

static inline int gompi_fast_recv(void *buf, int count, MPI_Datatype dt, int src, int tag,
                                  MPI_Comm comm, MPI_Status *status)
{
    uint64_t cap, n;
    int mtag;
    gompi_fcomm *c = gompi_fast_args(buf, count, dt, src, tag, comm, &cap);
    if (!c) return -1;
    int w = c->world[src], foreign = 0, asides = 0;
    if (!gompi_fast.peers[w].in.data) return gompi_net_recv(c, buf, cap, src, w, tag, status);
    int32_t *lock = &gompi_fast.peers[w].in_lock;
    for (int spin = 0; spin < gompi_fast.spin; spin++) {
        int got = 0;
        /* An empty ring is no answer when the Go engine holds state on c
         * (it may have queued our message after we stepped aside). */
        if (gompi_fast.mt && (*c->busy || *gompi_fast.pending)) return -1;
        if (!gompi_fast.mt || !gompi_fast.peers[w].in.data || gompi_fast_peek(w)) {
            gompi_spin_lock(lock);
            /* a receive queued earlier on c from src comes first */
            got = gompi_fast_queued(c, w) ? -1 : gompi_fast_take(c, buf, cap, src, w, tag, &mtag, &n);
            /* another communicator's message: another thread's queued
             * receive may take it here (else its thread must) */
            int m = got == -2 && gompi_fast.mt && gompi_fast.qhead[w] >= 0 ? gompi_fast_match(w) : 0;
            gompi_spin_unlock(lock);
            if (m > 0) continue;
            if (m == -1) return -1; /* -2: its receive is not queued */
        }
        if (got == -2 && gompi_fast.mt && ++foreign < GOMPI_FAST_FOREIGN_POLLS) got = 0;
        if (got < 0) return -1;
        if (got == 0) {
            if (*gompi_fast.timed) return -1;
            if (gompi_fast_others()) {
                if (++asides > GOMPI_FAST_ASIDES) return -1;
                if (!gompi_fast_step_aside()) return GOMPI_FAST_UNLOCKED;
            }
            gompi_fast_idle(spin);
            continue;
        }
        gompi_fast_status(status, src, mtag, n);
        return MPI_SUCCESS;
    }
    return -1;
}

/* gompi_fast_recv's check of the queued receives, and the rest of the
 * nonblocking side. */
#include "fastslot.h"
#endif
