/* Nonblocking receives of the C fast path. MPI_Irecv on a communicator the
 * fast path serves either finishes at once (the message is in the ring) or,
 * while the Go engine holds no matching state on it, queues the receive
 * here, per source process (world rank, across communicators) in posting
 * order. The completion calls then match ring records against these
 * queues without entering Go. Whenever anything else must happen (a record
 * that is not a plain in-order eager message for the queue's head receives,
 * a truncation, a long wait, any other Go call that matches), the Go engine
 * first adopts every queued receive as its own request, in order, and the
 * handle then stands for that request. */
#ifndef GOMPI_FASTSLOT_H
#define GOMPI_FASTSLOT_H
#include "fastpath.h"

/* Handles GOMPI_REQ_FAST0 | generation << 12 | slot are a builtin request
 * kind no other handle uses; the slot's state says what the handle stands
 * for now. The generation changes each time the slot is handed out, so a
 * stale copy of a completed receive's handle names nothing (MPI_ERR_REQUEST
 * from Go) instead of the receive that reuses the slot. */
#define GOMPI_REQ_FAST0 0x6c100000
#define GOMPI_FAST_SLOTS 4096 /* the low 12 bits */
#define GOMPI_FAST_SLOT_MASK 0xfffu
#define GOMPI_FAST_GEN_SHIFT 12
#define GOMPI_FAST_GEN_MASK 0xffu
enum { GOMPI_SLOT_FREE, GOMPI_SLOT_DONE, GOMPI_SLOT_POSTED, GOMPI_SLOT_ADOPTED };
typedef struct {
    void *buf;
    uint64_t cap;
    int32_t source, tag, count; /* asked for while posted, the status once done */
    int32_t next;               /* free list or the source's queue */
    int32_t state;
    int32_t ucount, dtype; /* the call's count and datatype, for adoption */
    gompi_fcomm *comm;     /* posted on (source and tag are its ranks and tags) */
    int32_t goh;           /* the Go request handle once adopted */
    uint32_t gen;          /* generation of the slot's current handle */
} gompi_fslot;
extern gompi_fslot gompi_fast_slots[GOMPI_FAST_SLOTS];
extern int32_t gompi_fast_free; /* free-list head, -1 when all are in use */

static inline gompi_fslot *gompi_fast_slot(MPI_Request r)
{
    if (((unsigned)r & 0xfff00000u) != (unsigned)GOMPI_REQ_FAST0) return NULL;
    gompi_fslot *d = &gompi_fast_slots[(unsigned)r & GOMPI_FAST_SLOT_MASK];
    if (d->gen != (((unsigned)r >> GOMPI_FAST_GEN_SHIFT) & GOMPI_FAST_GEN_MASK)) return NULL;
    return d;
}

/* gompi_fast_handle: r may complete in C (a fast send or a slot). The fast
 * completion calls give up at the first handle that may not, so the C side
 * tries only when the first one may (and spares Go handles the MULTIPLE
 * lock's extra atomics). */
static inline int gompi_fast_handle(MPI_Request r)
{
    return r == GOMPI_REQ_SEND_DONE || ((unsigned)r & 0xfff00000u) == (unsigned)GOMPI_REQ_FAST0;
}

/* A slot's state is written by whichever thread matches it (under its
 * ring's consumer lock at MULTIPLE) and read by the thread completing it:
 * release and acquire, plain moves on x86. */
static inline int32_t gompi_slot_state(const gompi_fslot *d) { return __atomic_load_n(&d->state, __ATOMIC_ACQUIRE); }
static inline void gompi_slot_set(gompi_fslot *d, int32_t v) { __atomic_store_n(&d->state, v, __ATOMIC_RELEASE); }

/* gompi_fast_posted_add counts queued receives (other threads' C calls
 * change the count too at MULTIPLE). */
static inline void gompi_fast_posted_add(int32_t v)
{
    if (__builtin_expect(!gompi_fast.mt, 1))
        gompi_fast.posted += v;
    else
        __atomic_add_fetch(&gompi_fast.posted, v, __ATOMIC_RELAXED);
}

static inline gompi_fslot *gompi_fast_new_slot(MPI_Request *req)
{
    gompi_spin_lock(&gompi_fast.slots_lock);
    int32_t s = gompi_fast_free;
    if (s < 0) {
        gompi_spin_unlock(&gompi_fast.slots_lock);
        return NULL;
    }
    gompi_fslot *d = &gompi_fast_slots[s];
    gompi_fast_free = d->next;
    gompi_spin_unlock(&gompi_fast.slots_lock);
    d->gen = (d->gen + 1) & GOMPI_FAST_GEN_MASK;
    *req = (MPI_Request)(GOMPI_REQ_FAST0 | d->gen << GOMPI_FAST_GEN_SHIFT | (uint32_t)s);
    return d;
}

