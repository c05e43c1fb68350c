/* MPI_Info_*: info objects live on the Go side (mpi/info.go). */
#include "gompi.h"
#include "_cgo_export.h"

int PMPI_Info_create(MPI_Info *info) { return gompi_Info_create(info); }
#pragma weak MPI_Info_create = PMPI_Info_create

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    return gompi_Info_set(info, (char *)key, (char *)value);
}
#pragma weak MPI_Info_set = PMPI_Info_set

int PMPI_Info_delete(MPI_Info info, const char *key) { return gompi_Info_delete(info, (char *)key); }
#pragma weak MPI_Info_delete = PMPI_Info_delete

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    return gompi_Info_get(info, (char *)key, valuelen, value, flag);
}
#pragma weak MPI_Info_get = PMPI_Info_get

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    return gompi_Info_get_valuelen(info, (char *)key, valuelen, flag);
}
#pragma weak MPI_Info_get_valuelen = PMPI_Info_get_valuelen

int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    return gompi_Info_get_string(info, (char *)key, buflen, value, flag);
}
#pragma weak MPI_Info_get_string = PMPI_Info_get_string

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys) { return gompi_Info_get_nkeys(info, nkeys); }
#pragma weak MPI_Info_get_nkeys = PMPI_Info_get_nkeys

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key) { return gompi_Info_get_nthkey(info, n, key); }
#pragma weak MPI_Info_get_nthkey = PMPI_Info_get_nthkey

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo) { return gompi_Info_dup(info, newinfo); }
#pragma weak MPI_Info_dup = PMPI_Info_dup

int PMPI_Info_free(MPI_Info *info) { return gompi_Info_free(info); }
#pragma weak MPI_Info_free = PMPI_Info_free
