/* Large-count (_c) reduction calls (Go side in op.go). */
#include "gompi.h"
#include "_cgo_export.h"

void gompi_call_user_op_c(void *fn, void *in, void *inout, MPI_Count len, int dt)
{
    MPI_Datatype d = dt;
    ((MPI_User_function_c *)fn)(in, inout, &len, &d);
}

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return gompi_Op_create((void *)user_fn, commute, op, 1);
}
#pragma weak MPI_Op_create_c = PMPI_Op_create_c

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    return gompi_Reduce_local((void *)inbuf, inoutbuf, count, datatype, op);
}
#pragma weak MPI_Reduce_local_c = PMPI_Reduce_local_c
