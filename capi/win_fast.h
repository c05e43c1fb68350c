/* One-sided fast path in C: MPI_Put/Get of predefined types and the 4/8-byte
 * integer atomics to a target whose memory is mapped here, inside an open
 * access epoch, done without crossing into Go. The Go side (win_fast.go)
 * publishes per window the targets' bases, sizes and displacement units and,
 * after every synchronisation call, which targets are in an access epoch.
 * Anything else (derived types, errors, dynamic windows, single copy) takes
 * the Go path, which checks and reports it. */
#ifndef GOMPI_WIN_FAST_H
#define GOMPI_WIN_FAST_H
#include <stdint.h>
#include <string.h>
#include "gompi.h"
#include "fastpath.h"

#define GOMPI_WINFAST_MAX 64

typedef struct {
    int32_t n;            /* ranks; 0: no fast path for this window */
    int32_t atomics;      /* every origin uses CPU atomics on 4/8-byte elements */
    int32_t passive;      /* some target is locked (MPI_Win_flush_all is legal) */
    unsigned char *acc;   /* per target: 1 in an access epoch, 2 in a passive one */
    char **base;          /* per target: its window memory in this process */
    int64_t *size, *du;
} gompi_winfast_t;

extern gompi_winfast_t gompi_winfast[GOMPI_WINFAST_MAX];

/* gompi_winfast_at finds where bytes of target rank at disp are, or NULL. */
static inline char *gompi_winfast_at(MPI_Win win, int rank, MPI_Aint disp, int64_t bytes, gompi_winfast_t **wp)
{
    unsigned idx = (unsigned)win & 0x3ffffff;
    if (((unsigned)win >> 26) != 0x28 || idx >= GOMPI_WINFAST_MAX) return NULL;
    gompi_winfast_t *w = &gompi_winfast[idx];
    if ((unsigned)rank >= (unsigned)w->n || !w->acc[rank] || disp < 0 || bytes <= 0) return NULL;
    int64_t off;
    if (__builtin_mul_overflow((int64_t)disp, w->du[rank], &off) || off > w->size[rank] ||
        bytes > w->size[rank] - off)
        return NULL;
    *wp = w;
    return w->base[rank] + off;
}

/* gompi_winfast_flush is MPI_Win_flush and flush_local (rank >= 0) and the
 * _all forms (rank < 0) in a passive-target epoch: operations completed at
 * their calls, so a memory fence is all there is to do; 0 when done. */
static inline int gompi_winfast_flush(MPI_Win win, int rank)
{
    unsigned idx = (unsigned)win & 0x3ffffff;
    if (((unsigned)win >> 26) != 0x28 || idx >= GOMPI_WINFAST_MAX) return -1;
    gompi_winfast_t *w = &gompi_winfast[idx];
    if (w->n == 0) return -1;
    if (rank < 0 ? !w->passive : (unsigned)rank >= (unsigned)w->n || w->acc[rank] != 2) return -1;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return 0;
}

/* gompi_winfast_copy is MPI_Put (put != 0) and MPI_Get; 0 when done. */
static inline int gompi_winfast_copy(int put, void *buf, int oc, MPI_Datatype odt, int rank, MPI_Aint disp, int tc,
                                     MPI_Datatype tdt, MPI_Win win)
{
    if (odt != tdt || oc != tc) return -1;
    int s = gompi_builtin_size(odt);
    if (s <= 0) return -1;
    gompi_winfast_t *w;
    char *p = gompi_winfast_at(win, rank, disp, (int64_t)s * oc, &w);
    if (p == NULL) return -1;
    if (put)
        memcpy(p, buf, (size_t)s * (size_t)oc);
    else
        memcpy(buf, p, (size_t)s * (size_t)oc);
    return 0;
}

