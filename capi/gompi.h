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
#endif
