/* Internal declarations shared by the C side of the library. */
#ifndef GOMPI_CAPI_H
#define GOMPI_CAPI_H
#include "mpi.h"

/* State the Go side publishes so trivial queries need no crossing. */
enum { GOMPI_UNINIT = 0, GOMPI_READY = 1, GOMPI_FINALIZED = 2 };
extern int gompi_state;
extern int gompi_world_rank, gompi_world_size;
extern int gompi_thread_level;

#define GOMPI_STATUS_IGNORED(s) ((void *)(s) == (void *)MPI_STATUS_IGNORE)
/* A NULL pointer argument raises MPI_ERR_ARG through comm's handler
 * (MPI_COMM_WORLD's for -1): checked at the C entry, before any fast path.
 * The file using it includes _cgo_export.h (gompi_NullPtr). */
#define GOMPI_NONNULL(comm, call, p)                                          \
    do {                                                                      \
        if ((p) == NULL) return gompi_NullPtr((comm), (char *)(call), (char *)#p); \
    } while (0)
/* An info argument is MPI_INFO_NULL or a live info object (MPI_ERR_INFO).
 * Only a non-null info costs a call into Go (setup calls only). */
#define GOMPI_INFO_ARG(comm, call, info)                                      \
    do {                                                                      \
        if ((info) != MPI_INFO_NULL) {                                        \
            int rc_ = gompi_InfoArg((comm), (char *)(call), (info));          \
            if (rc_ != MPI_SUCCESS) return rc_;                               \
        }                                                                     \
    } while (0)
#endif