/* gompi_winfast_isize is the size of a C integer type the atomics handle. */
static inline int gompi_winfast_isize(MPI_Datatype dt)
{
    switch (dt) {
    case MPI_CHAR: case MPI_SIGNED_CHAR: case MPI_UNSIGNED_CHAR: case MPI_INT8_T: case MPI_UINT8_T:
        return 1;
    case MPI_SHORT: case MPI_UNSIGNED_SHORT: case MPI_INT16_T: case MPI_UINT16_T:
        return 2;
    case MPI_INT: case MPI_UNSIGNED: case MPI_INT32_T: case MPI_UINT32_T:
        return 4;
    case MPI_LONG: case MPI_UNSIGNED_LONG: case MPI_LONG_LONG_INT: case MPI_UNSIGNED_LONG_LONG:
    case MPI_INT64_T: case MPI_UINT64_T: case MPI_AINT:
        return 8;
    }
    return 0;
}

#define GOMPI_WINFAST_RMW(T)                                                               \
    do {                                                                                   \
        T v = op == MPI_NO_OP ? 0 : *(const T *)in, old;                                   \
        if (op == MPI_SUM) old = __atomic_fetch_add((T *)p, v, __ATOMIC_SEQ_CST);          \
        else if (op == MPI_REPLACE) old = __atomic_exchange_n((T *)p, v, __ATOMIC_SEQ_CST); \
        else old = __atomic_load_n((T *)p, __ATOMIC_SEQ_CST);                              \
        if (res) *(T *)res = old;                                                          \
    } while (0)

#define GOMPI_WINFAST_CAS(T)                                                                        \
    do {                                                                                            \
        T expect = *(const T *)cmp;                                                                 \
        __atomic_compare_exchange_n((T *)p, &expect, *(const T *)in, 0, __ATOMIC_SEQ_CST,           \
                                    __ATOMIC_SEQ_CST);                                              \
        *(T *)res = expect;                                                                         \
    } while (0)

/* gompi_winfast_fop is MPI_Fetch_and_op with SUM, REPLACE or NO_OP on C
 * integers (res may be NULL: MPI_Accumulate of one element); 0 when done.
 * The Go path does the same elements with CPU atomics too (1- and 2-byte
 * ones by a CAS on their word), so both are atomic against each other. */
static inline int gompi_winfast_fop(const void *in, void *res, MPI_Datatype dt, int rank, MPI_Aint disp, MPI_Op op,
                                    MPI_Win win)
{
    int s = gompi_winfast_isize(dt);
    if (s == 0 || (op != MPI_SUM && op != MPI_REPLACE && op != MPI_NO_OP)) return -1;
    gompi_winfast_t *w;
    char *p = gompi_winfast_at(win, rank, disp, s, &w);
    if (p == NULL || !w->atomics || ((uintptr_t)p & (uintptr_t)(s - 1))) return -1;
    switch (s) {
    case 1: GOMPI_WINFAST_RMW(uint8_t); break;
    case 2: GOMPI_WINFAST_RMW(uint16_t); break;
    case 4: GOMPI_WINFAST_RMW(uint32_t); break;
    default: GOMPI_WINFAST_RMW(uint64_t); break;
    }
    return 0;
}

/* gompi_winfast_cas is MPI_Compare_and_swap of a 1/2/4/8-byte predefined type. */
static inline int gompi_winfast_cas(const void *in, const void *cmp, void *res, MPI_Datatype dt, int rank,
                                    MPI_Aint disp, MPI_Win win)
{
    int s = gompi_builtin_size(dt);
    if (s != 1 && s != 2 && s != 4 && s != 8) return -1;
    gompi_winfast_t *w;
    char *p = gompi_winfast_at(win, rank, disp, s, &w);
    if (p == NULL || !w->atomics || ((uintptr_t)p & (uintptr_t)(s - 1))) return -1;
    switch (s) {
    case 1: GOMPI_WINFAST_CAS(uint8_t); break;
    case 2: GOMPI_WINFAST_CAS(uint16_t); break;
    case 4: GOMPI_WINFAST_CAS(uint32_t); break;
    default: GOMPI_WINFAST_CAS(uint64_t); break;
    }
    return 0;
}
#endif
