/* Shared by the rma_*.c tests: every window flavour opened the same way, the
 * derived datatypes used on origin and target sides with the element offsets
 * they select, and one driver (rma_matrix) that runs put, get, accumulate and
 * get_accumulate for every pair of layouts in one synchronisation mode and
 * checks every int of every buffer involved afterwards.
 *
 * Pattern: each rank targets (rank+1)%np and is the target of (rank-1)%np
 * only, so every window location has one writer per epoch and the expected
 * values are exact. */
#ifndef GOMPI_TEST_RMA_COMMON_H
#define GOMPI_TEST_RMA_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---- window flavours ---- */

enum {
    FL_CREATE_SMALL,  /* MPI_Win_create on malloc'd 8 KiB, disp_unit 1 */
    FL_CREATE_LARGE,  /* MPI_Win_create on malloc'd 128 KiB, disp_unit 4 */
    FL_CREATE_STATIC, /* MPI_Win_create on a static array, disp_unit 4 */
    FL_CREATE_STACK,  /* MPI_Win_create on the stack (rma_matrix's frame), disp_unit 4 */
    FL_ALLOCATE,      /* MPI_Win_allocate 128 KiB */
    FL_SHARED,        /* MPI_Win_allocate_shared 128 KiB */
    FL_DYNAMIC,       /* MPI_Win_create_dynamic + MPI_Win_attach of 128 KiB */
    NFLAVOURS
};

static const char *flavour_name[NFLAVOURS] __attribute__((unused)) = {
    "create-small", "create-large", "create-static", "create-stack", "allocate", "shared", "dynamic"};

#define SMALL_INTS 2048  /* 8 KiB */
#define LARGE_INTS 32768 /* 128 KiB */

typedef struct {
    MPI_Win win;
    int flavour;
    int *base;       /* this rank's window memory */
    int nints;       /* its length in ints */
    int disp_unit;   /* the same on every rank */
    MPI_Aint *disp0; /* per rank: the target displacement of the window's first byte */
    void *mem;       /* what to free (malloc'd) */
} rwin_t;

static int rma_static_buf[LARGE_INTS];

/* rwin_open opens a window of the given flavour on comm; stack is memory the
 * caller owns for FL_CREATE_STACK (LARGE_INTS ints). */
static void rwin_open(rwin_t *w, int flavour, MPI_Comm comm, int *stack) {
    int np;
    MPI_Comm_size(comm, &np);
    memset(w, 0, sizeof *w);
    w->flavour = flavour;
    w->disp0 = calloc(np, sizeof(MPI_Aint));
    w->nints = flavour == FL_CREATE_SMALL ? SMALL_INTS : LARGE_INTS;
    w->disp_unit = flavour == FL_CREATE_SMALL || flavour == FL_DYNAMIC ? 1 : (int)sizeof(int);
    MPI_Aint bytes = (MPI_Aint)w->nints * sizeof(int);
    switch (flavour) {
    case FL_CREATE_SMALL:
    case FL_CREATE_LARGE:
        w->mem = w->base = malloc(bytes);
        CHECK_MPI(MPI_Win_create(w->base, bytes, w->disp_unit, MPI_INFO_NULL, comm, &w->win));
        break;
    case FL_CREATE_STATIC:
        w->base = rma_static_buf;
        CHECK_MPI(MPI_Win_create(w->base, bytes, w->disp_unit, MPI_INFO_NULL, comm, &w->win));
        break;
    case FL_CREATE_STACK:
        w->base = stack;
        CHECK_MPI(MPI_Win_create(w->base, bytes, w->disp_unit, MPI_INFO_NULL, comm, &w->win));
        break;
    case FL_ALLOCATE:
        CHECK_MPI(MPI_Win_allocate(bytes, w->disp_unit, MPI_INFO_NULL, comm, &w->base, &w->win));
        break;
    case FL_SHARED:
        CHECK_MPI(MPI_Win_allocate_shared(bytes, w->disp_unit, MPI_INFO_NULL, comm, &w->base, &w->win));
        break;
    case FL_DYNAMIC: {
        w->mem = w->base = malloc(bytes);
        CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w->win));
        CHECK_MPI(MPI_Win_attach(w->win, w->base, bytes));
        MPI_Aint mine;
        CHECK_MPI(MPI_Get_address(w->base, &mine));
        CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, w->disp0, 1, MPI_AINT, comm));
        break;
    }
    }
}