/* gompi_fast_release returns handle r's slot to the free list (also called
 * from Go when the engine completed an adopted receive). */
static inline void gompi_fast_release(MPI_Request r)
{
    int32_t s = (int32_t)((unsigned)r & GOMPI_FAST_SLOT_MASK);
    gompi_slot_set(&gompi_fast_slots[s], GOMPI_SLOT_FREE);
    gompi_spin_lock(&gompi_fast.slots_lock);
    gompi_fast_slots[s].next = gompi_fast_free;
    gompi_fast_free = s;
    gompi_spin_unlock(&gompi_fast.slots_lock);
}

/* gompi_fast_finish writes a finished slot's status and frees it. */
static inline void gompi_fast_finish(MPI_Request *r, MPI_Status *status)
{
    gompi_fslot *d = &gompi_fast_slots[(unsigned)*r & GOMPI_FAST_SLOT_MASK];
    if (!GOMPI_STATUS_IGNORED(status)) {
        status->count_lo = d->count;
        status->count_hi_and_cancelled = 0;
        status->MPI_SOURCE = d->source;
        status->MPI_TAG = d->tag;
        status->MPI_ERROR = MPI_SUCCESS;
    }
    gompi_fast_release(*r);
    *r = MPI_REQUEST_NULL;
}

/* gompi_fast_ready says what a completion call can do with handle r in C:
 * 1 complete (a fast send or a finished slot), 0 queued here, -1 the Go
 * engine's business. */
static inline int gompi_fast_ready(MPI_Request r)
{
    if (r == GOMPI_REQ_SEND_DONE) return 1;
    gompi_fslot *d = gompi_fast_slot(r);
    if (!d) return -1;
    int32_t st = gompi_slot_state(d);
    if (st == GOMPI_SLOT_DONE) return 1;
    return st == GOMPI_SLOT_POSTED ? 0 : -1;
}

/* gompi_fast_queued: a receive on c is queued from world rank w (w's
 * consumer lock held at MULTIPLE). */
static inline int gompi_fast_queued(const gompi_fcomm *c, int w)
{
    for (int32_t s = gompi_fast.qhead[w]; s >= 0; s = gompi_fast_slots[s].next)
        if (gompi_fast_slots[s].comm == c) return 1;
    return 0;
}

/* gompi_fast_match hands the record at the head of world rank w's ring to
 * the first receive queued from w on its communicator whose tag matches
 * (w's consumer lock held at MULTIPLE): 1 matched, 0 nothing arrived, -1
 * the Go engine must take over, -2 no receive for it is queued (yet). */
static inline int gompi_fast_match(int w)
{
    gompi_match_hdr *h;
    uint64_t n;
    int k = gompi_fast_head(w, &h, &n);
    if (k <= 0) return k;
    int32_t prev = -1, s = gompi_fast.qhead[w];
    while (s >= 0) {
        gompi_fslot *q = &gompi_fast_slots[s];
        if (q->comm->ctx == h->ctx && (q->tag == MPI_ANY_TAG || q->tag == h->tag)) break;
        prev = s;
        s = q->next;
    }
    if (s < 0) return -2; /* unexpected: the Go engine queues it, unless its receive comes */
    gompi_fslot *d = &gompi_fast_slots[s];
    gompi_fcomm *c = d->comm;
    /* out of order, Go state on c, truncation: the Go engine's business */
    if (!gompi_fast_inorder(c, h) || n > d->cap) return -1;
    if (n) memcpy(d->buf, h + 1, n);
    d->tag = h->tag;
    d->count = (int32_t)n;
    if (prev < 0)
        gompi_fast.qhead[w] = d->next;
    else
        gompi_fast_slots[prev].next = d->next;
    if (gompi_fast.qtail[w] == s) gompi_fast.qtail[w] = prev;
    gompi_fast_posted_add(-1);
    gompi_fast_consume(c, d->source, w, n);
    gompi_slot_set(d, GOMPI_SLOT_DONE); /* last: the owner may complete and reuse it at once */
    return 1;
}

/* gompi_fast_poll matches what has arrived for the queued receives: the
 * number matched, or -1 when the Go engine must take over. At MULTIPLE a
 * ring another thread is consuming is skipped, and a message whose
 * receive is not queued yet waits a while for its thread to post it (the
 * caller's spin is bounded). */
