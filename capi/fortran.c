/* Fortran support: the sentinels' COMMON blocks, string and array
 * translation for the generated wrappers (zfortran_gen.c), attribute
 * callback translators and the predefined Fortran callbacks. */
#include <string.h>
#include "fortran.h"

/* Aligned as gfortran aligns COMMON blocks; sizes are MPICH's. */
struct gompi_mpipriv1 mpipriv1_ __attribute__((aligned(16)));
struct gompi_mpipriv2 mpipriv2_ __attribute__((aligned(16)));
struct gompi_mpiprivc mpiprivc_ __attribute__((aligned(16)));
MPI_Fint mpifcmb5_ __attribute__((aligned(16)));
MPI_Fint mpifcmb9_ __attribute__((aligned(16)));
MPI_Fint mpifcmba_ __attribute__((aligned(16)));

/* C code converting Fortran statuses compares against these. */
__attribute__((constructor)) static void gompi_f_init(void)
{
    MPI_F_STATUS_IGNORE = mpipriv1_.status_ignore;
    MPI_F_STATUSES_IGNORE = mpipriv2_.statuses_ignore;
}

static size_t trimmed(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ') len--;
    return len;
}

char *gompi_f_string(const char *s, size_t len, int lead)
{
    size_t i = 0;
    len = trimmed(s, len);
    if (lead) while (i < len && s[i] == ' ') i++;
    char *c = malloc(len - i + 1);
    if (!c) return NULL;
    memcpy(c, s + i, len - i);
    c[len - i] = 0;
    return c;
}

/* Room for a C output string: at least the Fortran variable and the
 * longest fixed-size MPI string (MPI_MAX_LIBRARY_VERSION_STRING), since a
 * C call may write that much whatever the Fortran length. */
size_t gompi_f_outcap(size_t len, size_t extra)
{
    size_t c = len > MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING;
    if (extra > c) c = extra;
    return c + 1;
}

void gompi_f_blankpad(char *f, size_t len, const char *c)
{
    if (!c) return;
    size_t n = strlen(c);
    if (n > len) n = len;
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}

/* The strings of a[0..] up to the first blank one (MPI_COMM_SPAWN's ARGV). */
static char **argv_from(const char *a, size_t len, size_t stride, int max)
{
    int n = 0;
    while ((max < 0 || n < max) && trimmed(a + (size_t)n * stride, len) > 0) n++;
    char **v = calloc((size_t)n + 1, sizeof *v);
    if (!v) return NULL;
    for (int i = 0; i < n; i++) v[i] = gompi_f_string(a + (size_t)i * stride, len, 1);
    return v;
}

char **gompi_f_argv(const char *a, size_t len)
{
    if (a == mpiprivc_.argv_null) return MPI_ARGV_NULL;
    return argv_from(a, len, len, -1);
}

char **gompi_f_strings(const char *a, size_t len, int n)
{
    char **v = calloc(n > 0 ? (size_t)n + 1 : 1, sizeof *v);
    if (!v) return NULL;
    for (int i = 0; i < n; i++) v[i] = gompi_f_string(a + (size_t)i * len, len, 1);
    return v;
}

/* ARRAY_OF_ARGV(COUNT, *): command i's arguments are row i. */
char ***gompi_f_argvs(const char *a, size_t len, int n)
{
    if (a == mpiprivc_.argvs_null) return MPI_ARGVS_NULL;
    char ***v = calloc(n > 0 ? (size_t)n : 1, sizeof *v);
    if (!v) return NULL;
    for (int i = 0; i < n; i++) v[i] = argv_from(a + (size_t)i * len, len, (size_t)n * len, -1);
    return v;
}

void gompi_f_free_argv(char **v)
{
    if (!v) return;
    for (char **p = v; *p; p++) free(*p);
    free(v);
}

void gompi_f_free_argvs(char ***v, int n)
{
    if (!v) return;
    for (int i = 0; i < n; i++) gompi_f_free_argv(v[i]);
    free(v);
}

MPI_Aint *gompi_f_aints(const MPI_Fint *a, int n)
{
    MPI_Aint *c = malloc((n > 0 ? (size_t)n : 1) * sizeof *c);
    if (!c) return NULL;
    for (int i = 0; i < n; i++) c[i] = a[i];
    return c;
}

/* A predefined attribute's C value points at its value (MPI_WIN_BASE is the
 * address itself); a Fortran-set one is the integer stored. */