static void rwin_close(rwin_t *w) {
    if (w->flavour == FL_DYNAMIC)
        CHECK_MPI(MPI_Win_detach(w->win, w->base));
    CHECK_MPI(MPI_Win_free(&w->win));
    CHECK(w->win == MPI_WIN_NULL, "Win_free did not set the handle to MPI_WIN_NULL");
    free(w->mem);
    free(w->disp0);
}

/* tdisp is the target displacement of int idx of rank t's window. */
static MPI_Aint tdisp(const rwin_t *w, int t, int idx) {
    return w->disp0[t] + (MPI_Aint)idx * (MPI_Aint)sizeof(int) / w->disp_unit;
}

/* ---- layouts: NEL ints selected by a datatype and a count ---- */

#define NEL 24
enum { L_CONTIG, L_VECTOR, L_INDEXED, L_STRUCT, L_RESIZED, NLAYOUTS };
static const char *layout_name[NLAYOUTS] __attribute__((unused)) = {"contig", "vector", "indexed",
                                                                     "struct", "resized"};

typedef struct {
    MPI_Datatype type;
    int count;
    int off[NEL]; /* int index of element i (in type-map order) */
    int span;     /* ints from the first to past the last one touched */
} layout_t;

static void layout_make(layout_t *l, int kind) {
    int n = 0;
    switch (kind) {
    case L_CONTIG:
        l->type = MPI_INT;
        l->count = NEL;
        for (int i = 0; i < NEL; i++)
            l->off[n++] = i;
        break;
    case L_VECTOR: /* 12 blocks of 2, stride 3 */
        CHECK_MPI(MPI_Type_vector(12, 2, 3, MPI_INT, &l->type));
        l->count = 1;
        for (int b = 0; b < 12; b++)
            for (int j = 0; j < 2; j++)
                l->off[n++] = 3 * b + j;
        break;
    case L_INDEXED: { /* blocks out of address order */
        int len[8] = {3, 1, 4, 2, 5, 1, 6, 2}, dis[8] = {10, 0, 2, 14, 17, 24, 27, 35};
        CHECK_MPI(MPI_Type_indexed(8, len, dis, MPI_INT, &l->type));
        l->count = 1;
        for (int b = 0; b < 8; b++)
            for (int j = 0; j < len[b]; j++)
                l->off[n++] = dis[b] + j;
        break;
    }
    case L_STRUCT: { /* ints at 0, 3-4 and 7 of 8: gaps inside and at the end */
        int len[3] = {1, 2, 1};
        MPI_Aint dis[3] = {0, 12, 28};
        MPI_Datatype ty[3] = {MPI_INT, MPI_INT, MPI_INT};
        CHECK_MPI(MPI_Type_create_struct(3, len, dis, ty, &l->type));
        l->count = 6;
        for (int k = 0; k < 6; k++) {
            l->off[n++] = 8 * k;
            l->off[n++] = 8 * k + 3;
            l->off[n++] = 8 * k + 4;
            l->off[n++] = 8 * k + 7;
        }
        break;
    }
    case L_RESIZED: { /* 3 ints stretched to an extent of 5 */
        MPI_Datatype c;
        CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &c));
        CHECK_MPI(MPI_Type_create_resized(c, 0, 5 * sizeof(int), &l->type));
        CHECK_MPI(MPI_Type_free(&c));
        l->count = 8;
        for (int k = 0; k < 8; k++)
            for (int j = 0; j < 3; j++)
                l->off[n++] = 5 * k + j;
        break;
    }
    }
    if (l->type != MPI_INT)
        CHECK_MPI(MPI_Type_commit(&l->type));
    CHECK(n == NEL, "layout %d selects %d ints", kind, n);
    int size;
    MPI_Type_size(l->type, &size);
    CHECK(size * l->count == NEL * (int)sizeof(int), "layout %d: %d bytes", kind, size * l->count);
    l->span = 0;
    for (int i = 0; i < NEL; i++)
        if (l->off[i] + 1 > l->span)
            l->span = l->off[i] + 1;
}

static void layout_free(layout_t *l) {
    if (l->type != MPI_INT)
        CHECK_MPI(MPI_Type_free(&l->type));
}

/* ---- the matrix of operations ---- */

enum { OP_PUT, OP_GET, OP_ACC, OP_GACC, NOPS };
static const char *op_name[NOPS] __attribute__((unused)) = {"put", "get", "accumulate", "get_accumulate"};

