/* Attribute caching: keyvals and attributes live on the Go side (attr/,
 * mpi/attr.go); C callbacks are called through the two trampolines here. */
#include <stdint.h>
#include "gompi.h"
#include "_cgo_export.h"

/* Values of the predefined attributes; MPI_Comm_get_attr returns pointers
 * into this array (one slot per predefined keyval). */
int gompi_predef_attr[8];

int gompi_attr_copy(void *fn, int obj, int keyval, uintptr_t extra, uintptr_t in, uintptr_t *out, int *flag)
{
    void *o = NULL;
    int f = 0;
    int rc = ((MPI_Comm_copy_attr_function *)fn)(obj, keyval, (void *)extra, (void *)in, &o, &f);
    *out = (uintptr_t)o;
    *flag = f;
    return rc;
}

int gompi_attr_delete(void *fn, int obj, int keyval, uintptr_t val, uintptr_t extra)
{
    return ((MPI_Comm_delete_attr_function *)fn)(obj, keyval, (void *)val, (void *)extra);
}

/* MPI_DUP_FN, MPI_COMM_DUP_FN, MPI_TYPE_DUP_FN, MPI_WIN_DUP_FN: copy the
 * value and keep it. Exported under MPICH's name so MPICH-built programs
 * find it too. */
int MPIR_Dup_fn(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                void *attribute_val_out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

#define KV_COMM 1
#define KV_TYPE 3
#define KV_WIN 8

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn, MPI_Comm_delete_attr_function *delete_fn,
                            int *keyval, void *extra_state)
{
    return gompi_create_keyval(KV_COMM, (void *)copy_fn, (void *)delete_fn, keyval, (uintptr_t)extra_state,
                               "MPI_Comm_create_keyval");
}
#pragma weak MPI_Comm_create_keyval = PMPI_Comm_create_keyval

int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state)
{
    return gompi_create_keyval(KV_COMM, (void *)copy_fn, (void *)delete_fn, keyval, (uintptr_t)extra_state,
                               "MPI_Keyval_create");
}
#pragma weak MPI_Keyval_create = PMPI_Keyval_create

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy_fn, MPI_Type_delete_attr_function *delete_fn,
                            int *keyval, void *extra_state)
{
    return gompi_create_keyval(KV_TYPE, (void *)copy_fn, (void *)delete_fn, keyval, (uintptr_t)extra_state,
                               "MPI_Type_create_keyval");
}
#pragma weak MPI_Type_create_keyval = PMPI_Type_create_keyval

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn, MPI_Win_delete_attr_function *delete_fn,
                           int *keyval, void *extra_state)
{
    return gompi_create_keyval(KV_WIN, (void *)copy_fn, (void *)delete_fn, keyval, (uintptr_t)extra_state,
                               "MPI_Win_create_keyval");
}
#pragma weak MPI_Win_create_keyval = PMPI_Win_create_keyval

int PMPI_Comm_free_keyval(int *keyval) { return gompi_free_keyval(KV_COMM, keyval, "MPI_Comm_free_keyval"); }
#pragma weak MPI_Comm_free_keyval = PMPI_Comm_free_keyval

int PMPI_Keyval_free(int *keyval) { return gompi_free_keyval(KV_COMM, keyval, "MPI_Keyval_free"); }
#pragma weak MPI_Keyval_free = PMPI_Keyval_free

int PMPI_Type_free_keyval(int *keyval) { return gompi_free_keyval(KV_TYPE, keyval, "MPI_Type_free_keyval"); }
#pragma weak MPI_Type_free_keyval = PMPI_Type_free_keyval

int PMPI_Win_free_keyval(int *keyval) { return gompi_free_keyval(KV_WIN, keyval, "MPI_Win_free_keyval"); }
#pragma weak MPI_Win_free_keyval = PMPI_Win_free_keyval

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val)
{
    return gompi_Comm_set_attr(comm, keyval, (uintptr_t)attribute_val, "MPI_Comm_set_attr");
}
#pragma weak MPI_Comm_set_attr = PMPI_Comm_set_attr

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return gompi_Comm_set_attr(comm, keyval, (uintptr_t)attribute_val, "MPI_Attr_put");
}
#pragma weak MPI_Attr_put = PMPI_Attr_put

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return gompi_Comm_get_attr(comm, keyval, attribute_val, flag, "MPI_Comm_get_attr");
}
#pragma weak MPI_Comm_get_attr = PMPI_Comm_get_attr

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return gompi_Comm_get_attr(comm, keyval, attribute_val, flag, "MPI_Attr_get");
}
#pragma weak MPI_Attr_get = PMPI_Attr_get

int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval) { return gompi_Comm_delete_attr(comm, keyval, "MPI_Comm_delete_attr"); }
#pragma weak MPI_Comm_delete_attr = PMPI_Comm_delete_attr

int PMPI_Attr_delete(MPI_Comm comm, int keyval) { return gompi_Comm_delete_attr(comm, keyval, "MPI_Attr_delete"); }
#pragma weak MPI_Attr_delete = PMPI_Attr_delete

int PMPI_Type_set_attr(MPI_Datatype datatype, int keyval, void *attribute_val)
{
    return gompi_Type_set_attr(datatype, keyval, (uintptr_t)attribute_val);
}
#pragma weak MPI_Type_set_attr = PMPI_Type_set_attr

int PMPI_Type_get_attr(MPI_Datatype datatype, int keyval, void *attribute_val, int *flag)
{
    return gompi_Type_get_attr(datatype, keyval, attribute_val, flag);
}
#pragma weak MPI_Type_get_attr = PMPI_Type_get_attr

int PMPI_Type_delete_attr(MPI_Datatype datatype, int keyval) { return gompi_Type_delete_attr(datatype, keyval); }
#pragma weak MPI_Type_delete_attr = PMPI_Type_delete_attr
