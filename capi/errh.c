/* Error handlers on communicators (predefined handlers; user handlers come
 * with the communicator work). */
#include "gompi.h"
#include "_cgo_export.h"

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return gompi_Comm_set_errhandler(comm, errhandler);
}
#pragma weak MPI_Comm_set_errhandler = PMPI_Comm_set_errhandler

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return gompi_Comm_get_errhandler(comm, errhandler);
}
#pragma weak MPI_Comm_get_errhandler = PMPI_Comm_get_errhandler

int PMPI_Errhandler_free(MPI_Errhandler *errhandler) { return gompi_Errhandler_free(errhandler); }
#pragma weak MPI_Errhandler_free = PMPI_Errhandler_free
