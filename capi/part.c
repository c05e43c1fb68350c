/* Partitioned communication (MPI-4): each call crosses into Go once. */
#include "gompi.h"
#include "_cgo_export.h"

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest,
                    int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return gompi_Pinit((void *)buf, partitions, count, datatype, dest, tag, comm, info, request, 0);
}
#pragma weak MPI_Psend_init = PMPI_Psend_init

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                    int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return gompi_Pinit(buf, partitions, count, datatype, source, tag, comm, info, request, 1);
}
#pragma weak MPI_Precv_init = PMPI_Precv_init

int PMPI_Pready(int partition, MPI_Request request)
{
    return gompi_Pready(partition, partition, request);
}
#pragma weak MPI_Pready = PMPI_Pready

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    return gompi_Pready(partition_low, partition_high, request);
}
#pragma weak MPI_Pready_range = PMPI_Pready_range

int PMPI_Pready_list(int length, int array_of_partitions[], MPI_Request request)
{
    return gompi_Pready_list(length, array_of_partitions, request);
}
#pragma weak MPI_Pready_list = PMPI_Pready_list

int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    return gompi_Parrived(request, partition, flag);
}
#pragma weak MPI_Parrived = PMPI_Parrived
