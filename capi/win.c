/* One-sided communication: windows, RMA operations, synchronisation. Each
 * call crosses into Go once (capi/win.go, capi/win_ops.go). */
#include <stdlib.h>
#include "gompi.h"
#include "_cgo_export.h"
#include "win_fast.h"

gompi_winfast_t gompi_winfast[GOMPI_WINFAST_MAX];

/* The predefined attribute values of a window live in C memory that lasts
 * as long as the window (MPI_Win_get_attr returns pointers to them). */
struct gompi_win_attrs {
    MPI_Aint size;
    int disp_unit, flavor, model;
};

void *gompi_win_attrs_new(long size, int disp_unit, int flavor, int model)
{
    struct gompi_win_attrs *a = malloc(sizeof *a);
    if (a == NULL) return NULL;
    a->size = size;
    a->disp_unit = disp_unit;
    a->flavor = flavor;
    a->model = model;
    return a;
}

void gompi_win_attrs_free(void *a) { free(a); }
void *gompi_win_attr_size(void *a) { return &((struct gompi_win_attrs *)a)->size; }
void *gompi_win_attr_disp(void *a) { return &((struct gompi_win_attrs *)a)->disp_unit; }
void *gompi_win_attr_flavor(void *a) { return &((struct gompi_win_attrs *)a)->flavor; }
void *gompi_win_attr_model(void *a) { return &((struct gompi_win_attrs *)a)->model; }

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return gompi_Win_create(base, size, disp_unit, info, comm, win, 0);
}
#pragma weak MPI_Win_create = PMPI_Win_create

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return gompi_Win_allocate(size, disp_unit, info, comm, (void **)baseptr, win, 0);
}
#pragma weak MPI_Win_allocate = PMPI_Win_allocate

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                             MPI_Win *win)
{
    return gompi_Win_allocate(size, disp_unit, info, comm, (void **)baseptr, win, 1);
}
#pragma weak MPI_Win_allocate_shared = PMPI_Win_allocate_shared

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    return gompi_Win_shared_query(win, rank, size, disp_unit, (void **)baseptr, 0);
}
#pragma weak MPI_Win_shared_query = PMPI_Win_shared_query

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return gompi_Win_create_dynamic(info, comm, win);
}
#pragma weak MPI_Win_create_dynamic = PMPI_Win_create_dynamic

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size) { return gompi_Win_attach(win, base, size); }
#pragma weak MPI_Win_attach = PMPI_Win_attach

int PMPI_Win_detach(MPI_Win win, const void *base) { return gompi_Win_detach(win, (void *)base); }
#pragma weak MPI_Win_detach = PMPI_Win_detach

int PMPI_Win_free(MPI_Win *win) { return gompi_Win_free(win); }
#pragma weak MPI_Win_free = PMPI_Win_free

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group) { return gompi_Win_get_group(win, group); }
#pragma weak MPI_Win_get_group = PMPI_Win_get_group

int PMPI_Win_set_info(MPI_Win win, MPI_Info info) { return gompi_Win_set_info(win, info); }
#pragma weak MPI_Win_set_info = PMPI_Win_set_info

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used) { return gompi_Win_get_info(win, info_used); }
#pragma weak MPI_Win_get_info = PMPI_Win_get_info

int PMPI_Win_set_name(MPI_Win win, const char *win_name) { return gompi_Win_set_name(win, (char *)win_name); }
#pragma weak MPI_Win_set_name = PMPI_Win_set_name

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    return gompi_Win_get_name(win, win_name, resultlen);
}
#pragma weak MPI_Win_get_name = PMPI_Win_get_name

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    return gompi_Win_set_attr(win, win_keyval, (uintptr_t)attribute_val);
}
#pragma weak MPI_Win_set_attr = PMPI_Win_set_attr

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    return gompi_Win_get_attr(win, win_keyval, attribute_val, flag);
}
#pragma weak MPI_Win_get_attr = PMPI_Win_get_attr

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval) { return gompi_Win_delete_attr(win, win_keyval); }
#pragma weak MPI_Win_delete_attr = PMPI_Win_delete_attr

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    return gompi_Win_set_errhandler(win, errhandler);
}
#pragma weak MPI_Win_set_errhandler = PMPI_Win_set_errhandler

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    return gompi_Win_get_errhandler(win, errhandler);
}
#pragma weak MPI_Win_get_errhandler = PMPI_Win_get_errhandler

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) { return gompi_Win_call_errhandler(win, errorcode); }
#pragma weak MPI_Win_call_errhandler = PMPI_Win_call_errhandler

