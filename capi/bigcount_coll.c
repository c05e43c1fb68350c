/* Large-count (_c) collectives in their three forms: the int calls' Go
 * entries with the wide bit in the mode (counts MPI_Count, displacements
 * MPI_Aint; capi/bigcount.go). Written from coll.c and coll_neighbor.c by
 * rule; the C shared-memory fast paths (int counts) are not tried. */
#include "gompi.h"
#include "_cgo_export.h"

#define WIDE 256 /* wideBit in bigcount.go */

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return gompi_Bcast(buffer, count, datatype, root, comm, NULL, 0 | WIDE);
}
#pragma weak MPI_Bcast_c = PMPI_Bcast_c

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Bcast(buffer, count, datatype, root, comm, request, 1 | WIDE);
}
#pragma weak MPI_Ibcast_c = PMPI_Ibcast_c

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Bcast_init_c", info);
    return gompi_Bcast(buffer, count, datatype, root, comm, request, 2 | WIDE);
}
#pragma weak MPI_Bcast_init_c = PMPI_Bcast_init_c

int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root, comm, NULL, 0 | WIDE, 0);
}
#pragma weak MPI_Gather_c = PMPI_Gather_c

int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root, comm, request, 1 | WIDE, 0);
}
#pragma weak MPI_Igather_c = PMPI_Igather_c

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Gather_init_c", info);
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root, comm, request, 2 | WIDE, 0);
}
#pragma weak MPI_Gather_init_c = PMPI_Gather_init_c

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (void *)recvcounts, (void *)displs, recvtype, root, comm, NULL, 0 | WIDE, 1);
}
#pragma weak MPI_Gatherv_c = PMPI_Gatherv_c

int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (void *)recvcounts, (void *)displs, recvtype, root, comm, request, 1 | WIDE, 1);
}
#pragma weak MPI_Igatherv_c = PMPI_Igatherv_c

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Gatherv_init_c", info);
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (void *)recvcounts, (void *)displs, recvtype, root, comm, request, 2 | WIDE, 1);
}
#pragma weak MPI_Gatherv_init_c = PMPI_Gatherv_init_c

int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gompi_Scatter((void *)sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root, comm, NULL, 0 | WIDE, 0);
}
#pragma weak MPI_Scatter_c = PMPI_Scatter_c

int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Scatter((void *)sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root, comm, request, 1 | WIDE, 0);
}
#pragma weak MPI_Iscatter_c = PMPI_Iscatter_c

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Scatter_init_c", info);
    return gompi_Scatter((void *)sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root, comm, request, 2 | WIDE, 0);
}
#pragma weak MPI_Scatter_init_c = PMPI_Scatter_init_c

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gompi_Scatter((void *)sendbuf, 0, (void *)sendcounts, (void *)displs, sendtype, recvbuf, recvcount, recvtype, root, comm, NULL, 0 | WIDE, 1);
}
#pragma weak MPI_Scatterv_c = PMPI_Scatterv_c

int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Scatter((void *)sendbuf, 0, (void *)sendcounts, (void *)displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request, 1 | WIDE, 1);
}
#pragma weak MPI_Iscatterv_c = PMPI_Iscatterv_c

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Scatterv_init_c", info);
    return gompi_Scatter((void *)sendbuf, 0, (void *)sendcounts, (void *)displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request, 2 | WIDE, 1);
}
#pragma weak MPI_Scatterv_init_c = PMPI_Scatterv_init_c

int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm, NULL, 0 | WIDE, 0);
}
#pragma weak MPI_Allgather_c = PMPI_Allgather_c

int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm, request, 1 | WIDE, 0);
}
#pragma weak MPI_Iallgather_c = PMPI_Iallgather_c

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Allgather_init_c", info);
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm, request, 2 | WIDE, 0);
}
#pragma weak MPI_Allgather_init_c = PMPI_Allgather_init_c

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (void *)recvcounts, (void *)displs, recvtype, comm, NULL, 0 | WIDE, 1);
}
#pragma weak MPI_Allgatherv_c = PMPI_Allgatherv_c

int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (void *)recvcounts, (void *)displs, recvtype, comm, request, 1 | WIDE, 1);
}
#pragma weak MPI_Iallgatherv_c = PMPI_Iallgatherv_c

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Allgatherv_init_c", info);
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (void *)recvcounts, (void *)displs, recvtype, comm, request, 2 | WIDE, 1);
}
#pragma weak MPI_Allgatherv_init_c = PMPI_Allgatherv_init_c

int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Alltoall((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL, 0 | WIDE);
}
#pragma weak MPI_Alltoall_c = PMPI_Alltoall_c

int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Alltoall((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, 1 | WIDE);
}
#pragma weak MPI_Ialltoall_c = PMPI_Ialltoall_c

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Alltoall_init_c", info);
    return gompi_Alltoall((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, 2 | WIDE);
}
#pragma weak MPI_Alltoall_init_c = PMPI_Alltoall_init_c

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Alltoallv((void *)sendbuf, (void *)sendcounts, (void *)sdispls, sendtype, NULL, recvbuf, (void *)recvcounts, (void *)rdispls, recvtype, NULL, comm, NULL, 0 | WIDE, 0);
}
#pragma weak MPI_Alltoallv_c = PMPI_Alltoallv_c

