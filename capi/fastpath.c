#include <stdlib.h>
#include "fastpath.h"

struct gompi_fast gompi_fast;
signed char gompi_builtin_sizes[256];

/* Called by the Go side after MPI_Init: room for the per-peer ring table. */
gompi_fpeer *gompi_fast_alloc(int size)
{
    gompi_fast.peers = calloc((size_t)size, sizeof(gompi_fpeer));
    return gompi_fast.peers;
}
