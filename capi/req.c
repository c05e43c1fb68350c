/* Completion, status and request management. */
#include "gompi.h"
#include "fastslot.h"
#include "_cgo_export.h"

/* Sends that left through the fast path need no Go call to complete. */
static void send_done_status(MPI_Status *s)
{
    if (!GOMPI_STATUS_IGNORED(s)) {
        s->count_lo = 0;
        s->count_hi_and_cancelled = 0;
    }
}

/* finish_all completes handles the C fast path owns (see fastslot.h). */
static void finish_all(int count, MPI_Request *reqs, MPI_Status *statuses)
{
    int ignore = GOMPI_STATUS_IGNORED(statuses);
    for (int i = 0; i < count; i++) {
        MPI_Status *st = ignore ? MPI_STATUS_IGNORE : &statuses[i];
        if (reqs[i] == GOMPI_REQ_SEND_DONE) {
            send_done_status(st);
            if (!ignore) st->MPI_ERROR = MPI_SUCCESS;
            reqs[i] = MPI_REQUEST_NULL;
        } else {
            gompi_fast_finish(&reqs[i], st);
        }
    }
}

/* finish_one completes one handle the C fast path owns. */
static void finish_one(MPI_Request *request, MPI_Status *status)
{
    if (*request == GOMPI_REQ_SEND_DONE) {
        *request = MPI_REQUEST_NULL;
        send_done_status(status);
    } else {
        gompi_fast_finish(request, status);
    }
}

/* The completion calls below hold the MULTIPLE lock (gompi_fast_lock) from
 * the first look at the handles to their release, and drop it before any
 * Go call. */
int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    GOMPI_NONNULL(-1, "MPI_Wait", request);
    GOMPI_NONNULL(-1, "MPI_Wait", status);
    if (request && gompi_state == GOMPI_READY && gompi_fast_handle(*request) && gompi_fast_lock()) {
        int ok = gompi_fast_wait_all(1, request);
        if (ok > 0) finish_one(request, status);
        if (ok != GOMPI_FAST_UNLOCKED) gompi_fast_unlock();
        if (ok > 0) return MPI_SUCCESS;
    }
    return gompi_Wait(request, (uintptr_t)status);
}
#pragma weak MPI_Wait = PMPI_Wait

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    GOMPI_NONNULL(-1, "MPI_Test", request);
    GOMPI_NONNULL(-1, "MPI_Test", flag);
    GOMPI_NONNULL(-1, "MPI_Test", status);
    if (request && flag && gompi_state == GOMPI_READY && gompi_fast_handle(*request) && gompi_fast_lock()) {
        int k = gompi_fast_test_all(1, request);
        if (k > 0) finish_one(request, status);
        gompi_fast_unlock();
        if (k >= 0) {
            *flag = k;
            return MPI_SUCCESS;
        }
    }
    return gompi_Test(request, flag, (uintptr_t)status);
}
#pragma weak MPI_Test = PMPI_Test

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    if (count > 0) GOMPI_NONNULL(-1, "MPI_Waitall", array_of_statuses);
    if (count > 0 && array_of_requests && gompi_state == GOMPI_READY && gompi_fast_handle(array_of_requests[0]) &&
        gompi_fast_lock()) {
        int ok = gompi_fast_wait_all(count, array_of_requests);
        if (ok > 0) finish_all(count, array_of_requests, array_of_statuses);
        if (ok != GOMPI_FAST_UNLOCKED) gompi_fast_unlock();
        if (ok > 0) return MPI_SUCCESS;
    }
    return gompi_Waitall(count, array_of_requests, (uintptr_t)array_of_statuses, NULL);
}
#pragma weak MPI_Waitall = PMPI_Waitall

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[])
{
    GOMPI_NONNULL(-1, "MPI_Testall", flag);
    if (count > 0) GOMPI_NONNULL(-1, "MPI_Testall", array_of_statuses);
    if (count > 0 && array_of_requests && flag && gompi_state == GOMPI_READY &&
        gompi_fast_handle(array_of_requests[0]) && gompi_fast_lock()) {
        int k = gompi_fast_test_all(count, array_of_requests);
        if (k > 0) finish_all(count, array_of_requests, array_of_statuses);
        gompi_fast_unlock();
        if (k >= 0) {
            *flag = k;
            return MPI_SUCCESS;
        }
    }
    return gompi_Waitall(count, array_of_requests, (uintptr_t)array_of_statuses, flag);
}
#pragma weak MPI_Testall = PMPI_Testall

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    GOMPI_NONNULL(-1, "MPI_Waitany", index);
    GOMPI_NONNULL(-1, "MPI_Waitany", status);
    return gompi_Waitany(count, array_of_requests, index, (uintptr_t)status, NULL);
}
#pragma weak MPI_Waitany = PMPI_Waitany

