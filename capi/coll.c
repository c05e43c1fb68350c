/* Collectives: blocking, nonblocking (MPI_I*) and persistent (*_init) forms,
 * each one crossing into Go (coll.go) with its mode. Generated from the
 * prototypes of mpi.h; the info argument of *_init carries no hints yet. */
#include "gompi.h"
#include "fastpath.h"
#include "shmcoll.h"
#include "_cgo_export.h"

int PMPI_Barrier(MPI_Comm comm)
{
    if (gompi_shm_barrier(comm) == MPI_SUCCESS) return gompi_shm_counted(GOMPI_SHM_BARRIER);
    return gompi_Barrier(comm, NULL, 0);
}
#pragma weak MPI_Barrier = PMPI_Barrier

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return gompi_Barrier(comm, request, 1);
}
#pragma weak MPI_Ibarrier = PMPI_Ibarrier

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Barrier_init", info);
    return gompi_Barrier(comm, request, 2);
}
#pragma weak MPI_Barrier_init = PMPI_Barrier_init

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    if (gompi_shm_bcast(buffer, count, datatype, root, comm) == MPI_SUCCESS) return gompi_shm_counted(GOMPI_SHM_BCAST);
    return gompi_Bcast(buffer, count, datatype, root, comm, NULL, 0);
}
#pragma weak MPI_Bcast = PMPI_Bcast

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Bcast(buffer, count, datatype, root, comm, request, 1);
}
#pragma weak MPI_Ibcast = PMPI_Ibcast

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Bcast_init", info);
    return gompi_Bcast(buffer, count, datatype, root, comm, request, 2);
}
#pragma weak MPI_Bcast_init = PMPI_Bcast_init

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root, comm, NULL, 0, 0);
}
#pragma weak MPI_Gather = PMPI_Gather

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root, comm, request, 1, 0);
}
#pragma weak MPI_Igather = PMPI_Igather

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Gather_init", info);
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root, comm, request, 2, 0);
}
#pragma weak MPI_Gather_init = PMPI_Gather_init

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (int *)recvcounts, (int *)displs, recvtype, root, comm, NULL, 0, 1);
}
#pragma weak MPI_Gatherv = PMPI_Gatherv

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (int *)recvcounts, (int *)displs, recvtype, root, comm, request, 1, 1);
}
#pragma weak MPI_Igatherv = PMPI_Igatherv

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Gatherv_init", info);
    return gompi_Gather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (int *)recvcounts, (int *)displs, recvtype, root, comm, request, 2, 1);
}
#pragma weak MPI_Gatherv_init = PMPI_Gatherv_init

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gompi_Scatter((void *)sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root, comm, NULL, 0, 0);
}
#pragma weak MPI_Scatter = PMPI_Scatter

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Scatter((void *)sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root, comm, request, 1, 0);
}
#pragma weak MPI_Iscatter = PMPI_Iscatter

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Scatter_init", info);
    return gompi_Scatter((void *)sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root, comm, request, 2, 0);
}
#pragma weak MPI_Scatter_init = PMPI_Scatter_init

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gompi_Scatter((void *)sendbuf, 0, (int *)sendcounts, (int *)displs, sendtype, recvbuf, recvcount, recvtype, root, comm, NULL, 0, 1);
}
#pragma weak MPI_Scatterv = PMPI_Scatterv

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Scatter((void *)sendbuf, 0, (int *)sendcounts, (int *)displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request, 1, 1);
}
#pragma weak MPI_Iscatterv = PMPI_Iscatterv

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Scatterv_init", info);
    return gompi_Scatter((void *)sendbuf, 0, (int *)sendcounts, (int *)displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request, 2, 1);
}
#pragma weak MPI_Scatterv_init = PMPI_Scatterv_init

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (gompi_shm_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm) == MPI_SUCCESS)
        return gompi_shm_counted(GOMPI_SHM_ALLGATHER);
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm, NULL, 0, 0);
}
#pragma weak MPI_Allgather = PMPI_Allgather

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm, request, 1, 0);
}
#pragma weak MPI_Iallgather = PMPI_Iallgather

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Allgather_init", info);
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm, request, 2, 0);
}
#pragma weak MPI_Allgather_init = PMPI_Allgather_init

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (int *)recvcounts, (int *)displs, recvtype, comm, NULL, 0, 1);
}
#pragma weak MPI_Allgatherv = PMPI_Allgatherv

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (int *)recvcounts, (int *)displs, recvtype, comm, request, 1, 1);
}
#pragma weak MPI_Iallgatherv = PMPI_Iallgatherv

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Allgatherv_init", info);
    return gompi_Allgather((void *)sendbuf, sendcount, sendtype, recvbuf, 0, (int *)recvcounts, (int *)displs, recvtype, comm, request, 2, 1);
}
#pragma weak MPI_Allgatherv_init = PMPI_Allgatherv_init

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (gompi_shm_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm) == MPI_SUCCESS)
        return gompi_shm_counted(GOMPI_SHM_ALLTOALL);
    return gompi_Alltoall((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL, 0);
}
#pragma weak MPI_Alltoall = PMPI_Alltoall

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Alltoall((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, 1);
}
#pragma weak MPI_Ialltoall = PMPI_Ialltoall

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Alltoall_init", info);
    return gompi_Alltoall((void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, 2);
}
#pragma weak MPI_Alltoall_init = PMPI_Alltoall_init

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Alltoallv((void *)sendbuf, (int *)sendcounts, (int *)sdispls, sendtype, NULL, recvbuf, (int *)recvcounts, (int *)rdispls, recvtype, NULL, comm, NULL, 0, 0);
}
#pragma weak MPI_Alltoallv = PMPI_Alltoallv

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Alltoallv((void *)sendbuf, (int *)sendcounts, (int *)sdispls, sendtype, NULL, recvbuf, (int *)recvcounts, (int *)rdispls, recvtype, NULL, comm, request, 1, 0);
}
#pragma weak MPI_Ialltoallv = PMPI_Ialltoallv

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Alltoallv_init", info);
    return gompi_Alltoallv((void *)sendbuf, (int *)sendcounts, (int *)sdispls, sendtype, NULL, recvbuf, (int *)recvcounts, (int *)rdispls, recvtype, NULL, comm, request, 2, 0);
}
#pragma weak MPI_Alltoallv_init = PMPI_Alltoallv_init

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return gompi_Alltoallv((void *)sendbuf, (int *)sendcounts, (int *)sdispls, MPI_DATATYPE_NULL, (int *)sendtypes, recvbuf, (int *)recvcounts, (int *)rdispls, MPI_DATATYPE_NULL, (int *)recvtypes, comm, NULL, 0, 1);
}
#pragma weak MPI_Alltoallw = PMPI_Alltoallw

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    return gompi_Alltoallv((void *)sendbuf, (int *)sendcounts, (int *)sdispls, MPI_DATATYPE_NULL, (int *)sendtypes, recvbuf, (int *)recvcounts, (int *)rdispls, MPI_DATATYPE_NULL, (int *)recvtypes, comm, request, 1, 1);
}
#pragma weak MPI_Ialltoallw = PMPI_Ialltoallw

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Alltoallw_init", info);
    return gompi_Alltoallv((void *)sendbuf, (int *)sendcounts, (int *)sdispls, MPI_DATATYPE_NULL, (int *)sendtypes, recvbuf, (int *)recvcounts, (int *)rdispls, MPI_DATATYPE_NULL, (int *)recvtypes, comm, request, 2, 1);
}
#pragma weak MPI_Alltoallw_init = PMPI_Alltoallw_init

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    if (gompi_shm_reduce(sendbuf, recvbuf, count, datatype, op, root, comm) == MPI_SUCCESS) return gompi_shm_counted(GOMPI_SHM_REDUCE);
    return gompi_Reduce((void *)sendbuf, recvbuf, count, datatype, op, root, comm, NULL, 0);
}
#pragma weak MPI_Reduce = PMPI_Reduce

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Reduce((void *)sendbuf, recvbuf, count, datatype, op, root, comm, request, 1);
}
#pragma weak MPI_Ireduce = PMPI_Ireduce

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Reduce_init", info);
    return gompi_Reduce((void *)sendbuf, recvbuf, count, datatype, op, root, comm, request, 2);
}
#pragma weak MPI_Reduce_init = PMPI_Reduce_init

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (gompi_shm_allreduce(sendbuf, recvbuf, count, datatype, op, comm) == MPI_SUCCESS) return gompi_shm_counted(GOMPI_SHM_ALLREDUCE);
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, NULL, 0, 0);
}
#pragma weak MPI_Allreduce = PMPI_Allreduce

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 1, 0);
}
#pragma weak MPI_Iallreduce = PMPI_Iallreduce

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Allreduce_init", info);
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 2, 0);
}
#pragma weak MPI_Allreduce_init = PMPI_Allreduce_init

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, NULL, 0, 1);
}
#pragma weak MPI_Scan = PMPI_Scan

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 1, 1);
}
#pragma weak MPI_Iscan = PMPI_Iscan

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Scan_init", info);
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 2, 1);
}
#pragma weak MPI_Scan_init = PMPI_Scan_init

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, NULL, 0, 2);
}
#pragma weak MPI_Exscan = PMPI_Exscan

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 1, 2);
}
#pragma weak MPI_Iexscan = PMPI_Iexscan

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Exscan_init", info);
    return gompi_Allreduce((void *)sendbuf, recvbuf, count, datatype, op, comm, request, 2, 2);
}
#pragma weak MPI_Exscan_init = PMPI_Exscan_init

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (gompi_shm_reduce_scatter(sendbuf, recvbuf, recvcount, NULL, datatype, op, comm) == MPI_SUCCESS)
        return gompi_shm_counted(GOMPI_SHM_REDUCE_SCATTER);
    return gompi_Allreduce((void *)sendbuf, recvbuf, recvcount, datatype, op, comm, NULL, 0, 3);
}
#pragma weak MPI_Reduce_scatter_block = PMPI_Reduce_scatter_block

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Allreduce((void *)sendbuf, recvbuf, recvcount, datatype, op, comm, request, 1, 3);
}
#pragma weak MPI_Ireduce_scatter_block = PMPI_Ireduce_scatter_block

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Reduce_scatter_block_init", info);
    return gompi_Allreduce((void *)sendbuf, recvbuf, recvcount, datatype, op, comm, request, 2, 3);
}
#pragma weak MPI_Reduce_scatter_block_init = PMPI_Reduce_scatter_block_init

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (recvcounts && gompi_shm_reduce_scatter(sendbuf, recvbuf, 0, recvcounts, datatype, op, comm) == MPI_SUCCESS)
        return gompi_shm_counted(GOMPI_SHM_REDUCE_SCATTER);
    return gompi_Reduce_scatter((void *)sendbuf, recvbuf, (int *)recvcounts, datatype, op, comm, NULL, 0);
}
#pragma weak MPI_Reduce_scatter = PMPI_Reduce_scatter

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Reduce_scatter((void *)sendbuf, recvbuf, (int *)recvcounts, datatype, op, comm, request, 1);
}
#pragma weak MPI_Ireduce_scatter = PMPI_Ireduce_scatter

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Reduce_scatter_init", info);
    return gompi_Reduce_scatter((void *)sendbuf, recvbuf, (int *)recvcounts, datatype, op, comm, request, 2);
}
#pragma weak MPI_Reduce_scatter_init = PMPI_Reduce_scatter_init