/* Synchronisation. */
int PMPI_Win_fence(int assert, MPI_Win win) { return gompi_Win_sync_call(win, 0, assert, 0, 0); }
#pragma weak MPI_Win_fence = PMPI_Win_fence
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    return gompi_Win_sync_call(win, 1, assert, rank, lock_type);
}
#pragma weak MPI_Win_lock = PMPI_Win_lock
int PMPI_Win_unlock(int rank, MPI_Win win) { return gompi_Win_sync_call(win, 2, 0, rank, 0); }
#pragma weak MPI_Win_unlock = PMPI_Win_unlock
int PMPI_Win_lock_all(int assert, MPI_Win win) { return gompi_Win_sync_call(win, 3, assert, 0, 0); }
#pragma weak MPI_Win_lock_all = PMPI_Win_lock_all
int PMPI_Win_unlock_all(MPI_Win win) { return gompi_Win_sync_call(win, 4, 0, 0, 0); }
#pragma weak MPI_Win_unlock_all = PMPI_Win_unlock_all
int PMPI_Win_flush(int rank, MPI_Win win)
{
    if (gompi_winfast_flush(win, rank) == 0) return MPI_SUCCESS;
    return gompi_Win_sync_call(win, 5, 0, rank, 0);
}
#pragma weak MPI_Win_flush = PMPI_Win_flush
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    if (gompi_winfast_flush(win, rank) == 0) return MPI_SUCCESS;
    return gompi_Win_sync_call(win, 6, 0, rank, 0);
}
#pragma weak MPI_Win_flush_local = PMPI_Win_flush_local
int PMPI_Win_flush_all(MPI_Win win)
{
    if (gompi_winfast_flush(win, -1) == 0) return MPI_SUCCESS;
    return gompi_Win_sync_call(win, 7, 0, 0, 0);
}
#pragma weak MPI_Win_flush_all = PMPI_Win_flush_all
int PMPI_Win_flush_local_all(MPI_Win win)
{
    if (gompi_winfast_flush(win, -1) == 0) return MPI_SUCCESS;
    return gompi_Win_sync_call(win, 8, 0, 0, 0);
}
#pragma weak MPI_Win_flush_local_all = PMPI_Win_flush_local_all
int PMPI_Win_sync(MPI_Win win) { return gompi_Win_sync_call(win, 9, 0, 0, 0); }
#pragma weak MPI_Win_sync = PMPI_Win_sync
int PMPI_Win_complete(MPI_Win win) { return gompi_Win_sync_call(win, 10, 0, 0, 0); }
#pragma weak MPI_Win_complete = PMPI_Win_complete
int PMPI_Win_wait(MPI_Win win) { return gompi_Win_sync_call(win, 11, 0, 0, 0); }
#pragma weak MPI_Win_wait = PMPI_Win_wait
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win) { return gompi_Win_sync_call(win, 12, assert, group, 0); }
#pragma weak MPI_Win_start = PMPI_Win_start
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win) { return gompi_Win_sync_call(win, 13, assert, group, 0); }
#pragma weak MPI_Win_post = PMPI_Win_post
int PMPI_Win_test(MPI_Win win, int *flag) { return gompi_Win_test(win, flag); }
#pragma weak MPI_Win_test = PMPI_Win_test

/* Operations. */
int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    if (gompi_winfast_copy(1, (void *)origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                           target_count, target_datatype, win) == 0)
        return MPI_SUCCESS;
    return gompi_Win_rma(0, (void *)origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win, NULL);
}
#pragma weak MPI_Put = PMPI_Put

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    if (gompi_winfast_copy(0, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                           target_datatype, win) == 0)
        return MPI_SUCCESS;
    return gompi_Win_rma(1, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL, target_rank,
                         target_disp, target_count, target_datatype, MPI_OP_NULL, win, NULL);
}
#pragma weak MPI_Get = PMPI_Get

int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    if (origin_count == 1 && target_count == 1 && origin_datatype == target_datatype &&
        gompi_winfast_fop(origin_addr, NULL, origin_datatype, target_rank, target_disp, op, win) == 0)
        return MPI_SUCCESS;
    return gompi_Win_rma(2, (void *)origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, op, win, NULL);
}
#pragma weak MPI_Accumulate = PMPI_Accumulate

int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                        MPI_Win win)
{
    return gompi_Win_rma(3, (void *)origin_addr, origin_count, origin_datatype, result_addr, result_count,
                         result_datatype, target_rank, target_disp, target_count, target_datatype, op, win, NULL);
}
#pragma weak MPI_Get_accumulate = PMPI_Get_accumulate

/* RMA_REQ marks the request forms, so that a NULL request pointer is an
 * error and not the non-request call. */
#define RMA_REQ 4

int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    return gompi_Win_rma(0 | RMA_REQ, (void *)origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win, request);
}
#pragma weak MPI_Rput = PMPI_Rput

int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    return gompi_Win_rma(1 | RMA_REQ, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL, target_rank,
                         target_disp, target_count, target_datatype, MPI_OP_NULL, win, request);
}
#pragma weak MPI_Rget = PMPI_Rget

int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                     MPI_Win win, MPI_Request *request)
{
    return gompi_Win_rma(2 | RMA_REQ, (void *)origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, op, win, request);
}
#pragma weak MPI_Raccumulate = PMPI_Raccumulate

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                         MPI_Win win, MPI_Request *request)
{
    return gompi_Win_rma(3 | RMA_REQ, (void *)origin_addr, origin_count, origin_datatype, result_addr, result_count,
                         result_datatype, target_rank, target_disp, target_count, target_datatype, op, win,
                         request);
}
#pragma weak MPI_Rget_accumulate = PMPI_Rget_accumulate

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    if (gompi_winfast_fop(origin_addr, result_addr, datatype, target_rank, target_disp, op, win) == 0)
        return MPI_SUCCESS;
    return gompi_Win_atomic(0, (void *)origin_addr, NULL, result_addr, datatype, target_rank, target_disp, op, win);
}
#pragma weak MPI_Fetch_and_op = PMPI_Fetch_and_op

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    if (gompi_winfast_cas(origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win) == 0)
        return MPI_SUCCESS;
    return gompi_Win_atomic(1, (void *)origin_addr, (void *)compare_addr, result_addr, datatype, target_rank,
                            target_disp, MPI_OP_NULL, win);
}
#pragma weak MPI_Compare_and_swap = PMPI_Compare_and_swap
