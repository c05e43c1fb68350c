/* One tier of reduction kernels; kernels.c includes this once per instruction-set
   tier with TIER set and a GCC target pragma around it, so GCC vectorises the
   same plain loops for each tier and we choose the tier at startup. */
#define KCAT2(a, b, c) a##_##b##_##c
#define KCAT(a, b, c) KCAT2(a, b, c)
#define KN(op, ty) KCAT(TIER, op, ty)
#define KP(ty) KCAT(TIER, pair, ty)

/* Binary elementwise kernel: x is in[i], y is inout[i] (MPI order: in op inout). */
#define KBIN(op, ty, T, expr)                                                          \
    static void KN(op, ty)(const void *vin, void *vio, size_t n)                      \
    {                                                                                  \
        const T *restrict a = (const T *)vin;                                         \
        T *restrict b = (T *)vio;                                                      \
        for (size_t i = 0; i < n; i++) {                                               \
            T x = a[i], y = b[i];                                                      \
            b[i] = (T)(expr);                                                          \
        }                                                                              \
    }

/* Sums and products go through the unsigned type UT so that signed overflow
   wraps around (two's complement, as GCC converts back) instead of being
   undefined behaviour (8- and 16-bit values go through unsigned int, since
   they would otherwise be promoted to a signed int). */
#define KINT(ty, T, UT)                              \
    KBIN(max, ty, T, x > y ? x : y)                  \
    KBIN(min, ty, T, x < y ? x : y)                  \
    KBIN(sum, ty, T, (UT)x + (UT)y)                  \
    KBIN(prod, ty, T, (UT)x * (UT)y)                 \
    KBIN(land, ty, T, (x != 0) & (y != 0))           \
    KBIN(lor, ty, T, (x != 0) | (y != 0))            \
    KBIN(lxor, ty, T, (x != 0) ^ (y != 0))           \
    KBIN(band, ty, T, x & y)                         \
    KBIN(bor, ty, T, x | y)                          \
    KBIN(bxor, ty, T, x ^ y)

#define KFLT(ty, T)                                  \
    KBIN(max, ty, T, x > y ? x : y)                  \
    KBIN(min, ty, T, x < y ? x : y)                  \
    KBIN(sum, ty, T, x + y)                          \
    KBIN(prod, ty, T, x * y)

/* Complex numbers as (re, im) pairs; the product is written out so GCC does not
   call the Annex G helpers (__mulsc3) for every element. */
#define KCPLX(ty, T)                                                      \
    static void KN(sum, ty)(const void *vin, void *vio, size_t n)         \
    {                                                                     \
        const T *restrict a = (const T *)vin;                            \
        T *restrict b = (T *)vio;                                         \
        for (size_t i = 0; i < 2 * n; i++) b[i] = a[i] + b[i];           \
    }                                                                     \
    static void KN(prod, ty)(const void *vin, void *vio, size_t n)        \
    {                                                                     \
        const T *restrict a = (const T *)vin;                            \
        T *restrict b = (T *)vio;                                         \
        for (size_t i = 0; i < n; i++) {                                  \
            T ar = a[2 * i], ai = a[2 * i + 1];                          \
            T br = b[2 * i], bi = b[2 * i + 1];                          \
            b[2 * i] = ar * br - ai * bi;                                 \
            b[2 * i + 1] = ar * bi + ai * br;                             \
        }                                                                 \
    }

/* MAXLOC/MINLOC on (value, index) structs: the better value wins; on a tie the
   smaller index (MPI-3.1 5.9.4). Written without branches (selects), which
   GCC turns into blends: random data no longer mispredicts every other
   element. */
#define KLOC(ty, VT, IT) KLOC_(ty, VT, IT, )
/* KLOCP is KLOC on the packed form of a pair (what MPI_Pack produces). */
#define KLOCP(ty, VT, IT) KLOC_(ty, VT, IT, __attribute__((packed)))
#define KLOC1(name, ty, VT, IT, CMP)                                              \
    static void KN(name, ty)(const void *vin, void *vio, size_t n)               \
    {                                                                             \
        const KP(ty) *restrict a = (const KP(ty) *)vin;                           \
        KP(ty) *restrict b = (KP(ty) *)vio;                                       \
        for (size_t i = 0; i < n; i++) {                                          \
            VT x = a[i].v, y = b[i].v;                                            \
            IT xi = a[i].i, yi = b[i].i;                                          \
            IT lo = xi < yi ? xi : yi;                                            \
            int better = x CMP y, tie = x == y;                                   \
            b[i].v = better ? x : y;                                              \
            b[i].i = better ? xi : tie ? lo : yi;                                 \
        }                                                                         \
    }
#define KLOC_(ty, VT, IT, ATTR)                                                   \
    typedef struct ATTR { VT v; IT i; } KP(ty);                                   \
    KLOC1(maxloc, ty, VT, IT, >)                                                  \
    KLOC1(minloc, ty, VT, IT, <)

