/* One tier of reduction kernels; kernels.c includes this once per instruction-set
   tier with TIER set and a GCC target pragma around it, so GCC vectorises the
   same plain loops for each tier and we choose the tier at startup. */
#define KCAT2(a, b, c) a##_##b##_##c
#define KCAT(a, b, c) KCAT2(a, b, c)
#define KN(op, ty) KCAT(TIER, op, ty)
/* KN3 names the three-operand form: out[i] = a[i] op b[i] (out distinct
   from both), which saves a fold its first copy. */
#define KN3(op, ty) KCAT(TIER, op##3, ty)
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
    }                                                                                  \
    static void KN3(op, ty)(const void *va, const void *vb, void *vo, size_t n)       \
    {                                                                                  \
        const T *restrict a = (const T *)va, *restrict b = (const T *)vb;             \
        T *restrict o = (T *)vo;                                                       \
        for (size_t i = 0; i < n; i++) {                                               \
            T x = a[i], y = b[i];                                                      \
            o[i] = (T)(expr);                                                          \
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
/* KCPLX_PROD_STEP writes the complex product of element i of a and b to o
   (o may be b: both parts are read first). */
#define KCPLX_PROD_STEP(a, b, o, i, T)                                              \
    do {                                                                            \
        T ar = a[2 * i], ai = a[2 * i + 1];                                        \
        T br = b[2 * i], bi = b[2 * i + 1];                                        \
        o[2 * i] = ar * br - ai * bi;                                               \
        o[2 * i + 1] = ar * bi + ai * br;                                           \
    } while (0)
#define KCPLX(ty, T)                                                                \
    static void KN3(sum, ty)(const void *va, const void *vb, void *vo, size_t n)   \
    {                                                                               \
        const T *restrict a = (const T *)va, *restrict b = (const T *)vb;          \
        T *restrict o = (T *)vo;                                                    \
        for (size_t i = 0; i < 2 * n; i++) o[i] = a[i] + b[i];                     \
    }                                                                               \
    static void KN(sum, ty)(const void *vin, void *vio, size_t n)                   \
    {                                                                               \
        const T *restrict a = (const T *)vin;                                      \
        T *restrict b = (T *)vio;                                                   \
        for (size_t i = 0; i < 2 * n; i++) b[i] = a[i] + b[i];                     \
    }                                                                               \
    static void KN3(prod, ty)(const void *va, const void *vb, void *vo, size_t n)  \
    {                                                                               \
        const T *restrict a = (const T *)va, *restrict b = (const T *)vb;          \
        T *restrict o = (T *)vo;                                                    \
        for (size_t i = 0; i < n; i++) KCPLX_PROD_STEP(a, b, o, i, T);             \
    }                                                                               \
    static void KN(prod, ty)(const void *vin, void *vio, size_t n)                  \
    {                                                                               \
        const T *restrict a = (const T *)vin;                                      \
        T *restrict b = (T *)vio;                                                   \
        for (size_t i = 0; i < n; i++) KCPLX_PROD_STEP(a, b, b, i, T);             \
    }

/* MAXLOC/MINLOC on (value, index) structs: the better value wins; on a tie the
   smaller index (MPI-3.1 5.9.4). Written without branches (selects), which
   GCC turns into blends: random data no longer mispredicts every other
   element. */
#define KLOC(ty, VT, IT) KLOC_(ty, VT, IT, )
/* KLOCP is KLOC on the packed form of a pair (what MPI_Pack produces). */
#define KLOCP(ty, VT, IT) KLOC_(ty, VT, IT, __attribute__((packed)))
/* KLOC_STEP writes element i of a (op) b to o: one definition for the
   two-operand form (o is b) and the three-operand one. */
#define KLOC_STEP(a, b, o, i, VT, IT, CMP)                                        \
    do {                                                                          \
        VT x = a[i].v, y = b[i].v;                                                \
        IT xi = a[i].i, yi = b[i].i;                                              \
        IT lo = xi < yi ? xi : yi;                                                \
        int better = x CMP y, tie = x == y;                                       \
        o[i].v = better ? x : y;                                                  \
        o[i].i = better ? xi : tie ? lo : yi;                                     \
    } while (0)
#define KLOC1(name, ty, VT, IT, CMP)                                              \
    static void KN(name, ty)(const void *vin, void *vio, size_t n)               \
    {                                                                             \
        const KP(ty) *restrict a = (const KP(ty) *)vin;                           \
        KP(ty) *restrict b = (KP(ty) *)vio;                                       \
        for (size_t i = 0; i < n; i++) KLOC_STEP(a, b, b, i, VT, IT, CMP);        \
    }                                                                             \
    static void KN3(name, ty)(const void *va, const void *vb, void *vo, size_t n) \
    {                                                                             \
        const KP(ty) *restrict a = (const KP(ty) *)va;                            \
        const KP(ty) *restrict b = (const KP(ty) *)vb;                            \
        KP(ty) *restrict o = (KP(ty) *)vo;                                        \
        for (size_t i = 0; i < n; i++) KLOC_STEP(a, b, o, i, VT, IT, CMP);        \
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

/* This tier's tables, two-operand (KN) and three-operand (KN3): NULL where
   the op is not defined for the kind. */
#define KTAB(K) \
    [GO_MAX][GK_I8] = K(max, i8), \
    [GO_MIN][GK_I8] = K(min, i8), \
    [GO_SUM][GK_I8] = K(sum, i8), \
    [GO_PROD][GK_I8] = K(prod, i8), \
    [GO_LAND][GK_I8] = K(land, i8), \
    [GO_LOR][GK_I8] = K(lor, i8), \
    [GO_LXOR][GK_I8] = K(lxor, i8), \
    [GO_BAND][GK_I8] = K(band, i8), \
    [GO_BOR][GK_I8] = K(bor, i8), \
    [GO_BXOR][GK_I8] = K(bxor, i8), \
    [GO_MAX][GK_U8] = K(max, u8), \
    [GO_MIN][GK_U8] = K(min, u8), \
    [GO_SUM][GK_U8] = K(sum, u8), \
    [GO_PROD][GK_U8] = K(prod, u8), \
    [GO_LAND][GK_U8] = K(land, u8), \
    [GO_LOR][GK_U8] = K(lor, u8), \
    [GO_LXOR][GK_U8] = K(lxor, u8), \
    [GO_BAND][GK_U8] = K(band, u8), \
    [GO_BOR][GK_U8] = K(bor, u8), \
    [GO_BXOR][GK_U8] = K(bxor, u8), \
    [GO_MAX][GK_I16] = K(max, i16), \
    [GO_MIN][GK_I16] = K(min, i16), \
    [GO_SUM][GK_I16] = K(sum, i16), \
    [GO_PROD][GK_I16] = K(prod, i16), \
    [GO_LAND][GK_I16] = K(land, i16), \
    [GO_LOR][GK_I16] = K(lor, i16), \
    [GO_LXOR][GK_I16] = K(lxor, i16), \
    [GO_BAND][GK_I16] = K(band, i16), \
    [GO_BOR][GK_I16] = K(bor, i16), \
    [GO_BXOR][GK_I16] = K(bxor, i16), \
    [GO_MAX][GK_U16] = K(max, u16), \
    [GO_MIN][GK_U16] = K(min, u16), \
    [GO_SUM][GK_U16] = K(sum, u16), \
    [GO_PROD][GK_U16] = K(prod, u16), \
    [GO_LAND][GK_U16] = K(land, u16), \
    [GO_LOR][GK_U16] = K(lor, u16), \
    [GO_LXOR][GK_U16] = K(lxor, u16), \
    [GO_BAND][GK_U16] = K(band, u16), \
    [GO_BOR][GK_U16] = K(bor, u16), \
    [GO_BXOR][GK_U16] = K(bxor, u16), \
    [GO_MAX][GK_I32] = K(max, i32), \
    [GO_MIN][GK_I32] = K(min, i32), \
    [GO_SUM][GK_I32] = K(sum, i32), \
    [GO_PROD][GK_I32] = K(prod, i32), \
    [GO_LAND][GK_I32] = K(land, i32), \
    [GO_LOR][GK_I32] = K(lor, i32), \
    [GO_LXOR][GK_I32] = K(lxor, i32), \
    [GO_BAND][GK_I32] = K(band, i32), \
    [GO_BOR][GK_I32] = K(bor, i32), \
    [GO_BXOR][GK_I32] = K(bxor, i32), \
    [GO_MAX][GK_U32] = K(max, u32), \
    [GO_MIN][GK_U32] = K(min, u32), \
    [GO_SUM][GK_U32] = K(sum, u32), \
    [GO_PROD][GK_U32] = K(prod, u32), \
    [GO_LAND][GK_U32] = K(land, u32), \
    [GO_LOR][GK_U32] = K(lor, u32), \
    [GO_LXOR][GK_U32] = K(lxor, u32), \
    [GO_BAND][GK_U32] = K(band, u32), \
    [GO_BOR][GK_U32] = K(bor, u32), \
    [GO_BXOR][GK_U32] = K(bxor, u32), \
    [GO_MAX][GK_I64] = K(max, i64), \
    [GO_MIN][GK_I64] = K(min, i64), \
    [GO_SUM][GK_I64] = K(sum, i64), \
    [GO_PROD][GK_I64] = K(prod, i64), \
    [GO_LAND][GK_I64] = K(land, i64), \
    [GO_LOR][GK_I64] = K(lor, i64), \
    [GO_LXOR][GK_I64] = K(lxor, i64), \
    [GO_BAND][GK_I64] = K(band, i64), \
    [GO_BOR][GK_I64] = K(bor, i64), \
    [GO_BXOR][GK_I64] = K(bxor, i64), \
    [GO_MAX][GK_U64] = K(max, u64), \
    [GO_MIN][GK_U64] = K(min, u64), \
    [GO_SUM][GK_U64] = K(sum, u64), \
    [GO_PROD][GK_U64] = K(prod, u64), \
    [GO_LAND][GK_U64] = K(land, u64), \
    [GO_LOR][GK_U64] = K(lor, u64), \
    [GO_LXOR][GK_U64] = K(lxor, u64), \
    [GO_BAND][GK_U64] = K(band, u64), \
    [GO_BOR][GK_U64] = K(bor, u64), \
    [GO_BXOR][GK_U64] = K(bxor, u64), \
    [GO_MAX][GK_F32] = K(max, f32), \
    [GO_MIN][GK_F32] = K(min, f32), \
    [GO_SUM][GK_F32] = K(sum, f32), \
    [GO_PROD][GK_F32] = K(prod, f32), \
    [GO_MAX][GK_F64] = K(max, f64), \
    [GO_MIN][GK_F64] = K(min, f64), \
    [GO_SUM][GK_F64] = K(sum, f64), \
    [GO_PROD][GK_F64] = K(prod, f64), \
    [GO_MAX][GK_F80] = K(max, f80), \
    [GO_MIN][GK_F80] = K(min, f80), \
    [GO_SUM][GK_F80] = K(sum, f80), \
    [GO_PROD][GK_F80] = K(prod, f80), \
    [GO_SUM][GK_C64] = K(sum, c64), \
    [GO_PROD][GK_C64] = K(prod, c64), \
    [GO_SUM][GK_C128] = K(sum, c128), \
    [GO_PROD][GK_C128] = K(prod, c128), \
    [GO_SUM][GK_CLD] = K(sum, cld), \
    [GO_PROD][GK_CLD] = K(prod, cld), \
    [GO_MAXLOC][GK_FLOAT_INT] = K(maxloc, floatint), \
    [GO_MINLOC][GK_FLOAT_INT] = K(minloc, floatint), \
    [GO_MAXLOC][GK_DOUBLE_INT] = K(maxloc, doubleint), \
    [GO_MINLOC][GK_DOUBLE_INT] = K(minloc, doubleint), \
    [GO_MAXLOC][GK_LONG_INT] = K(maxloc, longint), \
    [GO_MINLOC][GK_LONG_INT] = K(minloc, longint), \
    [GO_MAXLOC][GK_2INT] = K(maxloc, twoint), \
    [GO_MINLOC][GK_2INT] = K(minloc, twoint), \
    [GO_MAXLOC][GK_SHORT_INT] = K(maxloc, shortint), \
    [GO_MINLOC][GK_SHORT_INT] = K(minloc, shortint), \
    [GO_MAXLOC][GK_LDOUBLE_INT] = K(maxloc, ldoubleint), \
    [GO_MINLOC][GK_LDOUBLE_INT] = K(minloc, ldoubleint), \
    [GO_MAXLOC][GK_2FLOAT] = K(maxloc, twofloat), \
    [GO_MINLOC][GK_2FLOAT] = K(minloc, twofloat), \
    [GO_MAXLOC][GK_2DOUBLE] = K(maxloc, twodouble), \
    [GO_MINLOC][GK_2DOUBLE] = K(minloc, twodouble), \
    [GO_MAXLOC][GK_DOUBLE_INT_P] = K(maxloc, doubleintp), \
    [GO_MINLOC][GK_DOUBLE_INT_P] = K(minloc, doubleintp), \
    [GO_MAXLOC][GK_LONG_INT_P] = K(maxloc, longintp), \
    [GO_MINLOC][GK_LONG_INT_P] = K(minloc, longintp), \
    [GO_MAXLOC][GK_SHORT_INT_P] = K(maxloc, shortintp), \
    [GO_MINLOC][GK_SHORT_INT_P] = K(minloc, shortintp), \
    [GO_MAXLOC][GK_LDOUBLE_INT_P] = K(maxloc, ldoubleintp), \
    [GO_MINLOC][GK_LDOUBLE_INT_P] = K(minloc, ldoubleintp), \
    [GO_MAX][GK_F128] = K(max, f128), \
    [GO_MIN][GK_F128] = K(min, f128), \
    [GO_SUM][GK_F128] = K(sum, f128), \
    [GO_PROD][GK_F128] = K(prod, f128), \
    [GO_SUM][GK_C256] = K(sum, c256), \
    [GO_PROD][GK_C256] = K(prod, c256),

static const gompi_kern_t KCAT(TIER, tab, all)[GO_NOP][GK_NKIND] = {KTAB(KN)};
static const gompi_kern3_t KCAT(TIER, tab3, all)[GO_NOP][GK_NKIND] = {KTAB(KN3)};
#undef KTAB

#undef TIER
