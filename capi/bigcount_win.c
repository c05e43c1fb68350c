/* Large-count (_c) one-sided calls: the int calls' Go entries with
 * MPI_Count counts and MPI_Aint displacement units (capi/bigcount.go).
 * The C direct-access fast paths (int counts) are not tried. */
#include "gompi.h"
#include "_cgo_export.h"

#define WIDE 256 /* wideBit in bigcount.go */
#define RMA_REQ 4 /* as in win.c */

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return gompi_Win_create(base, size, disp_unit, info, comm, win, 1);
}
#pragma weak MPI_Win_create_c = PMPI_Win_create_c

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return gompi_Win_allocate(size, disp_unit, info, comm, (void **)baseptr, win, 0 | WIDE);
}
#pragma weak MPI_Win_allocate_c = PMPI_Win_allocate_c

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                               MPI_Win *win)
{
    return gompi_Win_allocate(size, disp_unit, info, comm, (void **)baseptr, win, 1 | WIDE);
}
#pragma weak MPI_Win_allocate_shared_c = PMPI_Win_allocate_shared_c

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    return gompi_Win_shared_query(win, rank, size, disp_unit, (void **)baseptr, 1);
}
#pragma weak MPI_Win_shared_query_c = PMPI_Win_shared_query_c

int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return gompi_Win_rma(0 | WIDE, (void *)origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win, NULL);
}
#pragma weak MPI_Put_c = PMPI_Put_c

int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return gompi_Win_rma(1 | WIDE, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL, target_rank,
                         target_disp, target_count, target_datatype, MPI_OP_NULL, win, NULL);
}
#pragma weak MPI_Get_c = PMPI_Get_c

int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return gompi_Win_rma(2 | WIDE, (void *)origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, op, win, NULL);
}
#pragma weak MPI_Accumulate_c = PMPI_Accumulate_c

int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return gompi_Win_rma(3 | WIDE, (void *)origin_addr, origin_count, origin_datatype, result_addr, result_count,
                         result_datatype, target_rank, target_disp, target_count, target_datatype, op, win, NULL);
}
#pragma weak MPI_Get_accumulate_c = PMPI_Get_accumulate_c

int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return gompi_Win_rma(0 | RMA_REQ | WIDE, (void *)origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win, request);
}
#pragma weak MPI_Rput_c = PMPI_Rput_c

int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return gompi_Win_rma(1 | RMA_REQ | WIDE, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL, target_rank,
                         target_disp, target_count, target_datatype, MPI_OP_NULL, win, request);
}
#pragma weak MPI_Rget_c = PMPI_Rget_c

int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return gompi_Win_rma(2 | RMA_REQ | WIDE, (void *)origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, op, win, request);
}
#pragma weak MPI_Raccumulate_c = PMPI_Raccumulate_c

int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return gompi_Win_rma(3 | RMA_REQ | WIDE, (void *)origin_addr, origin_count, origin_datatype, result_addr, result_count,
                         result_datatype, target_rank, target_disp, target_count, target_datatype, op, win,
                         request);
}
#pragma weak MPI_Rget_accumulate_c = PMPI_Rget_accumulate_c