static inline int gompi_fast_poll(void)
{
    if (*gompi_fast.pending) return -1; /* queued sends wait for the Go engine */
    int got = 0;
    for (int w = 0; w < gompi_fast.size && __atomic_load_n(&gompi_fast.posted, __ATOMIC_RELAXED) > 0; w++) {
        if (__atomic_load_n(&gompi_fast.qhead[w], __ATOMIC_RELAXED) < 0) continue;
        int32_t *lock = &gompi_fast.peers[w].in_lock;
        if (gompi_fast.mt && !gompi_fast_peek(w)) continue; /* nothing there: no atomic */
        if (!gompi_spin_trylock(lock)) continue;
        int m = 0;
        while (gompi_fast.qhead[w] >= 0 && (m = gompi_fast_match(w)) > 0)
            got++;
        gompi_spin_unlock(lock);
        if (m == -2 && gompi_fast.mt) m = 0;
        if (m < 0) return -1;
    }
    return got;
}

/* gompi_fast_irecv serves MPI_Irecv in C: it finishes at once when the
 * message is already in the ring, else queues the receive while the Go
 * engine has nothing the message could match first. */
static inline int gompi_fast_irecv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                                   MPI_Request *req)
{
    uint64_t cap, n;
    int mtag;
    gompi_fcomm *c;
    if (!req || !(c = gompi_fast_args(buf, count, dt, src, tag, comm, &cap))) return -1;
    int w = c->world[src];
    if (!gompi_fast.peers[w].in.data) return -1;
    gompi_fslot *d = gompi_fast_new_slot(req);
    if (!d) return -1;
    int32_t *lock = &gompi_fast.peers[w].in_lock;
    gompi_spin_lock(lock);
    int got = -1;
    if (gompi_fast.qhead[w] < 0)
        got = gompi_fast_take(c, buf, cap, src, w, tag, &mtag, &n);
    else if (!*c->busy && !*gompi_fast.pending)
        got = 0;
    if (got == -1) {
        gompi_spin_unlock(lock);
        gompi_fast_release(*req);
        return -1;
    }
    if (got == 1) {
        gompi_spin_unlock(lock);
        d->source = src;
        d->tag = mtag;
        d->count = (int32_t)n;
        gompi_slot_set(d, GOMPI_SLOT_DONE);
        return MPI_SUCCESS;
    }
    /* not there yet, or behind another communicator's message: queued */
    d->buf = buf;
    d->cap = cap;
    d->source = src;
    d->tag = tag;
    d->ucount = count;
    d->dtype = (int32_t)dt;
    d->comm = c;
    gompi_slot_set(d, GOMPI_SLOT_POSTED);
    d->next = -1;
    int32_t s = (int32_t)((unsigned)*req & GOMPI_FAST_SLOT_MASK);
    if (gompi_fast.qtail[w] < 0)
        gompi_fast.qhead[w] = s;
    else
        gompi_fast_slots[gompi_fast.qtail[w]].next = s;
    gompi_fast.qtail[w] = s;
    gompi_fast_posted_add(1);
    gompi_spin_unlock(lock);
    return MPI_SUCCESS;
}

/* gompi_fast_wait_all spins until every handle in reqs can complete in C:
 * 1 when they all can, 0 when the Go engine must finish the job,
 * GOMPI_FAST_UNLOCKED when it must and the reader lock is already left. */
static inline int gompi_fast_wait_all(int count, MPI_Request *reqs)
{
    int i = 0, k = 1, asides = 0;
    for (int spin = 0; spin < gompi_fast.spin; spin++) {
        while (i < count && (k = gompi_fast_ready(reqs[i])) == 1)
            i++;
        if (i == count) return 1;
        if (k < 0) return 0;
        int got = gompi_fast_poll();
        if (got < 0) return 0;
        if (got == 0) {
            if (*gompi_fast.timed) return 0;
            if (gompi_fast_others()) {
                if (++asides > GOMPI_FAST_ASIDES) return 0;
                if (!gompi_fast_step_aside()) return GOMPI_FAST_UNLOCKED;
            }
            gompi_fast_idle(spin);
        }
    }
    return 0;
}

/* gompi_fast_test_all is one look for MPI_Test/MPI_Testall: 1 all can
 * complete in C, 0 not yet (flag false, no Go call), -1 ask the Go engine.
 * Every 64th fruitless look goes to Go anyway, so nonblocking collectives
 * and other Go-side work progress under a test loop. */
static inline int gompi_fast_test_all(int count, MPI_Request *reqs)
{
    static unsigned idle;
    int posted = 0;
    for (int pass = 0; pass < 2; pass++) {
        posted = 0;
        for (int i = 0; i < count; i++) {
            int k = gompi_fast_ready(reqs[i]);
            if (k < 0) return -1;
            posted += k == 0;
        }
        if (!posted) return 1;
        if (pass == 0 && gompi_fast_poll() < 0) return -1;
    }
    return (++idle & 63) ? 0 : -1;
}
#endif
