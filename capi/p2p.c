/* Point-to-point: each call crosses into Go once. */
#include "gompi.h"
#include "fastslot.h"
#include "_cgo_export.h"

enum { MODE_STANDARD, MODE_SYNC, MODE_READY, MODE_BUFFERED };

#define SEND(NAME, MODE)                                                                  \
    int P##NAME(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,    \
                MPI_Comm comm)                                                            \
    {                                                                                     \
        return gompi_Send((void *)buf, count, datatype, dest, tag, comm, MODE);           \
    }
#define ISEND(NAME, MODE)                                                                 \
    int P##NAME(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,    \
                MPI_Comm comm, MPI_Request *request)                                      \
    {                                                                                     \
        return gompi_Isend((void *)buf, count, datatype, dest, tag, comm, MODE, request, 0); \
    }
#define SEND_INIT(NAME, MODE)                                                             \
    int P##NAME(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,    \
                MPI_Comm comm, MPI_Request *request)                                      \
    {                                                                                     \
        return gompi_Isend((void *)buf, count, datatype, dest, tag, comm, MODE, request, 1); \
    }

#define fast_send gompi_fast_send_locked

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    if (fast_send(buf, count, datatype, dest, tag, comm) == MPI_SUCCESS) return MPI_SUCCESS;
    return gompi_Send((void *)buf, count, datatype, dest, tag, comm, MODE_STANDARD);
}
#pragma weak MPI_Send = PMPI_Send
SEND(MPI_Ssend, MODE_SYNC)
#pragma weak MPI_Ssend = PMPI_Ssend
SEND(MPI_Rsend, MODE_READY)
#pragma weak MPI_Rsend = PMPI_Rsend
SEND(MPI_Bsend, MODE_BUFFERED)
#pragma weak MPI_Bsend = PMPI_Bsend
int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    GOMPI_NONNULL(comm, "MPI_Isend", request);
    if (fast_send(buf, count, datatype, dest, tag, comm) == MPI_SUCCESS) {
        *request = GOMPI_REQ_SEND_DONE;
        return MPI_SUCCESS;
    }
    return gompi_Isend((void *)buf, count, datatype, dest, tag, comm, MODE_STANDARD, request, 0);
}
#pragma weak MPI_Isend = PMPI_Isend
ISEND(MPI_Issend, MODE_SYNC)
#pragma weak MPI_Issend = PMPI_Issend
ISEND(MPI_Irsend, MODE_READY)
#pragma weak MPI_Irsend = PMPI_Irsend
ISEND(MPI_Ibsend, MODE_BUFFERED)
#pragma weak MPI_Ibsend = PMPI_Ibsend
SEND_INIT(MPI_Send_init, MODE_STANDARD)
#pragma weak MPI_Send_init = PMPI_Send_init
SEND_INIT(MPI_Ssend_init, MODE_SYNC)
#pragma weak MPI_Ssend_init = PMPI_Ssend_init
SEND_INIT(MPI_Rsend_init, MODE_READY)
#pragma weak MPI_Rsend_init = PMPI_Rsend_init
SEND_INIT(MPI_Bsend_init, MODE_BUFFERED)
#pragma weak MPI_Bsend_init = PMPI_Bsend_init

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    GOMPI_NONNULL(comm, "MPI_Recv", status);
    if (gompi_fast_comm(comm) && gompi_fast_lock()) {
        int rc = gompi_fast_recv(buf, count, datatype, source, tag, comm, status);
        if (rc != GOMPI_FAST_UNLOCKED) gompi_fast_unlock();
        if (rc == MPI_SUCCESS) return MPI_SUCCESS;
    }
    return gompi_Recv(buf, count, datatype, source, tag, comm, (uintptr_t)status);
}
#pragma weak MPI_Recv = PMPI_Recv

int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    GOMPI_NONNULL(comm, "MPI_Irecv", request);
    if (gompi_fast_comm(comm) && gompi_fast_lock()) {
        int rc = gompi_fast_irecv(buf, count, datatype, source, tag, comm, request);
        gompi_fast_unlock();
        if (rc == MPI_SUCCESS) return MPI_SUCCESS;
    }
    return gompi_Irecv(buf, count, datatype, source, tag, comm, request, 0);
}
#pragma weak MPI_Irecv = PMPI_Irecv

int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return gompi_Irecv(buf, count, datatype, source, tag, comm, request, 1);
}
#pragma weak MPI_Recv_init = PMPI_Recv_init

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Status *status)
{
    GOMPI_NONNULL(comm, "MPI_Sendrecv", status);
    return gompi_Sendrecv((void *)sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                          recvtype, source, recvtag, comm, (uintptr_t)status);
}
#pragma weak MPI_Sendrecv = PMPI_Sendrecv

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    GOMPI_NONNULL(comm, "MPI_Sendrecv_replace", status);
    return gompi_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                  (uintptr_t)status);
}
#pragma weak MPI_Sendrecv_replace = PMPI_Sendrecv_replace

int PMPI_Buffer_attach(void *buffer, int size)
{
    if (size > 0) GOMPI_NONNULL(-1, "MPI_Buffer_attach", buffer);
    return gompi_Buffer_attach(buffer, size, 0);
}
#pragma weak MPI_Buffer_attach = PMPI_Buffer_attach

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    GOMPI_NONNULL(-1, "MPI_Buffer_detach", buffer_addr);
    GOMPI_NONNULL(-1, "MPI_Buffer_detach", size);
    return gompi_Buffer_detach(buffer_addr, size, 0);
}
#pragma weak MPI_Buffer_detach = PMPI_Buffer_detach

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    GOMPI_NONNULL(comm, "MPI_Probe", status);
    return gompi_Probe(source, tag, comm, NULL, (uintptr_t)status, 1);
}
#pragma weak MPI_Probe = PMPI_Probe

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    GOMPI_NONNULL(comm, "MPI_Iprobe", flag);
    GOMPI_NONNULL(comm, "MPI_Iprobe", status);
    return gompi_Probe(source, tag, comm, flag, (uintptr_t)status, 0);
}
#pragma weak MPI_Iprobe = PMPI_Iprobe

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    GOMPI_NONNULL(comm, "MPI_Mprobe", message);
    GOMPI_NONNULL(comm, "MPI_Mprobe", status);
    return gompi_Mprobe(source, tag, comm, NULL, message, (uintptr_t)status, 1);
}
#pragma weak MPI_Mprobe = PMPI_Mprobe

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    GOMPI_NONNULL(comm, "MPI_Improbe", flag);
    GOMPI_NONNULL(comm, "MPI_Improbe", message);
    GOMPI_NONNULL(comm, "MPI_Improbe", status);
    return gompi_Mprobe(source, tag, comm, flag, message, (uintptr_t)status, 0);
}
#pragma weak MPI_Improbe = PMPI_Improbe

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
    GOMPI_NONNULL(-1, "MPI_Mrecv", message);
    GOMPI_NONNULL(-1, "MPI_Mrecv", status);
    return gompi_Mrecv(buf, count, datatype, message, (uintptr_t)status, NULL);
}
#pragma weak MPI_Mrecv = PMPI_Mrecv

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
    GOMPI_NONNULL(-1, "MPI_Imrecv", message);
    GOMPI_NONNULL(-1, "MPI_Imrecv", request);
    return gompi_Mrecv(buf, count, datatype, message, 0, request);
}
#pragma weak MPI_Imrecv = PMPI_Imrecv