int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                 MPI_Status *status)
{
    GOMPI_NONNULL(-1, "MPI_Testany", index);
    GOMPI_NONNULL(-1, "MPI_Testany", flag);
    GOMPI_NONNULL(-1, "MPI_Testany", status);
    return gompi_Waitany(count, array_of_requests, index, (uintptr_t)status, flag);
}
#pragma weak MPI_Testany = PMPI_Testany

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    GOMPI_NONNULL(-1, "MPI_Waitsome", outcount);
    if (incount > 0) GOMPI_NONNULL(-1, "MPI_Waitsome", array_of_indices);
    if (incount > 0) GOMPI_NONNULL(-1, "MPI_Waitsome", array_of_statuses);
    return gompi_Waitsome(incount, array_of_requests, outcount, array_of_indices,
                          (uintptr_t)array_of_statuses, 1);
}
#pragma weak MPI_Waitsome = PMPI_Waitsome

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    GOMPI_NONNULL(-1, "MPI_Testsome", outcount);
    if (incount > 0) GOMPI_NONNULL(-1, "MPI_Testsome", array_of_indices);
    if (incount > 0) GOMPI_NONNULL(-1, "MPI_Testsome", array_of_statuses);
    return gompi_Waitsome(incount, array_of_requests, outcount, array_of_indices,
                          (uintptr_t)array_of_statuses, 0);
}
#pragma weak MPI_Testsome = PMPI_Testsome

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    GOMPI_NONNULL(-1, "MPI_Request_get_status", flag);
    GOMPI_NONNULL(-1, "MPI_Request_get_status", status);
    return gompi_Request_get_status(request, flag, (uintptr_t)status);
}
#pragma weak MPI_Request_get_status = PMPI_Request_get_status

int PMPI_Request_free(MPI_Request *request) { return gompi_Request_free(request); }
#pragma weak MPI_Request_free = PMPI_Request_free

int PMPI_Start(MPI_Request *request)
{
    GOMPI_NONNULL(-1, "MPI_Start", request);
    return gompi_Startall(1, request);
}
#pragma weak MPI_Start = PMPI_Start

int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    return gompi_Startall(count, array_of_requests);
}
#pragma weak MPI_Startall = PMPI_Startall

int PMPI_Cancel(MPI_Request *request)
{
    GOMPI_NONNULL(-1, "MPI_Cancel", request);
    return gompi_Cancel(request);
}
#pragma weak MPI_Cancel = PMPI_Cancel

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    GOMPI_NONNULL(-1, "MPI_Test_cancelled", status);
    GOMPI_NONNULL(-1, "MPI_Test_cancelled", flag);
    if (GOMPI_STATUS_IGNORED(status))
        return gompi_ArgError((char *)"MPI_Test_cancelled", MPI_ERR_ARG, (char *)"status is MPI_STATUS_IGNORE");
    *flag = status->count_hi_and_cancelled & 1;
    return MPI_SUCCESS;
}
#pragma weak MPI_Test_cancelled = PMPI_Test_cancelled

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    GOMPI_NONNULL(-1, "MPI_Status_set_cancelled", status);
    if (GOMPI_STATUS_IGNORED(status))
        return gompi_ArgError((char *)"MPI_Status_set_cancelled", MPI_ERR_ARG, (char *)"status is MPI_STATUS_IGNORE");
    status->count_hi_and_cancelled = (status->count_hi_and_cancelled & ~1) | (flag ? 1 : 0);
    return MPI_SUCCESS;
}
#pragma weak MPI_Status_set_cancelled = PMPI_Status_set_cancelled