enum { SY_FENCE, SY_PSCW, SY_LOCK_EXCL, SY_LOCK_SHARED, SY_LOCKALL_FLUSH, SY_LOCK_FLUSH_LOCAL };

#define SLOT 64                        /* ints per layout pair in window and buffers */
#define NPAIRS (NLAYOUTS * NLAYOUTS)   /* pair p: origin layout p/NLAYOUTS, target p%NLAYOUTS */
#define BIG_OFF (NPAIRS * SLOT + 256)  /* large windows: one 64 KiB contiguous transfer here */
#define BIG_N 16384
#define BUF_INTS (BIG_OFF + BIG_N)

/* Values: V what origin src sends for pair p element i; W what a window holds
 * before get/accumulate; S a window's and O an origin buffer's untouched
 * sentinel. All distinct and far from each other. */
static int V(int src, int p, int i) { return 1000000 * (src + 1) + 1000 * p + i + 1; }
static int W(int owner, int idx) { return 20000000 + 100000 * owner + idx; }
static int S(int owner, int idx) { return -(100000 * owner + idx + 1); }
static int O(int idx) { return -50000000 - idx; }

/* rma_failed_where prints the first few mismatches in detail, then counts. */
static int rma_bad;
#define EXPECT_INT(got, want, ...)                                                             \
    do {                                                                                       \
        int g_ = (got), w_ = (want);                                                           \
        if (g_ != w_) {                                                                        \
            if (rma_bad++ < 8) {                                                               \
                CHECK(g_ == w_, __VA_ARGS__);                                                  \
                fprintf(stderr, "        got %d want %d\n", g_, w_);                           \
            } else                                                                             \
                check_failures++;                                                              \
        }                                                                                      \
    } while (0)

static int big_enough(const rwin_t *w) { return w->nints >= BIG_OFF + BIG_N; }

/* issue starts every transfer of one op from this rank to target t. */
static void issue(int op, const rwin_t *w, int t, layout_t *L, int *obuf, int *rbuf) {
    for (int p = 0; p < NPAIRS; p++) {
        layout_t *lo = &L[p / NLAYOUTS], *lt = &L[p % NLAYOUTS];
        int *ob = obuf + p * SLOT, *rb = rbuf + p * SLOT;
        MPI_Aint d = tdisp(w, t, p * SLOT);
        switch (op) {
        case OP_PUT:
            CHECK_MPI(MPI_Put(ob, lo->count, lo->type, t, d, lt->count, lt->type, w->win));
            break;
        case OP_GET:
            CHECK_MPI(MPI_Get(ob, lo->count, lo->type, t, d, lt->count, lt->type, w->win));
            break;
        case OP_ACC:
            CHECK_MPI(MPI_Accumulate(ob, lo->count, lo->type, t, d, lt->count, lt->type, MPI_SUM, w->win));
            break;
        case OP_GACC:
            CHECK_MPI(MPI_Get_accumulate(ob, lo->count, lo->type, rb, lo->count, lo->type, t, d, lt->count,
                                         lt->type, MPI_SUM, w->win));
            break;
        }
    }
    if (!big_enough(w))
        return;
    MPI_Aint d = tdisp(w, t, BIG_OFF);
    int *ob = obuf + BIG_OFF, *rb = rbuf + BIG_OFF;
    switch (op) {
    case OP_PUT: CHECK_MPI(MPI_Put(ob, BIG_N, MPI_INT, t, d, BIG_N, MPI_INT, w->win)); break;
    case OP_GET: CHECK_MPI(MPI_Get(ob, BIG_N, MPI_INT, t, d, BIG_N, MPI_INT, w->win)); break;
    case OP_ACC: CHECK_MPI(MPI_Accumulate(ob, BIG_N, MPI_INT, t, d, BIG_N, MPI_INT, MPI_SUM, w->win)); break;
    case OP_GACC:
        CHECK_MPI(MPI_Get_accumulate(ob, BIG_N, MPI_INT, rb, BIG_N, MPI_INT, t, d, BIG_N, MPI_INT, MPI_SUM,
                                     w->win));
        break;
    }
}

