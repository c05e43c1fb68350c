/* Fortran bindings: the sentinels' COMMON blocks and the helpers the
 * generated wrappers (zfortran_gen.c) use. */
#ifndef GOMPI_FORTRAN_H
#define GOMPI_FORTRAN_H
#include <stddef.h>
#include <stdlib.h>
#include "gompi.h"

/* MPICH's COMMON blocks, member for member: a Fortran program passes the
 * address of a member, which the wrappers compare against. The link keeps
 * -Bno-symbolic, so a program's own copy of a block (COMMON in its objects)
 * is the one these names reach. */
struct gompi_mpipriv1 { MPI_Fint bottom, in_place, status_ignore[MPI_F_STATUS_SIZE]; };
struct gompi_mpipriv2 { MPI_Fint statuses_ignore[MPI_F_STATUS_SIZE], errcodes_ignore[1]; };
struct gompi_mpiprivc { char argvs_null[1], argv_null[1]; };
extern struct gompi_mpipriv1 mpipriv1_;
extern struct gompi_mpipriv2 mpipriv2_;
extern struct gompi_mpiprivc mpiprivc_;
extern MPI_Fint mpifcmb5_, mpifcmb9_; /* MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY */
extern MPI_Fint mpifcmba_;            /* MPI_BUFFER_AUTOMATIC (MPI-4.1) */

/* A choice buffer: MPI_BOTTOM, MPI_IN_PLACE and MPI_BUFFER_AUTOMATIC by
 * address. */
static inline void *gompi_f_buf(const void *p)
{
    if (p == (const void *)&mpipriv1_.bottom) return MPI_BOTTOM;
    if (p == (const void *)&mpipriv1_.in_place) return MPI_IN_PLACE;
    if (p == (const void *)&mpifcmba_) return MPI_BUFFER_AUTOMATIC;
    return (void *)p;
}

static inline int *gompi_f_weights(MPI_Fint *w)
{
    if (w == &mpifcmb5_) return MPI_UNWEIGHTED;
    if (w == &mpifcmb9_) return MPI_WEIGHTS_EMPTY;
    return w;
}

/* A predefined keyval in Fortran is the C one plus one (MPICH's encoding). */
static inline int gompi_f_keyval(MPI_Fint k)
{
    return ((unsigned)k >> 30) == 1 && (k & 1) == 0 ? k - 1 : k;
}

/* Strings: Fortran passes blank-padded text and a hidden length. */
char *gompi_f_string(const char *s, size_t len, int lead);
size_t gompi_f_outcap(size_t len, size_t extra);
void gompi_f_blankpad(char *f, size_t len, const char *c);
char **gompi_f_argv(const char *a, size_t len);
char **gompi_f_strings(const char *a, size_t len, int n);
char ***gompi_f_argvs(const char *a, size_t len, int n);
void gompi_f_free_argv(char **v);
void gompi_f_free_argvs(char ***v, int n);
MPI_Aint *gompi_f_aints(const MPI_Fint *a, int n);

/* Attributes: Fortran values are the stored integers themselves. */
MPI_Aint gompi_f_attr_value(int keyval, void *cval);
void *gompi_f_keyval_state(void (*copy)(void), void (*del)(void), MPI_Aint extra);
int gompi_f_copy_comm(MPI_Comm, int, void *, void *, void *, int *);
int gompi_f_copy_type(MPI_Datatype, int, void *, void *, void *, int *);
int gompi_f_copy_win(MPI_Win, int, void *, void *, void *, int *);
int gompi_f_copy_mpi1(MPI_Comm, int, void *, void *, void *, int *);
int gompi_f_delete_comm(MPI_Comm, int, void *, void *);
int gompi_f_delete_type(MPI_Datatype, int, void *, void *);
int gompi_f_delete_win(MPI_Win, int, void *, void *);
int gompi_f_delete_mpi1(MPI_Comm, int, void *, void *);
#endif
