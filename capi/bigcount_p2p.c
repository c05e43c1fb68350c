/* Large-count (_c) point-to-point calls: the same Go entries as the int
 * calls, with counts as MPI_Count (capi/bigcount.go). The C fast paths
 * take int counts, so they are tried only for counts that fit. */
#include <limits.h>
#include "gompi.h"
#include "fastslot.h"
#include "_cgo_export.h"

enum { MODE_STANDARD, MODE_SYNC, MODE_READY, MODE_BUFFERED };
#define WIDE 256 /* wideBit in bigcount.go */

#define SEND_C(NAME, MODE)                                                                \
    int P##NAME(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, \
                MPI_Comm comm)                                                            \
    {                                                                                     \
        return gompi_Send((void *)buf, count, datatype, dest, tag, comm, MODE);           \
    }
#define ISEND_C(NAME, MODE, PERSISTENT)                                                   \
    int P##NAME(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, \
                MPI_Comm comm, MPI_Request *request)                                      \
    {                                                                                     \
        return gompi_Isend((void *)buf, count, datatype, dest, tag, comm, MODE, request, PERSISTENT); \
    }

int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    if (count <= INT_MAX && gompi_fast_send_locked(buf, (int)count, datatype, dest, tag, comm) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return gompi_Send((void *)buf, count, datatype, dest, tag, comm, MODE_STANDARD);
}
#pragma weak MPI_Send_c = PMPI_Send_c
SEND_C(MPI_Ssend_c, MODE_SYNC)
#pragma weak MPI_Ssend_c = PMPI_Ssend_c
SEND_C(MPI_Rsend_c, MODE_READY)
#pragma weak MPI_Rsend_c = PMPI_Rsend_c
SEND_C(MPI_Bsend_c, MODE_BUFFERED)
#pragma weak MPI_Bsend_c = PMPI_Bsend_c
ISEND_C(MPI_Isend_c, MODE_STANDARD, 0)
#pragma weak MPI_Isend_c = PMPI_Isend_c
ISEND_C(MPI_Issend_c, MODE_SYNC, 0)
#pragma weak MPI_Issend_c = PMPI_Issend_c
ISEND_C(MPI_Irsend_c, MODE_READY, 0)
#pragma weak MPI_Irsend_c = PMPI_Irsend_c
ISEND_C(MPI_Ibsend_c, MODE_BUFFERED, 0)
#pragma weak MPI_Ibsend_c = PMPI_Ibsend_c
ISEND_C(MPI_Send_init_c, MODE_STANDARD, 1)
#pragma weak MPI_Send_init_c = PMPI_Send_init_c
ISEND_C(MPI_Ssend_init_c, MODE_SYNC, 1)
#pragma weak MPI_Ssend_init_c = PMPI_Ssend_init_c
ISEND_C(MPI_Rsend_init_c, MODE_READY, 1)
#pragma weak MPI_Rsend_init_c = PMPI_Rsend_init_c
ISEND_C(MPI_Bsend_init_c, MODE_BUFFERED, 1)
#pragma weak MPI_Bsend_init_c = PMPI_Bsend_init_c

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Status *status)
{
    GOMPI_NONNULL(comm, "MPI_Recv_c", status);
    return gompi_Recv(buf, count, datatype, source, tag, comm, (uintptr_t)status);
}
#pragma weak MPI_Recv_c = PMPI_Recv_c

int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    GOMPI_NONNULL(comm, "MPI_Irecv_c", request);
    return gompi_Irecv(buf, count, datatype, source, tag, comm, request, 0);
}
#pragma weak MPI_Irecv_c = PMPI_Irecv_c

int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    return gompi_Irecv(buf, count, datatype, source, tag, comm, request, 1);
}
#pragma weak MPI_Recv_init_c = PMPI_Recv_init_c

int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                    int recvtag, MPI_Comm comm, MPI_Status *status)
{
    GOMPI_NONNULL(comm, "MPI_Sendrecv_c", status);
    return gompi_Sendrecv((void *)sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                          recvtype, source, recvtag, comm, (uintptr_t)status);
}
#pragma weak MPI_Sendrecv_c = PMPI_Sendrecv_c

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                            int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    GOMPI_NONNULL(comm, "MPI_Sendrecv_replace_c", status);
    return gompi_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                  (uintptr_t)status);
}
#pragma weak MPI_Sendrecv_replace_c = PMPI_Sendrecv_replace_c

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                     MPI_Comm comm, MPI_Request *request)
{
    return gompi_Isendrecv((void *)sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                           source, recvtag, comm, request);
}
#pragma weak MPI_Isendrecv_c = PMPI_Isendrecv_c

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                             int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, request);
}
#pragma weak MPI_Isendrecv_replace_c = PMPI_Isendrecv_replace_c

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status)
{
    GOMPI_NONNULL(-1, "MPI_Mrecv_c", message);
    GOMPI_NONNULL(-1, "MPI_Mrecv_c", status);
    return gompi_Mrecv(buf, count, datatype, message, (uintptr_t)status, NULL);
}
#pragma weak MPI_Mrecv_c = PMPI_Mrecv_c

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request)
{
    GOMPI_NONNULL(-1, "MPI_Imrecv_c", message);
    GOMPI_NONNULL(-1, "MPI_Imrecv_c", request);
    return gompi_Mrecv(buf, count, datatype, message, 0, request);
}
#pragma weak MPI_Imrecv_c = PMPI_Imrecv_c

/* Buffered-mode buffers */
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    if (size > 0) GOMPI_NONNULL(-1, "MPI_Buffer_attach_c", buffer);
    return gompi_Buffer_attach(buffer, size, 1);
}
#pragma weak MPI_Buffer_attach_c = PMPI_Buffer_attach_c

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    GOMPI_NONNULL(-1, "MPI_Buffer_detach_c", buffer_addr);
    GOMPI_NONNULL(-1, "MPI_Buffer_detach_c", size);
    return gompi_Buffer_detach(buffer_addr, size, 1);
}
#pragma weak MPI_Buffer_detach_c = PMPI_Buffer_detach_c

int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    return gompi_Buffer_op(1, comm, buffer, size, NULL, NULL, 2 | WIDE);
}
#pragma weak MPI_Comm_attach_buffer_c = PMPI_Comm_attach_buffer_c

int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    return gompi_Buffer_op(1, comm, buffer_addr, 0, size, NULL, 3 | WIDE);
}
#pragma weak MPI_Comm_detach_buffer_c = PMPI_Comm_detach_buffer_c

int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    return gompi_Buffer_op(2, session, buffer, size, NULL, NULL, 2 | WIDE);
}
#pragma weak MPI_Session_attach_buffer_c = PMPI_Session_attach_buffer_c

int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    return gompi_Buffer_op(2, session, buffer_addr, 0, size, NULL, 3 | WIDE);
}
#pragma weak MPI_Session_detach_buffer_c = PMPI_Session_detach_buffer_c