/* Instantiations. */
KINT(i8, int8_t, unsigned int)
KINT(u8, uint8_t, unsigned int)
KINT(i16, int16_t, unsigned int)
KINT(u16, uint16_t, unsigned int)
KINT(i32, int32_t, uint32_t)
KINT(u32, uint32_t, uint32_t)
KINT(i64, int64_t, uint64_t)
KINT(u64, uint64_t, uint64_t)
KFLT(f32, float)
KFLT(f64, double)
KFLT(f80, long double)
KCPLX(c64, float)
KCPLX(c128, double)
KCPLX(cld, long double)
KFLT(f128, __float128)
KCPLX(c256, __float128)
KLOC(floatint, float, int)
KLOC(doubleint, double, int)
KLOC(longint, long, int)
KLOC(twoint, int, int)
KLOC(shortint, short, int)
KLOC(ldoubleint, long double, int)
KLOC(twofloat, float, float)
KLOC(twodouble, double, double)
KLOCP(doubleintp, double, int)
KLOCP(longintp, long, int)
KLOCP(shortintp, short, int)
KLOCP(ldoubleintp, long double, int)

/* This tier's table: NULL where the op is not defined for the kind. */
static const gompi_kern_t KCAT(TIER, tab, all)[GO_NOP][GK_NKIND] = {
    [GO_MAX][GK_I8] = KN(max, i8),
    [GO_MIN][GK_I8] = KN(min, i8),
    [GO_SUM][GK_I8] = KN(sum, i8),
    [GO_PROD][GK_I8] = KN(prod, i8),
    [GO_LAND][GK_I8] = KN(land, i8),
    [GO_LOR][GK_I8] = KN(lor, i8),
    [GO_LXOR][GK_I8] = KN(lxor, i8),
    [GO_BAND][GK_I8] = KN(band, i8),
    [GO_BOR][GK_I8] = KN(bor, i8),
    [GO_BXOR][GK_I8] = KN(bxor, i8),
    [GO_MAX][GK_U8] = KN(max, u8),
    [GO_MIN][GK_U8] = KN(min, u8),
    [GO_SUM][GK_U8] = KN(sum, u8),
    [GO_PROD][GK_U8] = KN(prod, u8),
    [GO_LAND][GK_U8] = KN(land, u8),
    [GO_LOR][GK_U8] = KN(lor, u8),
    [GO_LXOR][GK_U8] = KN(lxor, u8),
    [GO_BAND][GK_U8] = KN(band, u8),
    [GO_BOR][GK_U8] = KN(bor, u8),
    [GO_BXOR][GK_U8] = KN(bxor, u8),
    [GO_MAX][GK_I16] = KN(max, i16),
    [GO_MIN][GK_I16] = KN(min, i16),
    [GO_SUM][GK_I16] = KN(sum, i16),
    [GO_PROD][GK_I16] = KN(prod, i16),
    [GO_LAND][GK_I16] = KN(land, i16),
    [GO_LOR][GK_I16] = KN(lor, i16),
    [GO_LXOR][GK_I16] = KN(lxor, i16),
    [GO_BAND][GK_I16] = KN(band, i16),
    [GO_BOR][GK_I16] = KN(bor, i16),
    [GO_BXOR][GK_I16] = KN(bxor, i16),
    [GO_MAX][GK_U16] = KN(max, u16),
    [GO_MIN][GK_U16] = KN(min, u16),
    [GO_SUM][GK_U16] = KN(sum, u16),
    [GO_PROD][GK_U16] = KN(prod, u16),
    [GO_LAND][GK_U16] = KN(land, u16),
    [GO_LOR][GK_U16] = KN(lor, u16),
    [GO_LXOR][GK_U16] = KN(lxor, u16),
    [GO_BAND][GK_U16] = KN(band, u16),
    [GO_BOR][GK_U16] = KN(bor, u16),
    [GO_BXOR][GK_U16] = KN(bxor, u16),
    [GO_MAX][GK_I32] = KN(max, i32),
    [GO_MIN][GK_I32] = KN(min, i32),
    [GO_SUM][GK_I32] = KN(sum, i32),
    [GO_PROD][GK_I32] = KN(prod, i32),
    [GO_LAND][GK_I32] = KN(land, i32),
    [GO_LOR][GK_I32] = KN(lor, i32),
    [GO_LXOR][GK_I32] = KN(lxor, i32),
    [GO_BAND][GK_I32] = KN(band, i32),
    [GO_BOR][GK_I32] = KN(bor, i32),
    [GO_BXOR][GK_I32] = KN(bxor, i32),
    [GO_MAX][GK_U32] = KN(max, u32),
    [GO_MIN][GK_U32] = KN(min, u32),
    [GO_SUM][GK_U32] = KN(sum, u32),
    [GO_PROD][GK_U32] = KN(prod, u32),
    [GO_LAND][GK_U32] = KN(land, u32),
    [GO_LOR][GK_U32] = KN(lor, u32),
    [GO_LXOR][GK_U32] = KN(lxor, u32),
    [GO_BAND][GK_U32] = KN(band, u32),
    [GO_BOR][GK_U32] = KN(bor, u32),
    [GO_BXOR][GK_U32] = KN(bxor, u32),
    [GO_MAX][GK_I64] = KN(max, i64),
    [GO_MIN][GK_I64] = KN(min, i64),
    [GO_SUM][GK_I64] = KN(sum, i64),
    [GO_PROD][GK_I64] = KN(prod, i64),
    [GO_LAND][GK_I64] = KN(land, i64),
    [GO_LOR][GK_I64] = KN(lor, i64),
    [GO_LXOR][GK_I64] = KN(lxor, i64),
    [GO_BAND][GK_I64] = KN(band, i64),
    [GO_BOR][GK_I64] = KN(bor, i64),
    [GO_BXOR][GK_I64] = KN(bxor, i64),
    [GO_MAX][GK_U64] = KN(max, u64),
    [GO_MIN][GK_U64] = KN(min, u64),
    [GO_SUM][GK_U64] = KN(sum, u64),
    [GO_PROD][GK_U64] = KN(prod, u64),
    [GO_LAND][GK_U64] = KN(land, u64),
    [GO_LOR][GK_U64] = KN(lor, u64),
    [GO_LXOR][GK_U64] = KN(lxor, u64),
    [GO_BAND][GK_U64] = KN(band, u64),
    [GO_BOR][GK_U64] = KN(bor, u64),
    [GO_BXOR][GK_U64] = KN(bxor, u64),
    [GO_MAX][GK_F32] = KN(max, f32),
    [GO_MIN][GK_F32] = KN(min, f32),
    [GO_SUM][GK_F32] = KN(sum, f32),
    [GO_PROD][GK_F32] = KN(prod, f32),
    [GO_MAX][GK_F64] = KN(max, f64),
    [GO_MIN][GK_F64] = KN(min, f64),
    [GO_SUM][GK_F64] = KN(sum, f64),
    [GO_PROD][GK_F64] = KN(prod, f64),
    [GO_MAX][GK_F80] = KN(max, f80),
    [GO_MIN][GK_F80] = KN(min, f80),
    [GO_SUM][GK_F80] = KN(sum, f80),
    [GO_PROD][GK_F80] = KN(prod, f80),
    [GO_SUM][GK_C64] = KN(sum, c64),
    [GO_PROD][GK_C64] = KN(prod, c64),
    [GO_SUM][GK_C128] = KN(sum, c128),
    [GO_PROD][GK_C128] = KN(prod, c128),
    [GO_SUM][GK_CLD] = KN(sum, cld),
    [GO_PROD][GK_CLD] = KN(prod, cld),
    [GO_MAXLOC][GK_FLOAT_INT] = KN(maxloc, floatint),
    [GO_MINLOC][GK_FLOAT_INT] = KN(minloc, floatint),
    [GO_MAXLOC][GK_DOUBLE_INT] = KN(maxloc, doubleint),
    [GO_MINLOC][GK_DOUBLE_INT] = KN(minloc, doubleint),
    [GO_MAXLOC][GK_LONG_INT] = KN(maxloc, longint),
    [GO_MINLOC][GK_LONG_INT] = KN(minloc, longint),
    [GO_MAXLOC][GK_2INT] = KN(maxloc, twoint),
    [GO_MINLOC][GK_2INT] = KN(minloc, twoint),
    [GO_MAXLOC][GK_SHORT_INT] = KN(maxloc, shortint),
    [GO_MINLOC][GK_SHORT_INT] = KN(minloc, shortint),
    [GO_MAXLOC][GK_LDOUBLE_INT] = KN(maxloc, ldoubleint),
    [GO_MINLOC][GK_LDOUBLE_INT] = KN(minloc, ldoubleint),
    [GO_MAXLOC][GK_2FLOAT] = KN(maxloc, twofloat),
    [GO_MINLOC][GK_2FLOAT] = KN(minloc, twofloat),
    [GO_MAXLOC][GK_2DOUBLE] = KN(maxloc, twodouble),
    [GO_MINLOC][GK_2DOUBLE] = KN(minloc, twodouble),
    [GO_MAXLOC][GK_DOUBLE_INT_P] = KN(maxloc, doubleintp),
    [GO_MINLOC][GK_DOUBLE_INT_P] = KN(minloc, doubleintp),
    [GO_MAXLOC][GK_LONG_INT_P] = KN(maxloc, longintp),
    [GO_MINLOC][GK_LONG_INT_P] = KN(minloc, longintp),
    [GO_MAXLOC][GK_SHORT_INT_P] = KN(maxloc, shortintp),
    [GO_MINLOC][GK_SHORT_INT_P] = KN(minloc, shortintp),
    [GO_MAXLOC][GK_LDOUBLE_INT_P] = KN(maxloc, ldoubleintp),
    [GO_MINLOC][GK_LDOUBLE_INT_P] = KN(minloc, ldoubleintp),
    [GO_MAX][GK_F128] = KN(max, f128),
    [GO_MIN][GK_F128] = KN(min, f128),
    [GO_SUM][GK_F128] = KN(sum, f128),
    [GO_PROD][GK_F128] = KN(prod, f128),
    [GO_SUM][GK_C256] = KN(sum, c256),
    [GO_PROD][GK_C256] = KN(prod, c256),
};

#undef TIER
