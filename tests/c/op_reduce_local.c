//go:build ignore

/* gompi-test: np=1,2 timeout=60 */
/* MPI_Reduce_local with every predefined op on C types, checked against the
 * same operation written in C: integers of every width (signed overflow wraps
 * around), floating point including long double, complex SUM/PROD, C bool
 * logical ops, MPI_BYTE bitwise ops, MAXLOC/MINLOC on every C pair type with
 * ties (the smaller index wins); binary128 MPI_REAL16/MPI_COMPLEX32;
 * MPI_AINT/OFFSET/COUNT and MPI_CHARACTER as
 * MPICH and Open MPI accept them. Counts 1, 7 and 1000 take both the
 * small-count and the vectorised kernels. */
#include <complex.h>
#include <limits.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

#define N 1000
static const int counts[] = {1, 7, N};

/* Deterministic pseudo-random bits (xorshift). */
static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* INT_TEST checks every integer op on type T (U is its unsigned twin, so the
 * reference wraps around without undefined behaviour). */
#define INT_TEST(T, U, DT)                                                                  \
    do {                                                                                    \
        static T a[N], b[N], want[N];                                                       \
        const MPI_Op ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,                \
                              MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};               \
        for (int oi = 0; oi < 10; oi++) {                                                   \
            for (int ci = 0; ci < 3; ci++) {                                                \
                int n = counts[ci];                                                         \
                for (int i = 0; i < n; i++) {                                               \
                    a[i] = (T)next();                                                       \
                    b[i] = (T)next();                                                       \
                    if (i % 5 == 0) a[i] = 0;                                               \
                    if (i % 7 == 0) b[i] = 0;                                               \
                    T x = a[i], y = b[i];                                                   \
                    switch (oi) {                                                           \
                    case 0: want[i] = x > y ? x : y; break;                                 \
                    case 1: want[i] = x < y ? x : y; break;                                 \
                    case 2: want[i] = (T)(U)((U)x + (U)y); break;                           \
                    case 3: want[i] = (T)(U)((U)x * (U)y); break;                           \
                    case 4: want[i] = (T)(x && y); break;                                   \
                    case 5: want[i] = (T)(x || y); break;                                   \
                    case 6: want[i] = (T)(!x != !y); break;                                 \
                    case 7: want[i] = x & y; break;                                         \
                    case 8: want[i] = x | y; break;                                         \
                    case 9: want[i] = x ^ y; break;                                         \
                    }                                                                       \
                }                                                                           \
                CHECK_MPI(MPI_Reduce_local(a, b, n, DT, ops[oi]));                          \
                CHECK(memcmp(b, want, n * sizeof(T)) == 0, "%s op %d count %d", #DT, oi, n); \
            }                                                                               \
        }                                                                                   \
    } while (0)

/* FLT_TEST: MAX, MIN, SUM, PROD on a floating type, values of both signs and
 * many magnitudes (long double gets the same values). */
#define FLT_TEST(T, DT)                                                                     \
    do {                                                                                    \
        static T a[N], b[N], want[N];                                                       \
        const MPI_Op ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD};                         \
        for (int oi = 0; oi < 4; oi++) {                                                    \
            for (int ci = 0; ci < 3; ci++) {                                                \
                int n = counts[ci];                                                         \
                for (int i = 0; i < n; i++) {                                               \
                    a[i] = (T)((int)(next() % 2001) - 1000) / (T)8;                          \
                    b[i] = (T)((int)(next() % 2001) - 1000) * (T)1e10;                       \
                    T x = a[i], y = b[i];                                                   \
                    switch (oi) {                                                           \
                    case 0: want[i] = x > y ? x : y; break;                                 \
                    case 1: want[i] = x < y ? x : y; break;                                 \
                    case 2: want[i] = x + y; break;                                         \
                    case 3: want[i] = x * y; break;                                         \
                    }                                                                       \
                }                                                                           \
                CHECK_MPI(MPI_Reduce_local(a, b, n, DT, ops[oi]));                          \
                for (int i = 0; i < n; i++)                                                 \
                    if (b[i] != want[i]) {                                                  \
                        CHECK(0, "%s op %d count %d element %d: %Lg want %Lg", #DT, oi, n, i, \
                              (long double)b[i], (long double)want[i]);                     \
                        break;                                                              \
                    }                                                                       \
            }                                                                               \
        }                                                                                   \
    } while (0)

