package abi

// Partitioned communication (MPI-4.1 chapter 4).
const partProtos = `
int MPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
int MPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
int MPI_Pready(int partition, MPI_Request request)
int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
int MPI_Parrived(MPI_Request request, int partition, int *flag)
`
