/* Neighbourhood collectives in their three forms, crossing into Go
 * (coll_neighbor.go) once. Generated from the prototypes of mpi.h. */
#include "gompi.h"
#include "_cgo_export.h"

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Neighbor(0, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, NULL, 0);
}
#pragma weak MPI_Neighbor_allgather = PMPI_Neighbor_allgather

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Neighbor(0, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request, 1);
}
#pragma weak MPI_Ineighbor_allgather = PMPI_Ineighbor_allgather

int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Neighbor_allgather_init", info);
    return gompi_Neighbor(0, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request, 2);
}
#pragma weak MPI_Neighbor_allgather_init = PMPI_Neighbor_allgather_init

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Neighbor(1, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0, (int *)recvcounts, (void *)displs, recvtype, NULL, comm, NULL, 0);
}
#pragma weak MPI_Neighbor_allgatherv = PMPI_Neighbor_allgatherv

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Neighbor(1, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0, (int *)recvcounts, (void *)displs, recvtype, NULL, comm, request, 1);
}
#pragma weak MPI_Ineighbor_allgatherv = PMPI_Ineighbor_allgatherv

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Neighbor_allgatherv_init", info);
    return gompi_Neighbor(1, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, 0, (int *)recvcounts, (void *)displs, recvtype, NULL, comm, request, 2);
}
#pragma weak MPI_Neighbor_allgatherv_init = PMPI_Neighbor_allgatherv_init

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Neighbor(2, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, NULL, 0);
}
#pragma weak MPI_Neighbor_alltoall = PMPI_Neighbor_alltoall

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Neighbor(2, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request, 1);
}
#pragma weak MPI_Ineighbor_alltoall = PMPI_Ineighbor_alltoall

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Neighbor_alltoall_init", info);
    return gompi_Neighbor(2, (void *)sendbuf, sendcount, NULL, NULL, sendtype, NULL, recvbuf, recvcount, NULL, NULL, recvtype, NULL, comm, request, 2);
}
#pragma weak MPI_Neighbor_alltoall_init = PMPI_Neighbor_alltoall_init

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return gompi_Neighbor(3, (void *)sendbuf, 0, (int *)sendcounts, (void *)sdispls, sendtype, NULL, recvbuf, 0, (int *)recvcounts, (void *)rdispls, recvtype, NULL, comm, NULL, 0);
}
#pragma weak MPI_Neighbor_alltoallv = PMPI_Neighbor_alltoallv

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Neighbor(3, (void *)sendbuf, 0, (int *)sendcounts, (void *)sdispls, sendtype, NULL, recvbuf, 0, (int *)recvcounts, (void *)rdispls, recvtype, NULL, comm, request, 1);
}
#pragma weak MPI_Ineighbor_alltoallv = PMPI_Ineighbor_alltoallv

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Neighbor_alltoallv_init", info);
    return gompi_Neighbor(3, (void *)sendbuf, 0, (int *)sendcounts, (void *)sdispls, sendtype, NULL, recvbuf, 0, (int *)recvcounts, (void *)rdispls, recvtype, NULL, comm, request, 2);
}
#pragma weak MPI_Neighbor_alltoallv_init = PMPI_Neighbor_alltoallv_init

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return gompi_Neighbor(4, (void *)sendbuf, 0, (int *)sendcounts, (void *)sdispls, MPI_DATATYPE_NULL, (int *)sendtypes, recvbuf, 0, (int *)recvcounts, (void *)rdispls, MPI_DATATYPE_NULL, (int *)recvtypes, comm, NULL, 0);
}
#pragma weak MPI_Neighbor_alltoallw = PMPI_Neighbor_alltoallw

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    return gompi_Neighbor(4, (void *)sendbuf, 0, (int *)sendcounts, (void *)sdispls, MPI_DATATYPE_NULL, (int *)sendtypes, recvbuf, 0, (int *)recvcounts, (void *)rdispls, MPI_DATATYPE_NULL, (int *)recvtypes, comm, request, 1);
}
#pragma weak MPI_Ineighbor_alltoallw = PMPI_Ineighbor_alltoallw

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    GOMPI_INFO_ARG(comm, "MPI_Neighbor_alltoallw_init", info);
    return gompi_Neighbor(4, (void *)sendbuf, 0, (int *)sendcounts, (void *)sdispls, MPI_DATATYPE_NULL, (int *)sendtypes, recvbuf, 0, (int *)recvcounts, (void *)rdispls, MPI_DATATYPE_NULL, (int *)recvtypes, comm, request, 2);
}
#pragma weak MPI_Neighbor_alltoallw_init = PMPI_Neighbor_alltoallw_init
