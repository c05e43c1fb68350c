/* Communicator management: constructors, destructors and queries. */
#include "gompi.h"
#include "_cgo_export.h"

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) { return gompi_Comm_dup(comm, newcomm, NULL, "MPI_Comm_dup"); }
#pragma weak MPI_Comm_dup = PMPI_Comm_dup

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    GOMPI_INFO_ARG(comm, "MPI_Comm_dup_with_info", info);
    return gompi_Comm_dup_info(comm, info, newcomm, NULL, "MPI_Comm_dup_with_info");
}
#pragma weak MPI_Comm_dup_with_info = PMPI_Comm_dup_with_info

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return gompi_Comm_dup(comm, newcomm, request, "MPI_Comm_idup");
}
#pragma weak MPI_Comm_idup = PMPI_Comm_idup

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    return gompi_Comm_split(comm, color, key, newcomm, 0);
}
#pragma weak MPI_Comm_split = PMPI_Comm_split

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    GOMPI_INFO_ARG(comm, "MPI_Comm_split_type", info);
    return gompi_Comm_split_type(comm, split_type, key, info, newcomm);
}
#pragma weak MPI_Comm_split_type = PMPI_Comm_split_type

int PMPI_Comm_free(MPI_Comm *comm) { return gompi_Comm_free(comm); }
#pragma weak MPI_Comm_free = PMPI_Comm_free

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result) { return gompi_Comm_compare(comm1, comm2, result); }
#pragma weak MPI_Comm_compare = PMPI_Comm_compare

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag) { return gompi_Comm_test_inter(comm, flag); }
#pragma weak MPI_Comm_test_inter = PMPI_Comm_test_inter

int PMPI_Comm_remote_size(MPI_Comm comm, int *size) { return gompi_Comm_remote_size(comm, size); }
#pragma weak MPI_Comm_remote_size = PMPI_Comm_remote_size

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name) { return gompi_Comm_set_name(comm, (char *)comm_name); }
#pragma weak MPI_Comm_set_name = PMPI_Comm_set_name

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    return gompi_Comm_get_name(comm, comm_name, resultlen);
}
#pragma weak MPI_Comm_get_name = PMPI_Comm_get_name

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm *newintercomm)
{
    return gompi_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag, newintercomm);
}
#pragma weak MPI_Intercomm_create = PMPI_Intercomm_create

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    return gompi_Intercomm_merge(intercomm, high, newintracomm);
}
#pragma weak MPI_Intercomm_merge = PMPI_Intercomm_merge
