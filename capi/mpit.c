/* The tools interface (MPI_T): usable before MPI_Init and after
 * MPI_Finalize. Handles are small integers carried in MPI_T's pointer types;
 * each call crosses into Go once (mpit.go). */
#include <stdint.h>
#include "gompi.h"
#include "_cgo_export.h"

#define H(x) ((uintptr_t)(x))

int PMPI_T_init_thread(int required, int *provided) { return gompi_T_init_thread(required, provided); }
#pragma weak MPI_T_init_thread = PMPI_T_init_thread
int PMPI_T_finalize(void) { return gompi_T_finalize(); }
#pragma weak MPI_T_finalize = PMPI_T_finalize

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    return gompi_T_enum_get_info(H(enumtype), num, name, name_len);
}
#pragma weak MPI_T_enum_get_info = PMPI_T_enum_get_info
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    return gompi_T_enum_get_item(H(enumtype), index, value, name, name_len);
}
#pragma weak MPI_T_enum_get_item = PMPI_T_enum_get_item

int PMPI_T_cvar_get_num(int *num_cvar) { return gompi_T_get_num(0, num_cvar); }
#pragma weak MPI_T_cvar_get_num = PMPI_T_cvar_get_num
int PMPI_T_pvar_get_num(int *num_pvar) { return gompi_T_get_num(1, num_pvar); }
#pragma weak MPI_T_pvar_get_num = PMPI_T_pvar_get_num
int PMPI_T_category_get_num(int *num_cat) { return gompi_T_get_num(2, num_cat); }
#pragma weak MPI_T_category_get_num = PMPI_T_category_get_num

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    return gompi_T_cvar_get_info(cvar_index, name, name_len, verbosity, datatype, (uintptr_t *)enumtype, desc,
                                 desc_len, bind, scope);
}
#pragma weak MPI_T_cvar_get_info = PMPI_T_cvar_get_info
int PMPI_T_cvar_get_index(const char *name, int *cvar_index) { return gompi_T_get_index(0, (char *)name, 0, cvar_index); }
#pragma weak MPI_T_cvar_get_index = PMPI_T_cvar_get_index
int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count)
{
    (void)obj_handle; /* every variable is unbound */
    return gompi_T_cvar_handle_alloc(cvar_index, (uintptr_t *)handle, count);
}
#pragma weak MPI_T_cvar_handle_alloc = PMPI_T_cvar_handle_alloc
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle) { return gompi_T_cvar_handle_free((uintptr_t *)handle); }
#pragma weak MPI_T_cvar_handle_free = PMPI_T_cvar_handle_free
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf) { return gompi_T_cvar_read(H(handle), buf); }
#pragma weak MPI_T_cvar_read = PMPI_T_cvar_read
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf) { return gompi_T_cvar_write(H(handle), (void *)buf); }
#pragma weak MPI_T_cvar_write = PMPI_T_cvar_write

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
                         int *readonly, int *continuous, int *atomic)
{
    return gompi_T_pvar_get_info(pvar_index, name, name_len, verbosity, var_class, datatype, (uintptr_t *)enumtype,
                                 desc, desc_len, bind, readonly, continuous, atomic);
}
#pragma weak MPI_T_pvar_get_info = PMPI_T_pvar_get_info
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    return gompi_T_get_index(1, (char *)name, var_class, pvar_index);
}
#pragma weak MPI_T_pvar_get_index = PMPI_T_pvar_get_index
int PMPI_T_pvar_session_create(MPI_T_pvar_session *session) { return gompi_T_pvar_session(0, (uintptr_t *)session); }
#pragma weak MPI_T_pvar_session_create = PMPI_T_pvar_session_create
int PMPI_T_pvar_session_free(MPI_T_pvar_session *session) { return gompi_T_pvar_session(1, (uintptr_t *)session); }
#pragma weak MPI_T_pvar_session_free = PMPI_T_pvar_session_free
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle,
                             int *count)
{
    (void)obj_handle;
    return gompi_T_pvar_handle_alloc(H(session), pvar_index, (uintptr_t *)handle, count);
}
#pragma weak MPI_T_pvar_handle_alloc = PMPI_T_pvar_handle_alloc
int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    return gompi_T_pvar_handle_free(H(session), (uintptr_t *)handle);
}
#pragma weak MPI_T_pvar_handle_free = PMPI_T_pvar_handle_free

enum { PV_START, PV_STOP, PV_RESET, PV_READ, PV_WRITE, PV_READRESET };
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return gompi_T_pvar_op(PV_START, H(session), H(handle), NULL);
}
#pragma weak MPI_T_pvar_start = PMPI_T_pvar_start
int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return gompi_T_pvar_op(PV_STOP, H(session), H(handle), NULL);
}
#pragma weak MPI_T_pvar_stop = PMPI_T_pvar_stop
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return gompi_T_pvar_op(PV_RESET, H(session), H(handle), NULL);
}
#pragma weak MPI_T_pvar_reset = PMPI_T_pvar_reset
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    return gompi_T_pvar_op(PV_READ, H(session), H(handle), buf);
}
#pragma weak MPI_T_pvar_read = PMPI_T_pvar_read
int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    return gompi_T_pvar_op(PV_WRITE, H(session), H(handle), (void *)buf);
}
#pragma weak MPI_T_pvar_write = PMPI_T_pvar_write
int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    return gompi_T_pvar_op(PV_READRESET, H(session), H(handle), buf);
}
#pragma weak MPI_T_pvar_readreset = PMPI_T_pvar_readreset

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories)
{
    return gompi_T_category_get_info(cat_index, name, name_len, desc, desc_len, num_cvars, num_pvars, num_categories);
}
#pragma weak MPI_T_category_get_info = PMPI_T_category_get_info
int PMPI_T_category_get_index(const char *name, int *cat_index) { return gompi_T_get_index(2, (char *)name, 0, cat_index); }
#pragma weak MPI_T_category_get_index = PMPI_T_category_get_index
int PMPI_T_category_get_cvars(int cat_index, int len, int indices[]) { return gompi_T_category_list(0, cat_index, len, indices); }
#pragma weak MPI_T_category_get_cvars = PMPI_T_category_get_cvars
int PMPI_T_category_get_pvars(int cat_index, int len, int indices[]) { return gompi_T_category_list(1, cat_index, len, indices); }
#pragma weak MPI_T_category_get_pvars = PMPI_T_category_get_pvars
int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    return gompi_T_category_list(2, cat_index, len, indices);
}
#pragma weak MPI_T_category_get_categories = PMPI_T_category_get_categories
int PMPI_T_category_changed(int *stamp) { return gompi_T_get_num(3, stamp); }
#pragma weak MPI_T_category_changed = PMPI_T_category_changed
