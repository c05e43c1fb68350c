/* Environment management. Queries answered from state the Go side publishes. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gompi.h"
#include "_cgo_export.h"

extern int gompi_world_model;

static pthread_t main_thread;

int PMPI_Init(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    main_thread = pthread_self();
    return gompi_Init(MPI_THREAD_SINGLE, NULL);
}
#pragma weak MPI_Init = PMPI_Init

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc; (void)argv;
    main_thread = pthread_self();
    return gompi_Init(required, provided);
}
#pragma weak MPI_Init_thread = PMPI_Init_thread

int PMPI_Finalize(void) { return gompi_Finalize(); }
#pragma weak MPI_Finalize = PMPI_Finalize

int PMPI_Initialized(int *flag)
{
    GOMPI_NONNULL(-1, "MPI_Initialized", flag);
    *flag = gompi_world_model != 0; /* sessions do not count (MPI-4 11.2.2) */
    return MPI_SUCCESS;
}
#pragma weak MPI_Initialized = PMPI_Initialized

int PMPI_Finalized(int *flag)
{
    GOMPI_NONNULL(-1, "MPI_Finalized", flag);
    *flag = gompi_world_model == 2;
    return MPI_SUCCESS;
}
#pragma weak MPI_Finalized = PMPI_Finalized

int PMPI_Abort(MPI_Comm comm, int errorcode) { return gompi_Abort(comm, errorcode); }
#pragma weak MPI_Abort = PMPI_Abort

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    if (gompi_state == GOMPI_READY && rank && (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF)) {
        *rank = comm == MPI_COMM_WORLD ? gompi_world_rank : 0;
        return MPI_SUCCESS;
    }
    return gompi_Comm_rank(comm, rank);
}
#pragma weak MPI_Comm_rank = PMPI_Comm_rank

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    if (gompi_state == GOMPI_READY && size && (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF)) {
        *size = comm == MPI_COMM_WORLD ? gompi_world_size : 1;
        return MPI_SUCCESS;
    }
    return gompi_Comm_size(comm, size);
}
#pragma weak MPI_Comm_size = PMPI_Comm_size

int PMPI_Get_processor_name(char *name, int *resultlen) { return gompi_Get_processor_name(name, resultlen); }
#pragma weak MPI_Get_processor_name = PMPI_Get_processor_name

int PMPI_Get_version(int *version, int *subversion)
{
    GOMPI_NONNULL(-1, "MPI_Get_version", version);
    GOMPI_NONNULL(-1, "MPI_Get_version", subversion);
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
#pragma weak MPI_Get_version = PMPI_Get_version

int PMPI_Get_library_version(char *version, int *resultlen)
{
    GOMPI_NONNULL(-1, "MPI_Get_library_version", version);
    GOMPI_NONNULL(-1, "MPI_Get_library_version", resultlen);
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "gompi 0.1.0 (MPI %d.%d, MPICH ABI, written in Go)", MPI_VERSION, MPI_SUBVERSION);
    *resultlen = n;
    return MPI_SUCCESS;
}
#pragma weak MPI_Get_library_version = PMPI_Get_library_version

double PMPI_Wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#pragma weak MPI_Wtime = PMPI_Wtime

double PMPI_Wtick(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#pragma weak MPI_Wtick = PMPI_Wtick

int PMPI_Query_thread(int *provided)
{
    if (gompi_state != GOMPI_READY) return gompi_NotReady((char *)"MPI_Query_thread");
    GOMPI_NONNULL(-1, "MPI_Query_thread", provided);
    *provided = gompi_thread_level;
    return MPI_SUCCESS;
}
#pragma weak MPI_Query_thread = PMPI_Query_thread

int PMPI_Is_thread_main(int *flag)
{
    if (gompi_state != GOMPI_READY) return gompi_NotReady((char *)"MPI_Is_thread_main");
    GOMPI_NONNULL(-1, "MPI_Is_thread_main", flag);
    *flag = pthread_equal(pthread_self(), main_thread);
    return MPI_SUCCESS;
}
#pragma weak MPI_Is_thread_main = PMPI_Is_thread_main

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    return gompi_Error_string(errorcode, string, resultlen);
}
#pragma weak MPI_Error_string = PMPI_Error_string

int PMPI_Error_class(int errorcode, int *errorclass) { return gompi_Error_class(errorcode, errorclass); }
#pragma weak MPI_Error_class = PMPI_Error_class

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    GOMPI_NONNULL(-1, "MPI_Alloc_mem", baseptr);
    int rc = gompi_InfoArg(-1, (char *)"MPI_Alloc_mem", info);
    if (rc != MPI_SUCCESS) return rc;
    if (size < 0) return gompi_ArgError((char *)"MPI_Alloc_mem", MPI_ERR_ARG, (char *)"size is negative");
    void *p = malloc(size > 0 ? (size_t)size : 1);
    if (!p) return gompi_ArgError((char *)"MPI_Alloc_mem", MPI_ERR_NO_MEM, (char *)"out of memory");
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}
#pragma weak MPI_Alloc_mem = PMPI_Alloc_mem

int PMPI_Free_mem(void *base)
{
    free(base);
    return MPI_SUCCESS;
}
#pragma weak MPI_Free_mem = PMPI_Free_mem