int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Alltoallv((void *)sendbuf, (void *)sendcounts, (void *)sdispls, sendtype, NULL, recvbuf, (void *)recvcounts, (void *)rdispls, recvtype, NULL, comm, request, 1 | WIDE, 0);
}
#pragma weak MPI_Ialltoallv_c = PMPI_Ialltoallv_c

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Alltoallv_init_c", info);
    return gompi_Alltoallv((void *)sendbuf, (void *)sendcounts, (void *)sdispls, sendtype, NULL, recvbuf, (void *)recvcounts, (void *)rdispls, recvtype, NULL, comm, request, 2 | WIDE, 0);
}
#pragma weak MPI_Alltoallv_init_c = PMPI_Alltoallv_init_c

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return gompi_Alltoallv((void *)sendbuf, (void *)sendcounts, (void *)sdispls, MPI_DATATYPE_NULL, (void *)sendtypes, recvbuf, (void *)recvcounts, (void *)rdispls, MPI_DATATYPE_NULL, (void *)recvtypes, comm, NULL, 0 | WIDE, 1);
}
#pragma weak MPI_Alltoallw_c = PMPI_Alltoallw_c

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    return gompi_Alltoallv((void *)sendbuf, (void *)sendcounts, (void *)sdispls, MPI_DATATYPE_NULL, (void *)sendtypes, recvbuf, (void *)recvcounts, (void *)rdispls, MPI_DATATYPE_NULL, (void *)recvtypes, comm, request, 1 | WIDE, 1);
}
#pragma weak MPI_Ialltoallw_c = PMPI_Ialltoallw_c

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Alltoallw_init_c", info);
    return gompi_Alltoallv((void *)sendbuf, (void *)sendcounts, (void *)sdispls, MPI_DATATYPE_NULL, (void *)sendtypes, recvbuf, (void *)recvcounts, (void *)rdispls, MPI_DATATYPE_NULL, (void *)recvtypes, comm, request, 2 | WIDE, 1);
}
#pragma weak MPI_Alltoallw_init_c = PMPI_Alltoallw_init_c

int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    return gompi_Reduce((void *)sendbuf, recvbuf, count, datatype, op, root, comm, NULL, 0 | WIDE);
}
#pragma weak MPI_Reduce_c = PMPI_Reduce_c

int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Reduce((void *)sendbuf, recvbuf, count, datatype, op, root, comm, request, 1 | WIDE);
}
#pragma weak MPI_Ireduce_c = PMPI_Ireduce_c

int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Reduce_init_c", info);
    return gompi_Reduce((void *)sendbuf, recvbuf, count, datatype, op, root, comm, request, 2 | WIDE);
}
#pragma weak MPI_Reduce_init_c = PMPI_Reduce_init_c

int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, NULL, 0 | WIDE, 0);
}
#pragma weak MPI_Allreduce_c = PMPI_Allreduce_c

int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 1 | WIDE, 0);
}
#pragma weak MPI_Iallreduce_c = PMPI_Iallreduce_c

int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Allreduce_init_c", info);
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 2 | WIDE, 0);
}
#pragma weak MPI_Allreduce_init_c = PMPI_Allreduce_init_c

int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, NULL, 0 | WIDE, 1);
}
#pragma weak MPI_Scan_c = PMPI_Scan_c

int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 1 | WIDE, 1);
}
#pragma weak MPI_Iscan_c = PMPI_Iscan_c

int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Scan_init_c", info);
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 2 | WIDE, 1);
}
#pragma weak MPI_Scan_init_c = PMPI_Scan_init_c

int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, NULL, 0 | WIDE, 2);
}
#pragma weak MPI_Exscan_c = PMPI_Exscan_c

int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 1 | WIDE, 2);
}
#pragma weak MPI_Iexscan_c = PMPI_Iexscan_c

int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Exscan_init_c", info);
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 2 | WIDE, 2);
}
#pragma weak MPI_Exscan_init_c = PMPI_Exscan_init_c

int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, recvcount, datatype, op, comm, NULL, 0 | WIDE, 3);
}
#pragma weak MPI_Reduce_scatter_block_c = PMPI_Reduce_scatter_block_c

int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, recvcount, datatype, op, comm, request, 1 | WIDE, 3);
}
#pragma weak MPI_Ireduce_scatter_block_c = PMPI_Ireduce_scatter_block_c

int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Reduce_scatter_block_init_c", info);
    return gompi_Allreduce((void *)sendbuf, recvbuf, recvcount, datatype, op, comm, request, 2 | WIDE, 3);
}
#pragma weak MPI_Reduce_scatter_block_init_c = PMPI_Reduce_scatter_block_init_c

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return gompi_Reduce_scatter((void *)sendbuf, recvbuf, (void *)recvcounts, datatype, op, comm, NULL, 0 | WIDE);
}
#pragma weak MPI_Reduce_scatter_c = PMPI_Reduce_scatter_c

