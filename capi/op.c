/* Reduction operations: MPI_Op_create/free/commutative and MPI_Reduce_local.
 * User functions are C function pointers the Go side calls through
 * gompi_call_user_op. */
#include "gompi.h"
#include "_cgo_export.h"

/* From op/kernels.c (linked into the same library). */
int gompi_op_builtin_type(int dt);
int gompi_op_reduce_builtin(int op, int dt, const void *in, void *inout, int count);

void gompi_call_user_op(void *fn, void *in, void *inout, int len, int dt)
{
    MPI_Datatype d = dt;
    ((MPI_User_function *)fn)(in, inout, &len, &d);
}

/* User functions by op handle index (MPICH direct op handles 0x98000000|i),
 * so MPI_Reduce_local with a user op on a predefined type calls the function
 * without crossing into Go. Set by Op_create, cleared by Op_free. */
#define USER_OPS_C 1024
static MPI_User_function *user_fns[USER_OPS_C];

void gompi_op_user_set(int handle, void *fn)
{
    unsigned i = (unsigned)handle - 0x98000000u;
    if (i < USER_OPS_C) __atomic_store_n(&user_fns[i], (MPI_User_function *)fn, __ATOMIC_RELEASE);
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return gompi_Op_create((void *)user_fn, commute, op, 0);
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

/* Valid calls on predefined datatypes run here in C (a crossing into Go
 * would cost more than a small reduction); everything else, errors included,
 * goes to Go, which checks and reports. */
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    if (gompi_state == GOMPI_READY && count > 0 && inbuf && inoutbuf && inbuf != MPI_IN_PLACE &&
        inoutbuf != MPI_IN_PLACE && inbuf != inoutbuf) {
        if (gompi_op_reduce_builtin(op, datatype, inbuf, inoutbuf, count) == 0) return MPI_SUCCESS;
        unsigned i = (unsigned)op - 0x98000000u;
        if (i < USER_OPS_C && gompi_op_builtin_type(datatype)) {
            MPI_User_function *fn = __atomic_load_n(&user_fns[i], __ATOMIC_ACQUIRE);
            if (fn) {
                fn((void *)inbuf, inoutbuf, &count, &datatype);
                return MPI_SUCCESS;
            }
        }
    }
    return gompi_Reduce_local((void *)inbuf, inoutbuf, count, datatype, op);
}
#pragma weak MPI_Reduce_local = PMPI_Reduce_local
