/* Fortran bindings of the calls whose callbacks need translating, written
 * by hand (abi.FortranBindable leaves them out of zfortran_gen.c):
 * MPI_GREQUEST_START and MPI_REGISTER_DATAREP. Fortran callback procedures
 * take every argument by reference (extra_state as an
 * INTEGER(MPI_ADDRESS_KIND), LOGICAL as gfortran's 0/1) and return their
 * error in a last IERROR argument; the C trampolines here adapt them. */
#include <stdint.h>
#include "fortran.h"
#include "_cgo_export.h"

/* The eight symbols of one binding, as MPICH exports them: pmpi_ strong,
 * mpi_ weak. */
#define FBIND(fn, l, u)                                                                     \
    extern __typeof__(fn) fn##_1 __asm__("p" l "__") __attribute__((alias(#fn)));           \
    extern __typeof__(fn) fn##_2 __asm__("p" l) __attribute__((alias(#fn)));                \
    extern __typeof__(fn) fn##_3 __asm__("P" u) __attribute__((alias(#fn)));                \
    extern __typeof__(fn) fn##_4 __asm__(l "_") __attribute__((weak, alias(#fn)));          \
    extern __typeof__(fn) fn##_5 __asm__(l "__") __attribute__((weak, alias(#fn)));         \
    extern __typeof__(fn) fn##_6 __asm__(l) __attribute__((weak, alias(#fn)));              \
    extern __typeof__(fn) fn##_7 __asm__(u) __attribute__((weak, alias(#fn)));

/* Generalized requests. */
typedef void fg_query(MPI_Aint *extra, MPI_Fint *status, MPI_Fint *ierr);
typedef void fg_free(MPI_Aint *extra, MPI_Fint *ierr);
typedef void fg_cancel(MPI_Aint *extra, MPI_Fint *complete, MPI_Fint *ierr);

struct fgreq {
    fg_query *query;
    fg_free *free;
    fg_cancel *cancel;
    MPI_Aint extra;
};

static int fg_query_tr(void *es, MPI_Status *status)
{
    struct fgreq *g = es;
    MPI_Fint ierr = MPI_SUCCESS;
    g->query(&g->extra, (MPI_Fint *)status, &ierr); /* MPICH's Fortran status is its C status */
    return ierr;
}

static int fg_free_tr(void *es)
{
    struct fgreq *g = es;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(&g->extra, &ierr);
    free(g);
    return ierr;
}

static int fg_cancel_tr(void *es, int complete)
{
    struct fgreq *g = es;
    MPI_Fint ierr = MPI_SUCCESS, c = complete != 0;
    g->cancel(&g->extra, &c, &ierr);
    return ierr;
}

void pmpi_grequest_start_(void (*query)(void), void (*freefn)(void), void (*cancel)(void), MPI_Aint *extra,
                          MPI_Fint *request, MPI_Fint *ierr)
{
    struct fgreq *g = malloc(sizeof *g);
    if (g == NULL) {
        *ierr = MPI_ERR_NO_MEM;
        return;
    }
    g->query = (fg_query *)query;
    g->free = (fg_free *)freefn;
    g->cancel = (fg_cancel *)cancel;
    g->extra = *extra;
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = PMPI_Grequest_start(fg_query_tr, fg_free_tr, fg_cancel_tr, g, &r);
    if (rc != MPI_SUCCESS)
        free(g);
    else
        *request = r;
    *ierr = rc;
}
FBIND(pmpi_grequest_start_, "mpi_grequest_start", "MPI_GREQUEST_START")

/* Data representations: MPI_CONVERSION_FN_NULL arrives as the address of
 * the procedure mpif.h declares EXTERNAL (defined in fortran.c). */
extern void gompi_f_conversion_null_sym(void) __asm__("mpi_conversion_fn_null_");
extern void gompi_f_conversion_null_psym(void) __asm__("pmpi_conversion_fn_null_");

static void *conv_fn(void (*fn)(void))
{
    if (fn == NULL || fn == gompi_f_conversion_null_sym || fn == gompi_f_conversion_null_psym)
        return NULL;
    return (void *)fn;
}

void pmpi_register_datarep_(const char *datarep, void (*read)(void), void (*write)(void), void (*extent)(void),
                            MPI_Aint *extra, MPI_Fint *ierr, size_t datarep_len)
{
    char *name = gompi_f_string(datarep, datarep_len, 0);
    if (name == NULL) {
        *ierr = MPI_ERR_NO_MEM;
        return;
    }
    if (extent == NULL)
        *ierr = gompi_ArgError((char *)"MPI_Register_datarep", MPI_ERR_ARG, (char *)"dtype_file_extent_fn is NULL");
    else
        *ierr = gompi_Register_datarep(name, conv_fn(read), conv_fn(write), (void *)extent, (void *)(intptr_t)*extra, 1);
    free(name);
}
FBIND(pmpi_register_datarep_, "mpi_register_datarep", "MPI_REGISTER_DATAREP")
