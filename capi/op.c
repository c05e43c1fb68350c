/* Reduction operations: MPI_Op_create/free/commutative and MPI_Reduce_local.
 * User functions are C function pointers the Go side calls through
 * gompi_call_user_op. */
#include "gompi.h"
#include "_cgo_export.h"

void gompi_call_user_op(void *fn, void *in, void *inout, int len, int dt)
{
    MPI_Datatype d = dt;
    ((MPI_User_function *)fn)(in, inout, &len, &d);
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return gompi_Op_create((void *)user_fn, commute, op);
}
#pragma weak MPI_Op_create = PMPI_Op_create

int PMPI_Op_free(MPI_Op *op)
{
    return gompi_Op_free(op);
}
#pragma weak MPI_Op_free = PMPI_Op_free

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    return gompi_Op_commutative(op, commute);
}
#pragma weak MPI_Op_commutative = PMPI_Op_commutative

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    return gompi_Reduce_local((void *)inbuf, inoutbuf, count, datatype, op);
}
#pragma weak MPI_Reduce_local = PMPI_Reduce_local
