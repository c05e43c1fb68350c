package abi

// Partitioned communication (MPI-4.1 chapter 4). MPI_Pready_list takes a
// non-const array as MPICH 4.0 declares it (tests/abi compares the two
// headers; MPI-4.1 adds const).
const partProtos = `
int MPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
int MPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
int MPI_Pready(int partition, MPI_Request request)
int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
int MPI_Pready_list(int length, int array_of_partitions[], MPI_Request request)
int MPI_Parrived(MPI_Request request, int partition, int *flag)
`