int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Reduce_scatter((void *)sendbuf, recvbuf, (void *)recvcounts, datatype, op, comm, request, 1 | WIDE);
}
#pragma weak MPI_Ireduce_scatter_c = PMPI_Ireduce_scatter_c

int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Reduce_scatter_init_c", info);
    return gompi_Reduce_scatter((void *)sendbuf, recvbuf, (void *)recvcounts, datatype, op, comm, request, 2 | WIDE);
}
#pragma weak MPI_Reduce_scatter_init_c = PMPI_Reduce_scatter_init_c

int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Neighbor(0, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, NULL, 0 | WIDE);
}
#pragma weak MPI_Neighbor_allgather_c = PMPI_Neighbor_allgather_c

int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Neighbor(0, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request, 1 | WIDE);
}
#pragma weak MPI_Ineighbor_allgather_c = PMPI_Ineighbor_allgather_c

int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Neighbor_allgather_init_c", info);
    return gompi_Neighbor(0, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request, 2 | WIDE);
}
#pragma weak MPI_Neighbor_allgather_init_c = PMPI_Neighbor_allgather_init_c

int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Neighbor(1, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0, (void *)recvcounts, (void *)displs, recvtype, NULL, comm, NULL, 0 | WIDE);
}
#pragma weak MPI_Neighbor_allgatherv_c = PMPI_Neighbor_allgatherv_c

int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Neighbor(1, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0, (void *)recvcounts, (void *)displs, recvtype, NULL, comm, request, 1 | WIDE);
}
#pragma weak MPI_Ineighbor_allgatherv_c = PMPI_Ineighbor_allgatherv_c

int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Neighbor_allgatherv_init_c", info);
    return gompi_Neighbor(1, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0, (void *)recvcounts, (void *)displs, recvtype, NULL, comm, request, 2 | WIDE);
}
#pragma weak MPI_Neighbor_allgatherv_init_c = PMPI_Neighbor_allgatherv_init_c

int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Neighbor(2, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, NULL, 0 | WIDE);
}
#pragma weak MPI_Neighbor_alltoall_c = PMPI_Neighbor_alltoall_c

int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Neighbor(2, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request, 1 | WIDE);
}
#pragma weak MPI_Ineighbor_alltoall_c = PMPI_Ineighbor_alltoall_c

int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Neighbor_alltoall_init_c", info);
    return gompi_Neighbor(2, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request, 2 | WIDE);
}
#pragma weak MPI_Neighbor_alltoall_init_c = PMPI_Neighbor_alltoall_init_c

int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Neighbor(3, (void *)sendbuf, 0, (void *)sendcounts, (void *)sdispls, sendtype, NULL, recvbuf, 0, (void *)recvcounts, (void *)rdispls, recvtype, NULL, comm, NULL, 0 | WIDE);
}
#pragma weak MPI_Neighbor_alltoallv_c = PMPI_Neighbor_alltoallv_c

int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Neighbor(3, (void *)sendbuf, 0, (void *)sendcounts, (void *)sdispls, sendtype, NULL, recvbuf, 0, (void *)recvcounts, (void *)rdispls, recvtype, NULL, comm, request, 1 | WIDE);
}
#pragma weak MPI_Ineighbor_alltoallv_c = PMPI_Ineighbor_alltoallv_c

int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Neighbor_alltoallv_init_c", info);
    return gompi_Neighbor(3, (void *)sendbuf, 0, (void *)sendcounts, (void *)sdispls, sendtype, NULL, recvbuf, 0, (void *)recvcounts, (void *)rdispls, recvtype, NULL, comm, request, 2 | WIDE);
}
#pragma weak MPI_Neighbor_alltoallv_init_c = PMPI_Neighbor_alltoallv_init_c

int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return gompi_Neighbor(4, (void *)sendbuf, 0, (void *)sendcounts, (void *)sdispls, MPI_DATATYPE_NULL, (void *)sendtypes, recvbuf, 0, (void *)recvcounts, (void *)rdispls, MPI_DATATYPE_NULL, (void *)recvtypes, comm, NULL, 0 | WIDE);
}
#pragma weak MPI_Neighbor_alltoallw_c = PMPI_Neighbor_alltoallw_c

int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    return gompi_Neighbor(4, (void *)sendbuf, 0, (void *)sendcounts, (void *)sdispls, MPI_DATATYPE_NULL, (void *)sendtypes, recvbuf, 0, (void *)recvcounts, (void *)rdispls, MPI_DATATYPE_NULL, (void *)recvtypes, comm, request, 1 | WIDE);
}
#pragma weak MPI_Ineighbor_alltoallw_c = PMPI_Ineighbor_alltoallw_c

int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Neighbor_alltoallw_init_c", info);
    return gompi_Neighbor(4, (void *)sendbuf, 0, (void *)sendcounts, (void *)sdispls, MPI_DATATYPE_NULL, (void *)sendtypes, recvbuf, 0, (void *)recvcounts, (void *)rdispls, MPI_DATATYPE_NULL, (void *)recvtypes, comm, request, 2 | WIDE);
}
#pragma weak MPI_Neighbor_alltoallw_init_c = PMPI_Neighbor_alltoallw_init_c

