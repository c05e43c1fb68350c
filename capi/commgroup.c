/* Communicators from groups, groups of communicators, and hints. */
#include "gompi.h"
#include "_cgo_export.h"

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    return gompi_Comm_create(comm, group, 0, newcomm, 0);
}
#pragma weak MPI_Comm_create = PMPI_Comm_create

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    return gompi_Comm_create(comm, group, tag, newcomm, 1);
}
#pragma weak MPI_Comm_create_group = PMPI_Comm_create_group

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group) { return gompi_Comm_group(comm, group, 0); }
#pragma weak MPI_Comm_group = PMPI_Comm_group

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group) { return gompi_Comm_group(comm, group, 1); }
#pragma weak MPI_Comm_remote_group = PMPI_Comm_remote_group

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) { return gompi_Comm_info(comm, &info, 1); }
#pragma weak MPI_Comm_set_info = PMPI_Comm_set_info

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used) { return gompi_Comm_info(comm, info_used, 0); }
#pragma weak MPI_Comm_get_info = PMPI_Comm_get_info
