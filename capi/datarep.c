/* MPI_Register_datarep's callbacks: the Go side keeps the function
 * pointers and calls back through these, in C's or Fortran's convention
 * (convention 0: C, 1: Fortran, 2: C with MPI_Count counts. Fortran
 * procedures take every argument by reference and return the
 * error through a last IERROR; extra_state is an INTEGER(MPI_ADDRESS_KIND)
 * whose value gompi keeps). */
#include <stdint.h>
#include "gompi.h"

typedef void fconv(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Offset *, MPI_Aint *, MPI_Fint *);
typedef void fextent(MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);

int gompi_call_datarep_conv(void *fn, int fortran, void *userbuf, int dt, int count, void *filebuf,
                            long long pos, void *extra)
{
    if (fortran == 1) {
        MPI_Fint t = dt, c = count, ierr = MPI_SUCCESS;
        MPI_Offset p = pos;
        MPI_Aint e = (MPI_Aint)extra;
        ((fconv *)fn)(userbuf, &t, &c, filebuf, &p, &e, &ierr);
        return ierr;
    }
    if (fortran == 2) /* MPI_Register_datarep_c */
        return ((MPI_Datarep_conversion_function_c *)fn)(userbuf, dt, (MPI_Count)count, filebuf, pos, extra);
    return ((MPI_Datarep_conversion_function *)fn)(userbuf, dt, count, filebuf, pos, extra);
}

int gompi_call_datarep_extent(void *fn, int fortran, int dt, long *ext, void *extra)
{
    MPI_Aint x = 0;
    int rc;
    if (fortran == 1) {
        MPI_Fint t = dt, ierr = MPI_SUCCESS;
        MPI_Aint e = (MPI_Aint)extra;
        ((fextent *)fn)(&t, &x, &e, &ierr);
        rc = ierr;
    } else {
        rc = ((MPI_Datarep_extent_function *)fn)(dt, &x, extra);
    }
    *ext = x;
    return rc;
}