MPI_Aint gompi_f_attr_value(int keyval, void *cval)
{
    if (keyval == MPI_WIN_BASE) return (MPI_Aint)cval;
    if (keyval == MPI_WIN_SIZE) return cval ? *(MPI_Aint *)cval : 0;
    if (((unsigned)keyval >> 30) == 1) return cval ? *(int *)cval : 0; /* builtin keyval */
    return (MPI_Aint)cval;
}

/* A keyval created from Fortran keeps its procedures and extra state here;
 * the C side sees the translators below. Kept for the life of the job:
 * attributes may outlive their keyval. */
struct fkeyval {
    void (*copy)(void);
    void (*del)(void);
    MPI_Aint extra;
};

void *gompi_f_keyval_state(void (*copy)(void), void (*del)(void), MPI_Aint extra)
{
    struct fkeyval *k = malloc(sizeof *k);
    if (!k) return NULL;
    k->copy = copy;
    k->del = del;
    k->extra = extra;
    return k;
}

typedef void (*fcopy)(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *, MPI_Fint *);
typedef void (*fdelete)(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);
typedef void (*fcopy1)(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void (*fdelete1)(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);

static int copy_attr(MPI_Fint h, int key, void *es, void *in, void *out, int *flag)
{
    struct fkeyval *k = es;
    MPI_Fint fk = key, fflag = 0, ierr = MPI_SUCCESS;
    MPI_Aint vin = (MPI_Aint)in, vout = 0;
    ((fcopy)k->copy)(&h, &fk, &k->extra, &vin, &vout, &fflag, &ierr);
    *flag = fflag != 0;
    if (fflag) *(void **)out = (void *)vout;
    return ierr;
}

static int delete_attr(MPI_Fint h, int key, void *val, void *es)
{
    struct fkeyval *k = es;
    MPI_Fint fk = key, ierr = MPI_SUCCESS;
    MPI_Aint v = (MPI_Aint)val;
    ((fdelete)k->del)(&h, &fk, &v, &k->extra, &ierr);
    return ierr;
}

int gompi_f_copy_comm(MPI_Comm c, int key, void *es, void *in, void *out, int *flag) { return copy_attr(c, key, es, in, out, flag); }
int gompi_f_copy_type(MPI_Datatype t, int key, void *es, void *in, void *out, int *flag) { return copy_attr(t, key, es, in, out, flag); }
int gompi_f_copy_win(MPI_Win w, int key, void *es, void *in, void *out, int *flag) { return copy_attr(w, key, es, in, out, flag); }
int gompi_f_delete_comm(MPI_Comm c, int key, void *v, void *es) { return delete_attr(c, key, v, es); }
int gompi_f_delete_type(MPI_Datatype t, int key, void *v, void *es) { return delete_attr(t, key, v, es); }
int gompi_f_delete_win(MPI_Win w, int key, void *v, void *es) { return delete_attr(w, key, v, es); }

/* MPI-1 keyvals: INTEGER extra state and values. */
int gompi_f_copy_mpi1(MPI_Comm c, int key, void *es, void *in, void *out, int *flag)
{
    struct fkeyval *k = es;
    MPI_Fint h = c, fk = key, extra = (MPI_Fint)k->extra, fflag = 0, ierr = MPI_SUCCESS;
    MPI_Fint vin = (MPI_Fint)(MPI_Aint)in, vout = 0;
    ((fcopy1)k->copy)(&h, &fk, &extra, &vin, &vout, &fflag, &ierr);
    *flag = fflag != 0;
    if (fflag) *(void **)out = (void *)(MPI_Aint)vout;
    return ierr;
}

int gompi_f_delete_mpi1(MPI_Comm c, int key, void *val, void *es)
{
    struct fkeyval *k = es;
    MPI_Fint h = c, fk = key, extra = (MPI_Fint)k->extra, v = (MPI_Fint)(MPI_Aint)val, ierr = MPI_SUCCESS;
    ((fdelete1)k->del)(&h, &fk, &v, &extra, &ierr);
    return ierr;
}

/* The predefined Fortran callbacks mpif.h declares EXTERNAL, in MPICH's
 * eight spellings. */
#define FSPELL(id, lname, uname, fn)                                                            \
    extern __typeof__(fn) id##_a0 __asm__("p" lname "_") __attribute__((alias(#fn)));       \
    extern __typeof__(fn) id##_a1 __asm__("p" lname "__") __attribute__((alias(#fn)));      \
    extern __typeof__(fn) id##_a2 __asm__("p" lname) __attribute__((alias(#fn)));           \
    extern __typeof__(fn) id##_a3 __asm__("P" uname) __attribute__((alias(#fn)));           \
    extern __typeof__(fn) id##_a4 __asm__(lname "_") __attribute__((weak, alias(#fn)));     \
    extern __typeof__(fn) id##_a5 __asm__(lname "__") __attribute__((weak, alias(#fn)));    \
    extern __typeof__(fn) id##_a6 __asm__(lname) __attribute__((weak, alias(#fn)));         \
    extern __typeof__(fn) id##_a7 __asm__(uname) __attribute__((weak, alias(#fn)));

static void f_null_copy(MPI_Fint *h, MPI_Fint *k, MPI_Aint *e, MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)h, (void)k, (void)e, (void)in, (void)out;
    *flag = 0;
    *ierr = MPI_SUCCESS;
}
static void f_dup(MPI_Fint *h, MPI_Fint *k, MPI_Aint *e, MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)h, (void)k, (void)e;
    *out = *in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}
