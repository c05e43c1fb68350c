/* Error handlers and user error codes. User handlers are C function pointers
 * the Go side calls through gompi_call_comm_errh. */
#include "gompi.h"
#include "_cgo_export.h"

void gompi_call_comm_errh(void *fn, int comm, int code)
{
    MPI_Comm c = comm;
    int e = code;
    ((MPI_Comm_errhandler_function *)fn)(&c, &e);
}

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    return gompi_Comm_create_errhandler((void *)fn, errhandler, "MPI_Comm_create_errhandler");
}
#pragma weak MPI_Comm_create_errhandler = PMPI_Comm_create_errhandler

int PMPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *errhandler)
{
    return gompi_Comm_create_errhandler((void *)fn, errhandler, "MPI_Errhandler_create");
}
#pragma weak MPI_Errhandler_create = PMPI_Errhandler_create

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    return gompi_Win_create_errhandler((void *)fn, errhandler);
}
#pragma weak MPI_Win_create_errhandler = PMPI_Win_create_errhandler

int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    return gompi_File_create_errhandler((void *)fn, errhandler);
}
#pragma weak MPI_File_create_errhandler = PMPI_File_create_errhandler

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return gompi_Comm_set_errhandler(comm, errhandler, "MPI_Comm_set_errhandler");
}
#pragma weak MPI_Comm_set_errhandler = PMPI_Comm_set_errhandler

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return gompi_Comm_set_errhandler(comm, errhandler, "MPI_Errhandler_set");
}
#pragma weak MPI_Errhandler_set = PMPI_Errhandler_set

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return gompi_Comm_get_errhandler(comm, errhandler, "MPI_Comm_get_errhandler");
}
#pragma weak MPI_Comm_get_errhandler = PMPI_Comm_get_errhandler

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return gompi_Comm_get_errhandler(comm, errhandler, "MPI_Errhandler_get");
}
#pragma weak MPI_Errhandler_get = PMPI_Errhandler_get

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    return gompi_Comm_call_errhandler(comm, errorcode);
}
#pragma weak MPI_Comm_call_errhandler = PMPI_Comm_call_errhandler

int PMPI_Errhandler_free(MPI_Errhandler *errhandler) { return gompi_Errhandler_free(errhandler); }
#pragma weak MPI_Errhandler_free = PMPI_Errhandler_free

int PMPI_Add_error_class(int *errorclass) { return gompi_Add_error_class(errorclass); }
#pragma weak MPI_Add_error_class = PMPI_Add_error_class

int PMPI_Add_error_code(int errorclass, int *errorcode) { return gompi_Add_error_code(errorclass, errorcode); }
#pragma weak MPI_Add_error_code = PMPI_Add_error_code

int PMPI_Add_error_string(int errorcode, const char *string)
{
    return gompi_Add_error_string(errorcode, (char *)string);
}
#pragma weak MPI_Add_error_string = PMPI_Add_error_string

void gompi_call_file_errh(void *fn, int file, int code)
{
    MPI_File f = (MPI_File)(uintptr_t)(unsigned)file;
    int e = code;
    ((MPI_File_errhandler_function *)fn)(&f, &e);
}
