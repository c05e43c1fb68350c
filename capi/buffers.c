/* MPI-4.1 buffers for buffered sends on communicators and sessions, and
 * the flush calls; Go parts in capi/buffers.go. */
#include "gompi.h"
#include "_cgo_export.h"

int PMPI_Buffer_flush(void) { return gompi_Buffer_op(0, 0, NULL, 0, NULL, NULL, 0); }
#pragma weak MPI_Buffer_flush = PMPI_Buffer_flush

int PMPI_Buffer_iflush(MPI_Request *request) { return gompi_Buffer_op(0, 0, NULL, 0, NULL, request, 1); }
#pragma weak MPI_Buffer_iflush = PMPI_Buffer_iflush

int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    return gompi_Buffer_op(1, comm, buffer, size, NULL, NULL, 2);
}
#pragma weak MPI_Comm_attach_buffer = PMPI_Comm_attach_buffer

int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    return gompi_Buffer_op(1, comm, buffer_addr, 0, size, NULL, 3);
}
#pragma weak MPI_Comm_detach_buffer = PMPI_Comm_detach_buffer

int PMPI_Comm_flush_buffer(MPI_Comm comm) { return gompi_Buffer_op(1, comm, NULL, 0, NULL, NULL, 0); }
#pragma weak MPI_Comm_flush_buffer = PMPI_Comm_flush_buffer

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    return gompi_Buffer_op(1, comm, NULL, 0, NULL, request, 1);
}
#pragma weak MPI_Comm_iflush_buffer = PMPI_Comm_iflush_buffer

int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    return gompi_Buffer_op(2, session, buffer, size, NULL, NULL, 2);
}
#pragma weak MPI_Session_attach_buffer = PMPI_Session_attach_buffer

int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    return gompi_Buffer_op(2, session, buffer_addr, 0, size, NULL, 3);
}
#pragma weak MPI_Session_detach_buffer = PMPI_Session_detach_buffer

int PMPI_Session_flush_buffer(MPI_Session session) { return gompi_Buffer_op(2, session, NULL, 0, NULL, NULL, 0); }
#pragma weak MPI_Session_flush_buffer = PMPI_Session_flush_buffer

int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    return gompi_Buffer_op(2, session, NULL, 0, NULL, request, 1);
}
#pragma weak MPI_Session_iflush_buffer = PMPI_Session_iflush_buffer