/* CPLX_TEST: SUM and PROD on complex values with small integer parts (exact). */
#define CPLX_TEST(T, DT)                                                                    \
    do {                                                                                    \
        static T a[N], b[N], want[N];                                                       \
        for (int oi = 0; oi < 2; oi++) {                                                    \
            for (int ci = 0; ci < 3; ci++) {                                                \
                int n = counts[ci];                                                         \
                for (int i = 0; i < n; i++) {                                               \
                    a[i] = (int)(next() % 41) - 20 + ((int)(next() % 41) - 20) * I;         \
                    b[i] = (int)(next() % 41) - 20 + ((int)(next() % 41) - 20) * I;         \
                    want[i] = oi == 0 ? a[i] + b[i] : a[i] * b[i];                          \
                }                                                                           \
                CHECK_MPI(MPI_Reduce_local(a, b, n, DT, oi == 0 ? MPI_SUM : MPI_PROD));     \
                for (int i = 0; i < n; i++)                                                 \
                    if (b[i] != want[i]) {                                                  \
                        CHECK(0, "%s op %d count %d element %d", #DT, oi, n, i);            \
                        break;                                                              \
                    }                                                                       \
            }                                                                               \
        }                                                                                   \
    } while (0)

/* LOC_TEST: MAXLOC and MINLOC on a (value, index) struct, values from a small
 * range so ties are frequent. */
#define LOC_TEST(VT, DT)                                                                    \
    do {                                                                                    \
        static struct { VT v; int i; } a[N], b[N], want[N];                                 \
        for (int oi = 0; oi < 2; oi++) {                                                    \
            for (int ci = 0; ci < 3; ci++) {                                                \
                int n = counts[ci];                                                         \
                for (int i = 0; i < n; i++) {                                               \
                    a[i].v = (VT)(next() % 3);                                              \
                    a[i].i = (int)(next() % 5);                                             \
                    b[i].v = (VT)(next() % 3);                                              \
                    b[i].i = (int)(next() % 5);                                             \
                    int better = oi == 0 ? a[i].v > b[i].v : a[i].v < b[i].v;               \
                    want[i] = b[i];                                                         \
                    if (better) want[i] = a[i];                                             \
                    else if (a[i].v == b[i].v && a[i].i < b[i].i) want[i].i = a[i].i;       \
                }                                                                           \
                CHECK_MPI(MPI_Reduce_local(a, b, n, DT, oi == 0 ? MPI_MAXLOC : MPI_MINLOC)); \
                for (int i = 0; i < n; i++)                                                 \
                    if (b[i].v != want[i].v || b[i].i != want[i].i) {                      \
                        CHECK(0, "%s op %d count %d element %d: (%Lg,%d) want (%Lg,%d)",   \
                              #DT, oi, n, i, (long double)b[i].v, b[i].i,                   \
                              (long double)want[i].v, want[i].i);                           \
                        break;                                                              \
                    }                                                                       \
            }                                                                               \
        }                                                                                   \
    } while (0)

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);

    INT_TEST(signed char, unsigned char, MPI_SIGNED_CHAR);
    INT_TEST(unsigned char, unsigned char, MPI_UNSIGNED_CHAR);
    INT_TEST(short, unsigned short, MPI_SHORT);
    INT_TEST(unsigned short, unsigned short, MPI_UNSIGNED_SHORT);
    INT_TEST(int, unsigned, MPI_INT);
    INT_TEST(unsigned, unsigned, MPI_UNSIGNED);
    INT_TEST(long, unsigned long, MPI_LONG);
    INT_TEST(unsigned long, unsigned long, MPI_UNSIGNED_LONG);
    INT_TEST(long long, unsigned long long, MPI_LONG_LONG_INT);
    INT_TEST(unsigned long long, unsigned long long, MPI_UNSIGNED_LONG_LONG);
    INT_TEST(int8_t, uint8_t, MPI_INT8_T);
    INT_TEST(int16_t, uint16_t, MPI_INT16_T);
    INT_TEST(int32_t, uint32_t, MPI_INT32_T);
    INT_TEST(int64_t, uint64_t, MPI_INT64_T);
    INT_TEST(uint8_t, uint8_t, MPI_UINT8_T);
    INT_TEST(uint16_t, uint16_t, MPI_UINT16_T);
    INT_TEST(uint32_t, uint32_t, MPI_UINT32_T);
    INT_TEST(uint64_t, uint64_t, MPI_UINT64_T);
    INT_TEST(MPI_Aint, unsigned long, MPI_AINT);
    INT_TEST(MPI_Offset, unsigned long long, MPI_OFFSET);
    INT_TEST(MPI_Count, unsigned long long, MPI_COUNT);

    FLT_TEST(float, MPI_FLOAT);
    FLT_TEST(double, MPI_DOUBLE);
    FLT_TEST(long double, MPI_LONG_DOUBLE);

    CPLX_TEST(float _Complex, MPI_C_FLOAT_COMPLEX);
    CPLX_TEST(double _Complex, MPI_C_DOUBLE_COMPLEX);
    CPLX_TEST(long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX);

    LOC_TEST(float, MPI_FLOAT_INT);
    LOC_TEST(double, MPI_DOUBLE_INT);
    LOC_TEST(long, MPI_LONG_INT);
    LOC_TEST(int, MPI_2INT);
    LOC_TEST(short, MPI_SHORT_INT);
    LOC_TEST(long double, MPI_LONG_DOUBLE_INT);

    /* Signed overflow wraps around. */
    {
        int a[2] = {INT_MAX, INT_MIN}, b[2] = {1, -1};
        CHECK_MPI(MPI_Reduce_local(a, b, 2, MPI_INT, MPI_SUM));
        CHECK(b[0] == INT_MIN && b[1] == INT_MAX, "INT_MAX+1 gave %d, INT_MIN-1 gave %d", b[0], b[1]);
    }

    /* C bool: logical ops on every combination. */
    {
        bool a[4] = {false, false, true, true}, b[4];
        const bool land[4] = {0, 0, 0, 1}, lor[4] = {0, 1, 1, 1}, lxor[4] = {0, 1, 1, 0};
        const MPI_Op ops[3] = {MPI_LAND, MPI_LOR, MPI_LXOR};
        const bool *want[3] = {land, lor, lxor};
        for (int oi = 0; oi < 3; oi++) {
            const bool init[4] = {false, true, false, true};
            memcpy(b, init, sizeof b);
            CHECK_MPI(MPI_Reduce_local(a, b, 4, MPI_C_BOOL, ops[oi]));
            CHECK(memcmp(b, want[oi], sizeof b) == 0, "C_BOOL op %d", oi);
        }
    }

    /* MPI_BYTE: bitwise ops. */
    {
        unsigned char a[3] = {0xf0, 0xf0, 0xf0}, b[3] = {0x3c, 0x3c, 0x3c};
        CHECK_MPI(MPI_Reduce_local(a, b, 1, MPI_BYTE, MPI_BAND));
        CHECK_MPI(MPI_Reduce_local(a + 1, b + 1, 1, MPI_BYTE, MPI_BOR));
        CHECK_MPI(MPI_Reduce_local(a + 2, b + 2, 1, MPI_BYTE, MPI_BXOR));
        CHECK(b[0] == 0x30 && b[1] == 0xfc && b[2] == 0xcc, "BYTE: %x %x %x", b[0], b[1], b[2]);
    }

    /* Count 0 does nothing. */
    {
        double a[3] = {1, 2, 3}, b[3] = {7, 8, 9};
        CHECK_MPI(MPI_Reduce_local(a, b, 0, MPI_DOUBLE, MPI_SUM));
        CHECK(b[0] == 7, "count 0 changed inout");
    }

    /* MPI_REAL16 and MPI_COMPLEX32 are IEEE binary128 (gfortran's REAL*16). */
    {
        __float128 a[3] = {1.5, -2, 1e300}, b[3] = {2.25, 3, 1e300};
        CHECK_MPI(MPI_Reduce_local(a, b, 3, MPI_REAL16, MPI_SUM));
        CHECK(b[0] == 3.75 && b[1] == 1 && b[2] == (__float128)1e300 * 2, "REAL16 SUM");
        CHECK_MPI(MPI_Reduce_local(a, b, 3, MPI_REAL16, MPI_PROD));
        CHECK(b[0] == 5.625 && b[1] == -2 && b[2] > (__float128)1e308, "REAL16 PROD (no overflow)");
        __float128 c[2] = {1, 2}, d[2] = {3, 4}; /* (1+2i)(3+4i) = -5+10i */
        CHECK_MPI(MPI_Reduce_local(c, d, 1, MPI_COMPLEX32, MPI_PROD));
        CHECK(d[0] == -5 && d[1] == 10, "COMPLEX32 PROD");
    }

    /* Extensions MPICH and Open MPI share: MPI_CHARACTER reduces as a char. */
    {
        char a[2] = {'a', 'z'}, b[2] = {'m', 'm'};
        CHECK_MPI(MPI_Reduce_local(a, b, 2, MPI_CHARACTER, MPI_MAX));
        CHECK(b[0] == 'm' && b[1] == 'z', "CHARACTER MAX gave %c%c", b[0], b[1]);
    }

    MPI_Finalize();
    return check_status();
}
