/* Reduction kernels shared between the Go side (op/ckern.go) and kernels.c. */
#ifndef GOMPI_OP_KERNELS_H
#define GOMPI_OP_KERNELS_H
#include <stddef.h>

/* Element kinds; the Go constants in op/kinds.go use the same numbers. */
enum {
    GK_I8, GK_U8, GK_I16, GK_U16, GK_I32, GK_U32, GK_I64, GK_U64,
    GK_F32, GK_F64, GK_F80, GK_C64, GK_C128, GK_CLD,
    GK_FLOAT_INT, GK_DOUBLE_INT, GK_LONG_INT, GK_2INT, GK_SHORT_INT, GK_LDOUBLE_INT,
    GK_2FLOAT, GK_2DOUBLE,
    /* the padded pairs in packed form (no padding between value and index) */
    GK_DOUBLE_INT_P, GK_LONG_INT_P, GK_SHORT_INT_P, GK_LDOUBLE_INT_P,
    /* IEEE binary128 (gfortran's REAL*16) and its complex */
    GK_F128, GK_C256,
    GK_NKIND
};

/* Predefined ops in handle order (MPI_MAX is index 0); REPLACE and NO_OP have
   no C kernels. */
enum {
    GO_MAX, GO_MIN, GO_SUM, GO_PROD, GO_LAND, GO_BAND, GO_LOR, GO_BOR, GO_LXOR, GO_BXOR,
    GO_MINLOC, GO_MAXLOC,
    GO_NOP
};

typedef void (*gompi_kern_t)(const void *in, void *inout, size_t n);
typedef void (*gompi_kern3_t)(const void *a, const void *b, void *out, size_t n);

/* gompi_op_init selects the kernel set for the CPU: 0 plain x86-64, 1 AVX2, 2 AVX-512. */
void gompi_op_init(int tier);
/* gompi_op_has reports whether a kernel exists for (op, kind). */
int gompi_op_has(int op, int kind);
/* gompi_op_run computes inout[i] = in[i] op inout[i] for n elements of kind. */
void gompi_op_run(int op, int kind, const void *in, void *inout, size_t n);

/* The C fast path of MPI_Reduce_local (capi/op.c): the Go side publishes,
   per builtin datatype handle, which predefined ops are valid and with which
   kernel, so a valid call on a predefined type never crosses into Go. */
void gompi_op_set_builtin(int handle);
void gompi_op_set_fast(int op, int handle, int kind);
/* gompi_op_builtin_type reports whether dt is a predefined (builtin-kind) datatype handle. */
int gompi_op_builtin_type(int dt);
/* gompi_op_reduce_builtin runs a predefined op on count > 0 elements of a
   builtin datatype and returns 0, or returns -1 (doing nothing) when the
   pair is not a valid fast one and the Go side must check and report. */
int gompi_op_reduce_builtin(int op, int dt, const void *in, void *inout, int count);
/* gompi_op_reduce3_builtin is gompi_op_reduce_builtin into a third buffer:
   out = a op b, out overlapping neither. */
int gompi_op_reduce3_builtin(int op, int dt, const void *a, const void *b, void *out, int count);
/* gompi_op_run3 computes out[i] = a[i] op b[i] for n elements of kind. */
void gompi_op_run3(int op, int kind, const void *a, const void *b, void *out, size_t n);
#endif
