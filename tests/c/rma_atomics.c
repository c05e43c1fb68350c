//go:build ignore

/* gompi-test: np=1,2,4,8 timeout=240 */
/* Atomics and accumulate ops, checked exactly.
 * - Fetch_and_op SUM on a long counter at rank 0, hammered by every rank
 *   (flush after each): the fetched values of all ranks together must be
 *   exactly 0..N-1 (each once), the final value N.
 * - Fetch_and_op REPLACE as a swap chain: every value written is read back
 *   exactly once (by a later swap or as the final value).
 * - Fetch_and_op MAX and MIN (final = extreme of all), NO_OP (reads only).
 * - Compare_and_swap increment loops on an int and a long long: final N.
 * - Accumulate from every rank into every rank in one fence epoch with every
 *   predefined op on every type it applies to (C integers incl. signed and
 *   unsigned char, short, int, long, unsigned long long; float, double;
 *   MPI_DOUBLE_INT/MPI_2INT with MINLOC/MAXLOC; C float/double complex with
 *   SUM/PROD), plus REPLACE; expected values folded locally in C.
 * - Get_accumulate with MPI_NO_OP and MPI_REPLACE.
 * Passes on MPICH 4.0 (Debian mpich) with np=1,2,4,8. Open MPI 4.1.4 refuses
 * windows on one process and crashes in MPI_Compare_and_swap (osc rdma over
 * btl vader's emulated atomics) with np>=2. */
#include <complex.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

static int me, np;

#define ITERS 100