static void f_null_delete(MPI_Fint *h, MPI_Fint *k, MPI_Aint *v, MPI_Aint *e, MPI_Fint *ierr)
{
    (void)h, (void)k, (void)v, (void)e;
    *ierr = MPI_SUCCESS;
}
static void f_null_copy1(MPI_Fint *h, MPI_Fint *k, MPI_Fint *e, MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)h, (void)k, (void)e, (void)in, (void)out;
    *flag = 0;
    *ierr = MPI_SUCCESS;
}
static void f_dup1(MPI_Fint *h, MPI_Fint *k, MPI_Fint *e, MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    (void)h, (void)k, (void)e;
    *out = *in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}
static void f_null_delete1(MPI_Fint *h, MPI_Fint *k, MPI_Fint *v, MPI_Fint *e, MPI_Fint *ierr)
{
    (void)h, (void)k, (void)v, (void)e;
    *ierr = MPI_SUCCESS;
}
static void f_conversion_null(void *u, MPI_Fint *t, MPI_Fint *c, void *f, MPI_Offset *p, MPI_Aint *e, MPI_Fint *ierr)
{
    (void)u, (void)t, (void)c, (void)f, (void)p, (void)e;
    *ierr = MPI_SUCCESS;
}

FSPELL(mpi_comm_null_copy_fn, "mpi_comm_null_copy_fn", "MPI_COMM_NULL_COPY_FN", f_null_copy)
FSPELL(mpi_comm_dup_fn, "mpi_comm_dup_fn", "MPI_COMM_DUP_FN", f_dup)
FSPELL(mpi_comm_null_delete_fn, "mpi_comm_null_delete_fn", "MPI_COMM_NULL_DELETE_FN", f_null_delete)
FSPELL(mpi_type_null_copy_fn, "mpi_type_null_copy_fn", "MPI_TYPE_NULL_COPY_FN", f_null_copy)
FSPELL(mpi_type_dup_fn, "mpi_type_dup_fn", "MPI_TYPE_DUP_FN", f_dup)
FSPELL(mpi_type_null_delete_fn, "mpi_type_null_delete_fn", "MPI_TYPE_NULL_DELETE_FN", f_null_delete)
FSPELL(mpi_win_null_copy_fn, "mpi_win_null_copy_fn", "MPI_WIN_NULL_COPY_FN", f_null_copy)
FSPELL(mpi_win_dup_fn, "mpi_win_dup_fn", "MPI_WIN_DUP_FN", f_dup)
FSPELL(mpi_win_null_delete_fn, "mpi_win_null_delete_fn", "MPI_WIN_NULL_DELETE_FN", f_null_delete)
FSPELL(mpi_null_copy_fn, "mpi_null_copy_fn", "MPI_NULL_COPY_FN", f_null_copy1)
FSPELL(mpi_dup_fn, "mpi_dup_fn", "MPI_DUP_FN", f_dup1)
FSPELL(mpi_null_delete_fn, "mpi_null_delete_fn", "MPI_NULL_DELETE_FN", f_null_delete1)
FSPELL(mpi_conversion_fn_null, "mpi_conversion_fn_null", "MPI_CONVERSION_FN_NULL", f_conversion_null)

/* MPI_F_SYNC_REG(buf) (MPI-4.1 §19.1.17): a call the Fortran compiler
 * cannot see into, so that buf is not kept in a register across it. */
static void f_sync_reg(void *buf)
{
    __asm__ volatile("" : : "r"(buf) : "memory");
}
FSPELL(mpi_f_sync_reg, "mpi_f_sync_reg", "MPI_F_SYNC_REG", f_sync_reg)

/* Status conversion: MPICH's Fortran status is its C status, int for int. */
_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint), "status layout");
/* MPI_Status_c2f and friends are in mpi4.c. */