/* init_local prepares this rank's window and buffers before an op. */
static void init_local(int op, const rwin_t *w, int me, int *obuf, int *rbuf, layout_t *L) {
    for (int i = 0; i < w->nints; i++)
        w->base[i] = op == OP_PUT ? S(me, i) : W(me, i);
    for (int i = 0; i < BUF_INTS; i++) {
        obuf[i] = O(i);
        rbuf[i] = O(i) - 7;
    }
    if (op == OP_GET)
        return;
    for (int p = 0; p < NPAIRS; p++)
        for (int i = 0; i < NEL; i++)
            obuf[p * SLOT + L[p / NLAYOUTS].off[i]] = V(me, p, i);
    for (int i = 0; i < BIG_N; i++)
        obuf[BIG_OFF + i] = V(me, NPAIRS, i);
}

/* check_window checks this rank's window after source's op on it. */
static void check_window(int op, const rwin_t *w, int me, int src, layout_t *L, const char *what) {
    int *want = malloc(w->nints * sizeof(int));
    for (int i = 0; i < w->nints; i++)
        want[i] = op == OP_PUT ? S(me, i) : W(me, i);
    if (op != OP_GET) {
        for (int p = 0; p < NPAIRS; p++)
            for (int i = 0; i < NEL; i++) {
                int idx = p * SLOT + L[p % NLAYOUTS].off[i];
                want[idx] = op == OP_PUT ? V(src, p, i) : W(me, idx) + V(src, p, i);
            }
        if (big_enough(w))
            for (int i = 0; i < BIG_N; i++)
                want[BIG_OFF + i] = op == OP_PUT ? V(src, NPAIRS, i) : W(me, BIG_OFF + i) + V(src, NPAIRS, i);
    }
    for (int i = 0; i < w->nints; i++)
        EXPECT_INT(w->base[i], want[i], "%s %s %s: window int %d (pair %d: %s->%s)", what,
                   flavour_name[w->flavour], op_name[op], i, i / SLOT,
                   i / SLOT < NPAIRS ? layout_name[i / SLOT / NLAYOUTS] : "-",
                   i / SLOT < NPAIRS ? layout_name[i / SLOT % NLAYOUTS] : "-");
    free(want);
}

/* check_origin checks this rank's get or get_accumulate results from t. */
static void check_origin(int op, const rwin_t *w, int t, int *obuf, int *rbuf, layout_t *L, const char *what) {
    if (op != OP_GET && op != OP_GACC)
        return;
    int *buf = op == OP_GET ? obuf : rbuf, delta = op == OP_GET ? 0 : -7;
    int *want = malloc(BUF_INTS * sizeof(int));
    for (int i = 0; i < BUF_INTS; i++)
        want[i] = O(i) + delta;
    for (int p = 0; p < NPAIRS; p++)
        for (int i = 0; i < NEL; i++)
            want[p * SLOT + L[p / NLAYOUTS].off[i]] = W(t, p * SLOT + L[p % NLAYOUTS].off[i]);
    int n = big_enough(w) ? BUF_INTS : NPAIRS * SLOT;
    if (big_enough(w))
        for (int i = 0; i < BIG_N; i++)
            want[BIG_OFF + i] = W(t, BIG_OFF + i);
    for (int i = 0; i < n; i++)
        EXPECT_INT(buf[i], want[i], "%s %s %s: origin int %d (pair %d)", what, flavour_name[w->flavour],
                   op_name[op], i, i / SLOT);
    free(want);
}

/* ring_group is the group of one rank of comm's. */
static MPI_Group ring_group(MPI_Comm comm, int rank) {
    MPI_Group g, one;
    MPI_Comm_group(comm, &g);
    MPI_Group_incl(g, 1, &rank, &one);
    MPI_Group_free(&g);
    return one;
}