static void fop_sum(MPI_Win win, long *base) {
    long one = 1, got[ITERS];
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ITERS; k++) {
        CHECK_MPI(MPI_Fetch_and_op(&one, &got[k], MPI_LONG, 0, 0, MPI_SUM, win));
        CHECK_MPI(MPI_Win_flush(0, win));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    long *all = malloc(sizeof(long) * ITERS * np);
    MPI_Gather(got, ITERS, MPI_LONG, all, ITERS, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        char *seen = calloc(ITERS * np, 1);
        for (int i = 0; i < ITERS * np; i++) {
            long v = all[i];
            CHECK(v >= 0 && v < ITERS * np && !seen[v], "fetch_and_op SUM fetched %ld (twice or out of range)", v);
            if (v >= 0 && v < ITERS * np)
                seen[v] = 1;
        }
        free(seen);
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK(base[0] == (long)ITERS * np, "fetch_and_op SUM final %ld, want %d", base[0], ITERS * np);
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    free(all);
}

/* Tokens are rank*ITERS+k+1; the initial value is 0. */
static void fop_replace(MPI_Win win, long *base) {
    long got[ITERS];
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ITERS; k++) {
        long tok = (long)me * ITERS + k + 1;
        CHECK_MPI(MPI_Fetch_and_op(&tok, &got[k], MPI_LONG, 0, 1, MPI_REPLACE, win));
        CHECK_MPI(MPI_Win_flush(0, win));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    long *all = malloc(sizeof(long) * ITERS * np);
    MPI_Gather(got, ITERS, MPI_LONG, all, ITERS, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        int n = ITERS * np;
        char *seen = calloc(n + 1, 1);
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        long final = base[1];
        CHECK_MPI(MPI_Win_unlock(0, win));
        for (int i = 0; i <= n; i++) {
            long v = i < n ? all[i] : final;
            CHECK(v >= 0 && v <= n && !seen[v], "swap chain: value %ld seen twice or out of range", v);
            if (v >= 0 && v <= n)
                seen[v] = 1;
        }
        free(seen);
    }
    free(all);
}

static void fop_minmax_noop(MPI_Win win, long *base) {
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ITERS; k++) {
        long v = (long)((me * 7919 + k * 104729) % 100003) - 50000, old;
        CHECK_MPI(MPI_Fetch_and_op(&v, &old, MPI_LONG, 0, 2, MPI_MAX, win));
        CHECK_MPI(MPI_Fetch_and_op(&v, &old, MPI_LONG, 0, 3, MPI_MIN, win));
        CHECK_MPI(MPI_Win_flush(0, win));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    long mx = -1000000, mn = 1000000;
    for (int r = 0; r < np; r++)
        for (int k = 0; k < ITERS; k++) {
            long v = (long)((r * 7919 + k * 104729) % 100003) - 50000;
            if (v > mx)
                mx = v;
            if (v < mn)
                mn = v;
        }
    MPI_Barrier(MPI_COMM_WORLD);
    long r[2], dummy = 12345;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Fetch_and_op(&dummy, &r[0], MPI_LONG, 0, 2, MPI_NO_OP, win));
    CHECK_MPI(MPI_Fetch_and_op(NULL, &r[1], MPI_LONG, 0, 3, MPI_NO_OP, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK(r[0] == mx, "fetch_and_op MAX final %ld, want %ld", r[0], mx);
    CHECK(r[1] == mn, "fetch_and_op MIN final %ld, want %ld", r[1], mn);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK(base[2] == mx && base[3] == mn, "NO_OP changed the target: %ld %ld", base[2], base[3]);
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
}

static void cas_counters(void) {
    struct {
        int i;
        int pad;
        long long ll;
    } *base;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(sizeof *base, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    base->i = 0;
    base->ll = 1LL << 40;
    CHECK_MPI(MPI_Win_unlock(me, win));
    MPI_Barrier(MPI_COMM_WORLD);
    int last = np - 1, fails = 0;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ITERS; k++) {
        int cur, next, res;
        CHECK_MPI(MPI_Fetch_and_op(NULL, &cur, MPI_INT, last, 0, MPI_NO_OP, win));
        CHECK_MPI(MPI_Win_flush(last, win));
        for (;;) {
            next = cur + 1;
            CHECK_MPI(MPI_Compare_and_swap(&next, &cur, &res, MPI_INT, last, 0, win));
            CHECK_MPI(MPI_Win_flush(last, win));
            if (res == cur)
                break;
            cur = res;
            if (++fails > 1000000) {
                CHECK(0, "compare_and_swap never succeeds");
                break;
            }
        }
        long long lcur, lnext, lres;
        CHECK_MPI(MPI_Fetch_and_op(NULL, &lcur, MPI_LONG_LONG, last, 8, MPI_NO_OP, win));
        CHECK_MPI(MPI_Win_flush(last, win));
        for (;;) {
            lnext = lcur + 3;
            CHECK_MPI(MPI_Compare_and_swap(&lnext, &lcur, &lres, MPI_LONG_LONG, last, 8, win));
            CHECK_MPI(MPI_Win_flush(last, win));
            if (lres == lcur)
                break;
            lcur = lres;
        }
    }
    /* A compare that does not match leaves the target alone. */
    int bogus = -7, cmp = -99, res;
    CHECK_MPI(MPI_Compare_and_swap(&bogus, &cmp, &res, MPI_INT, last, 0, win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == last) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
        CHECK(base->i == ITERS * np, "compare_and_swap int counter %d, want %d", base->i, ITERS * np);
        CHECK(base->ll == (1LL << 40) + 3LL * ITERS * np, "compare_and_swap long long counter %lld", base->ll);
        CHECK_MPI(MPI_Win_unlock(me, win));
    }
    CHECK_MPI(MPI_Win_free(&win));
}

/* ---- accumulate with every op on every type ---- */

#define NE 16 /* elements per (type, op) slot */

enum { O_SUM, O_PROD, O_MAX, O_MIN, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, O_REPLACE, NOP_ALL };
static MPI_Op opv[NOP_ALL];
static const char *opn[NOP_ALL] = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR", "REPLACE"};

static char *acc_base;
static MPI_Win acc_win;
#define ACC_SLOT 512 /* bytes: NE elements of up to 32 bytes */

/* contribution values: small, so sums and products stay exact (floats) or
 * wrap modulo the type (unsigned); products only use -1, 1, 2. */
static long initv(int i) { return (i % 5) + 1; }
static long contrib(int r, int i, int op) {
    if (op == O_PROD) {
        static const int f[4] = {1, 2, -1, 1};
        return f[(r + i) % 4];
    }
    if (op >= O_LAND && op <= O_LXOR)
        return (r + i) % 3; /* 0 is false */
    return ((r * 3 + i * 5) % 11) + 1;
}

/* C folds of the ops (REPLACE from several origins in one epoch has no
 * fixed order: any origin's value is right). */
#define INT_FOLD(ct, a, b, op)                                   \
    switch (op) {                                                \
    case O_SUM: a = (ct)(a + b); break;                          \
    case O_PROD: a = (ct)(a * b); break;                         \
    case O_MAX: a = a > b ? a : b; break;                        \
    case O_MIN: a = a < b ? a : b; break;                        \
    case O_LAND: a = (ct)(a && b); break;                        \
    case O_LOR: a = (ct)(a || b); break;                         \
    case O_LXOR: a = (ct)(!a != !b); break;                      \
    case O_BAND: a = (ct)(a & b); break;                         \
    case O_BOR: a = (ct)(a | b); break;                          \
    case O_BXOR: a = (ct)(a ^ b); break;                         \
    }

#define FLT_FOLD(ct, a, b, op)                                   \
    switch (op) {                                                \
    case O_SUM: a = a + b; break;                                \
    case O_PROD: a = a * b; break;                               \
    case O_MAX: a = a > b ? a : b; break;                        \
    case O_MIN: a = a < b ? a : b; break;                        \
    }

/* ACC_TEST accumulates one type with the listed ops, every rank into every
 * rank in one fence epoch, and checks each rank's window against a fold of
 * all contributions in C (for REPLACE: any one origin's value). */
#define ACC_TEST(fname, ct, mt, FOLD, ...)                                                         \
    static void fname(void) {                                                                      \
        static const int ops[] = {__VA_ARGS__};                                                    \
        const int nops = sizeof ops / sizeof ops[0];                                               \
        ct(*win)[ACC_SLOT / sizeof(ct)] = (void *)acc_base;                                         \
        ct src[NOP_ALL][NE];                                                                       \
        for (int o = 0; o < nops; o++)                                                             \
            for (int i = 0; i < NE; i++) {                                                         \
                win[o][i] = (ct)initv(i);                                                          \
                src[o][i] = (ct)contrib(me, i, ops[o]);                                            \
            }                                                                                      \
        CHECK_MPI(MPI_Win_fence(0, acc_win));                                                      \
        for (int t = 0; t < np; t++)                                                               \
            for (int o = 0; o < nops; o++)                                                         \
                CHECK_MPI(MPI_Accumulate(src[o], NE, mt, t, o * ACC_SLOT, NE, mt, opv[ops[o]],     \
                                         acc_win));                                                \
        CHECK_MPI(MPI_Win_fence(0, acc_win));                                                      \
        for (int o = 0; o < nops; o++)                                                             \
            for (int i = 0; i < NE; i++) {                                                         \
                int op = ops[o];                                                                   \
                if (op == O_REPLACE) {                                                             \
                    int ok = 0;                                                                    \
                    for (int r = 0; r < np; r++)                                                   \
                        ok |= win[o][i] == (ct)contrib(r, i, op);                                  \
                    CHECK(ok, "%s %s element %d: not any origin's value", #mt, opn[op], i);        \
                    continue;                                                                      \
                }                                                                                  \
                ct want = (ct)initv(i);                                                            \
                for (int r = 0; r < np; r++) {                                                     \
                    ct b = (ct)contrib(r, i, op);                                                  \
                    FOLD(ct, want, b, op)                                                          \
                }                                                                                  \
                CHECK(win[o][i] == want, "%s %s element %d: got %g want %g", #mt, opn[op], i,      \
                      (double)win[o][i], (double)want);                                            \
            }                                                                                      \
        MPI_Barrier(MPI_COMM_WORLD);                                                               \
    }

#define ALL_INT O_SUM, O_PROD, O_MAX, O_MIN, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, O_REPLACE
#define ALL_FLT O_SUM, O_PROD, O_MAX, O_MIN, O_REPLACE

ACC_TEST(acc_int, int, MPI_INT, INT_FOLD, ALL_INT)
ACC_TEST(acc_long, long, MPI_LONG, INT_FOLD, ALL_INT)
ACC_TEST(acc_short, short, MPI_SHORT, INT_FOLD, ALL_INT)
ACC_TEST(acc_ushort, unsigned short, MPI_UNSIGNED_SHORT, INT_FOLD, ALL_INT)
ACC_TEST(acc_uint, unsigned, MPI_UNSIGNED, INT_FOLD, ALL_INT)
ACC_TEST(acc_schar, signed char, MPI_SIGNED_CHAR, INT_FOLD, ALL_INT)
ACC_TEST(acc_uchar, unsigned char, MPI_UNSIGNED_CHAR, INT_FOLD, ALL_INT)
ACC_TEST(acc_ulong, unsigned long, MPI_UNSIGNED_LONG, INT_FOLD, ALL_INT)
ACC_TEST(acc_llong, long long, MPI_LONG_LONG, INT_FOLD, ALL_INT)
ACC_TEST(acc_ullong, unsigned long long, MPI_UNSIGNED_LONG_LONG, INT_FOLD, ALL_INT)
ACC_TEST(acc_i8, int8_t, MPI_INT8_T, INT_FOLD, ALL_INT)
ACC_TEST(acc_u16, uint16_t, MPI_UINT16_T, INT_FOLD, ALL_INT)
ACC_TEST(acc_i32, int32_t, MPI_INT32_T, INT_FOLD, ALL_INT)
ACC_TEST(acc_u64, uint64_t, MPI_UINT64_T, INT_FOLD, ALL_INT)
ACC_TEST(acc_float, float, MPI_FLOAT, FLT_FOLD, ALL_FLT)
ACC_TEST(acc_double, double, MPI_DOUBLE, FLT_FOLD, ALL_FLT)
ACC_TEST(acc_ldouble, long double, MPI_LONG_DOUBLE, FLT_FOLD, ALL_FLT)

/* MPI_BYTE takes the bitwise ops and REPLACE. */
ACC_TEST(acc_byte, unsigned char, MPI_BYTE, INT_FOLD, O_BAND, O_BOR, O_BXOR, O_REPLACE)

/* MPI_C_BOOL takes the logical ops. */
#define BOOL_FOLD(ct, a, b, op)                    \
    switch (op) {                                  \
    case O_LAND: a = a && b; break;                \
    case O_LOR: a = a || b; break;                 \
    case O_LXOR: a = a != b; break;                \
    }
ACC_TEST(acc_bool, _Bool, MPI_C_BOOL, BOOL_FOLD, O_LAND, O_LOR, O_LXOR, O_REPLACE)

/* Complex: SUM and PROD on Gaussian integers, exact in binary floating point. */
#define CPLX_TEST(fname, ct, mt)                                                                   \
    static void fname(void) {                                                                      \
        ct *w = (ct *)acc_base, *w2 = (ct *)(acc_base + ACC_SLOT), src[NE], src2[NE];              \
        for (int i = 0; i < NE; i++) {                                                             \
            w[i] = (i % 3) + 1.0 * I;                                                              \
            w2[i] = 1;                                                                             \
            src[i] = (me + i) % 4 - 2.0 * ((i + me) % 3) * I;                                      \
            src2[i] = ((me + i) % 2) ? I : 1 + 1.0 * I;                                            \
        }                                                                                          \
        CHECK_MPI(MPI_Win_fence(0, acc_win));                                                      \
        for (int t = 0; t < np; t++) {                                                             \
            CHECK_MPI(MPI_Accumulate(src, NE, mt, t, 0, NE, mt, MPI_SUM, acc_win));                \
            CHECK_MPI(MPI_Accumulate(src2, NE, mt, t, ACC_SLOT, NE, mt, MPI_PROD, acc_win));       \
        }                                                                                          \
        CHECK_MPI(MPI_Win_fence(0, acc_win));                                                      \
        for (int i = 0; i < NE; i++) {                                                             \
            ct s = (i % 3) + 1.0 * I, p = 1;                                                       \
            for (int r = 0; r < np; r++) {                                                         \
                s += (r + i) % 4 - 2.0 * ((i + r) % 3) * I;                                        \
                p *= ((r + i) % 2) ? I : 1 + 1.0 * I;                                              \
            }                                                                                      \
            CHECK(w[i] == s, "%s SUM element %d: %g%+gi want %g%+gi", #mt, i, creal(w[i]),         \
                  cimag(w[i]), creal(s), cimag(s));                                                \
            CHECK(w2[i] == p, "%s PROD element %d: %g%+gi want %g%+gi", #mt, i, creal(w2[i]),      \
                  cimag(w2[i]), creal(p), cimag(p));                                               \
        }                                                                                          \
        MPI_Barrier(MPI_COMM_WORLD);                                                               \
    }
CPLX_TEST(acc_cfloat, float _Complex, MPI_C_FLOAT_COMPLEX)
CPLX_TEST(acc_cdouble, double _Complex, MPI_C_DOUBLE_COMPLEX)

/* MINLOC/MAXLOC on value-index pairs; ties go to the lower index. */
#define LOC_TEST(fname, vt, mt)                                                                    \
    static void fname(void) {                                                                      \
        typedef struct {                                                                           \
            vt v;                                                                                  \
            int i;                                                                                 \
        } pair;                                                                                    \
        pair *mn = (pair *)acc_base, *mx = (pair *)(acc_base + ACC_SLOT), src[NE];                 \
        for (int i = 0; i < NE; i++) {                                                             \
            mn[i].v = mx[i].v = 5;                                                                 \
            mn[i].i = mx[i].i = 100;                                                               \
            src[i].v = (vt)((me * 5 + i * 3) % 7 + 2); /* 2..8: ties with 5 and each other */      \
            src[i].i = me;                                                                         \
        }                                                                                          \
        CHECK_MPI(MPI_Win_fence(0, acc_win));                                                      \
        for (int t = 0; t < np; t++) {                                                             \
            CHECK_MPI(MPI_Accumulate(src, NE, mt, t, 0, NE, mt, MPI_MINLOC, acc_win));             \
            CHECK_MPI(MPI_Accumulate(src, NE, mt, t, ACC_SLOT, NE, mt, MPI_MAXLOC, acc_win));      \
        }                                                                                          \
        CHECK_MPI(MPI_Win_fence(0, acc_win));                                                      \
        for (int i = 0; i < NE; i++) {                                                             \
            pair a = {5, 100}, b = {5, 100};                                                       \
            for (int r = 0; r < np; r++) {                                                         \
                vt v = (vt)((r * 5 + i * 3) % 7 + 2);                                              \
                if (v < a.v || (v == a.v && r < a.i))                                              \
                    a.v = v, a.i = r;                                                              \
                if (v > b.v || (v == b.v && r < b.i))                                              \
                    b.v = v, b.i = r;                                                              \
            }                                                                                      \
            CHECK(mn[i].v == a.v && mn[i].i == a.i, "%s MINLOC %d: (%g,%d) want (%g,%d)", #mt, i,  \
                  (double)mn[i].v, mn[i].i, (double)a.v, a.i);                                     \
            CHECK(mx[i].v == b.v && mx[i].i == b.i, "%s MAXLOC %d: (%g,%d) want (%g,%d)", #mt, i,  \
                  (double)mx[i].v, mx[i].i, (double)b.v, b.i);                                     \
        }                                                                                          \
        MPI_Barrier(MPI_COMM_WORLD);                                                               \
    }
LOC_TEST(loc_double_int, double, MPI_DOUBLE_INT)
LOC_TEST(loc_2int, int, MPI_2INT)
LOC_TEST(loc_float_int, float, MPI_FLOAT_INT)
LOC_TEST(loc_long_int, long, MPI_LONG_INT)
LOC_TEST(loc_short_int, short, MPI_SHORT_INT)

/* Get_accumulate NO_OP returns the target untouched; REPLACE swaps. */
static void gacc_noop_replace(void) {
    int *w = (int *)acc_base, res[NE], src[NE];
    for (int i = 0; i < NE; i++) {
        w[i] = 1000 * me + i;
        src[i] = -1000 * me - i;
    }
    int t = (me + 1) % np, s = (me + np - 1) % np;
    CHECK_MPI(MPI_Win_fence(0, acc_win));
    CHECK_MPI(MPI_Get_accumulate(src, NE, MPI_INT, res, NE, MPI_INT, t, 0, NE, MPI_INT, MPI_NO_OP, acc_win));
    CHECK_MPI(MPI_Win_fence(0, acc_win));
    for (int i = 0; i < NE; i++) {
        CHECK(res[i] == 1000 * t + i, "Get_accumulate NO_OP result %d: %d", i, res[i]);
        CHECK(w[i] == 1000 * me + i, "Get_accumulate NO_OP changed the target at %d: %d", i, w[i]);
    }
    /* No rank may swap into this window before it was read. */
    CHECK_MPI(MPI_Win_fence(0, acc_win));
    CHECK_MPI(MPI_Get_accumulate(src, NE, MPI_INT, res, NE, MPI_INT, t, 0, NE, MPI_INT, MPI_REPLACE, acc_win));
    CHECK_MPI(MPI_Win_fence(0, acc_win));
    for (int i = 0; i < NE; i++) {
        CHECK(res[i] == 1000 * t + i, "Get_accumulate REPLACE result %d: %d", i, res[i]);
        CHECK(w[i] == -1000 * s - i, "Get_accumulate REPLACE target %d: %d", i, w[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    check_rank = me;

    long *base;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(4 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
    base[0] = base[1] = 0;
    base[2] = -1000000;
    base[3] = 1000000;
    CHECK_MPI(MPI_Win_unlock(me, win));
    MPI_Barrier(MPI_COMM_WORLD);
    fop_sum(win, base);
    fop_replace(win, base);
    fop_minmax_noop(win, base);
    CHECK_MPI(MPI_Win_free(&win));
    cas_counters();

    MPI_Op o[NOP_ALL] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR,
                         MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_REPLACE};
    memcpy(opv, o, sizeof o);
    CHECK_MPI(MPI_Win_allocate(NOP_ALL * ACC_SLOT, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &acc_base, &acc_win));
    void (*tests[])(void) = {acc_int,    acc_long,   acc_short,  acc_ushort,  acc_uint,    acc_schar,
                             acc_uchar,  acc_ulong,  acc_llong,  acc_ullong,  acc_i8,      acc_u16,
                             acc_i32,    acc_u64,    acc_float,  acc_double,  acc_ldouble, acc_byte,
                             acc_bool,   acc_cfloat, acc_cdouble, loc_double_int, loc_2int, loc_float_int,
                             loc_long_int, loc_short_int, gacc_noop_replace};
    for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++) {
        /* The previous test's last fence closed every epoch; these stores
         * are before the next test's opening fence. */
        MPI_Win_fence(0, acc_win);
        tests[k]();
    }
    CHECK_MPI(MPI_Win_free(&acc_win));
    MPI_Finalize();
    return check_status();
}
