/* Generalized requests, MPI_Isendrecv(_replace) and the MPI-4.1
 * MPI_Request_get_status_any/all/some; Go parts in capi/extreq.go. */
#include "gompi.h"
#include "_cgo_export.h"

int gompi_call_grequest_query(void *fn, void *extra, MPI_Status *s)
{
    return ((MPI_Grequest_query_function *)fn)(extra, s);
}

int gompi_call_grequest_free(void *fn, void *extra) { return ((MPI_Grequest_free_function *)fn)(extra); }

int gompi_call_grequest_cancel(void *fn, void *extra, int complete)
{
    return ((MPI_Grequest_cancel_function *)fn)(extra, complete);
}

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    return gompi_Grequest_start((void *)query_fn, (void *)free_fn, (void *)cancel_fn, (uintptr_t)extra_state,
                                request);
}
#pragma weak MPI_Grequest_start = PMPI_Grequest_start

int PMPI_Grequest_complete(MPI_Request request) { return gompi_Grequest_complete(request); }
#pragma weak MPI_Grequest_complete = PMPI_Grequest_complete

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                   MPI_Request *request)
{
    return gompi_Isendrecv((void *)sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                           recvtag, comm, request);
}
#pragma weak MPI_Isendrecv = PMPI_Isendrecv

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                           int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return gompi_Isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, request);
}
#pragma weak MPI_Isendrecv_replace = PMPI_Isendrecv_replace

int PMPI_Request_get_status_any(int count, MPI_Request array_of_requests[], int *indx, int *flag,
                                MPI_Status *status)
{
    return gompi_Request_get_status_multi(count, array_of_requests, indx, flag, NULL, (uintptr_t)status, 0);
}
#pragma weak MPI_Request_get_status_any = PMPI_Request_get_status_any

int PMPI_Request_get_status_all(int count, MPI_Request array_of_requests[], int *flag,
                                MPI_Status array_of_statuses[])
{
    return gompi_Request_get_status_multi(count, array_of_requests, NULL, flag, NULL,
                                          (uintptr_t)array_of_statuses, 1);
}
#pragma weak MPI_Request_get_status_all = PMPI_Request_get_status_all

int PMPI_Request_get_status_some(int incount, MPI_Request array_of_requests[], int *outcount,
                                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    return gompi_Request_get_status_multi(incount, array_of_requests, outcount, NULL, array_of_indices,
                                          (uintptr_t)array_of_statuses, 2);
}
#pragma weak MPI_Request_get_status_some = PMPI_Request_get_status_some