/* rma_one runs one op on an open window in sync mode sy and checks it. */
static void rma_one(int sy, int op, rwin_t *w, MPI_Comm comm, layout_t *L, int *obuf, int *rbuf) {
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    int t = (me + 1) % np, src = (me + np - 1) % np;
    static const char *syname[] = {"fence", "pscw", "lock-exclusive", "lock-shared", "lock_all+flush",
                                   "lock+flush_local"};
    const char *what = syname[sy];
    rma_bad = 0;
    switch (sy) {
    case SY_FENCE:
        init_local(op, w, me, obuf, rbuf, L);
        CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win));
        issue(op, w, t, L, obuf, rbuf);
        CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
        check_window(op, w, me, src, L, what);
        check_origin(op, w, t, obuf, rbuf, L, what);
        break;
    case SY_PSCW: {
        MPI_Group gt = ring_group(comm, t), gs = ring_group(comm, src);
        init_local(op, w, me, obuf, rbuf, L);
        CHECK_MPI(MPI_Win_post(gs, 0, w->win));
        CHECK_MPI(MPI_Win_start(gt, 0, w->win));
        issue(op, w, t, L, obuf, rbuf);
        CHECK_MPI(MPI_Win_complete(w->win));
        check_origin(op, w, t, obuf, rbuf, L, what);
        CHECK_MPI(MPI_Win_wait(w->win));
        check_window(op, w, me, src, L, what);
        MPI_Group_free(&gt);
        MPI_Group_free(&gs);
        break;
    }
    case SY_LOCK_EXCL:
    case SY_LOCK_SHARED:
    case SY_LOCK_FLUSH_LOCAL:
        /* Local stores under a lock on oneself reach the public copy at unlock. */
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, w->win));
        init_local(op, w, me, obuf, rbuf, L);
        CHECK_MPI(MPI_Win_unlock(me, w->win));
        MPI_Barrier(comm);
        CHECK_MPI(MPI_Win_lock(sy == SY_LOCK_SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, t, 0, w->win));
        issue(op, w, t, L, obuf, rbuf);
        if (sy == SY_LOCK_FLUSH_LOCAL) {
            /* The origin buffers are free again after flush_local: what
             * the target gets must be what they held at the call. */
            CHECK_MPI(MPI_Win_flush_local(t, w->win));
            if (op == OP_GET) {
                check_origin(op, w, t, obuf, rbuf, L, what);
            } else {
                int *keep = malloc(BUF_INTS * sizeof(int));
                memcpy(keep, obuf, BUF_INTS * sizeof(int));
                for (int i = 0; i < BUF_INTS; i++)
                    obuf[i] = -1;
                CHECK_MPI(MPI_Win_flush(t, w->win));
                check_origin(op, w, t, obuf, rbuf, L, what);
                memcpy(obuf, keep, BUF_INTS * sizeof(int));
                free(keep);
            }
        }
        CHECK_MPI(MPI_Win_unlock(t, w->win));
        check_origin(op, w, t, obuf, rbuf, L, what);
        MPI_Barrier(comm);
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, w->win));
        check_window(op, w, me, src, L, what);
        CHECK_MPI(MPI_Win_unlock(me, w->win));
        MPI_Barrier(comm);
        break;
    case SY_LOCKALL_FLUSH:
        /* The caller holds lock_all on every rank. Stores, Win_sync, barrier:
         * the canonical unified-model handoff in both directions. */
        init_local(op, w, me, obuf, rbuf, L);
        CHECK_MPI(MPI_Win_sync(w->win));
        MPI_Barrier(comm);
        issue(op, w, t, L, obuf, rbuf);
        CHECK_MPI(MPI_Win_flush(t, w->win));
        check_origin(op, w, t, obuf, rbuf, L, what);
        MPI_Barrier(comm);
        CHECK_MPI(MPI_Win_sync(w->win));
        check_window(op, w, me, src, L, what);
        MPI_Barrier(comm);
        break;
    }
}

/* rma_matrix runs every op in sync mode sy on every window flavour. */
static int rma_matrix(int sy) {
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    check_rank = me;
    int stack[LARGE_INTS];
    layout_t L[NLAYOUTS];
    for (int k = 0; k < NLAYOUTS; k++)
        layout_make(&L[k], k);
    int *obuf = malloc(BUF_INTS * sizeof(int)), *rbuf = malloc(BUF_INTS * sizeof(int));
    for (int f = 0; f < NFLAVOURS; f++) {
        rwin_t w;
        rwin_open(&w, f, MPI_COMM_WORLD, stack);
        if (sy == SY_LOCKALL_FLUSH)
            CHECK_MPI(MPI_Win_lock_all(0, w.win));
        for (int op = 0; op < NOPS; op++)
            rma_one(sy, op, &w, MPI_COMM_WORLD, L, obuf, rbuf);
        if (sy == SY_LOCKALL_FLUSH)
            CHECK_MPI(MPI_Win_unlock_all(w.win));
        rwin_close(&w);
    }
    for (int k = 0; k < NLAYOUTS; k++)
        layout_free(&L[k]);
    free(obuf);
    free(rbuf);
    return check_failures;
}

#endif
