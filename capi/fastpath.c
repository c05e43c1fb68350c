#include <stdlib.h>
#include "fastpath.h"
#include "shmcoll.h"

struct gompi_fast gompi_fast;
signed char gompi_builtin_sizes[256];

/* Called by the Go side after MPI_Init: room for the per-peer ring table. */
gompi_fpeer *gompi_fast_alloc(int size)
{
    gompi_fast.peers = calloc((size_t)size, sizeof(gompi_fpeer));
    return gompi_fast.peers;
}

gompi_done_slot gompi_fast_done[GOMPI_FAST_DONE_MAX];
int32_t gompi_fast_done_free = -1;

/* gompi_fast_done_init threads every slot onto the free list (at MPI_Init). */
void gompi_fast_done_init(void)
{
    for (int i = 0; i < GOMPI_FAST_DONE_MAX; i++)
        gompi_fast_done[i].next = i + 1 < GOMPI_FAST_DONE_MAX ? i + 1 : -1;
    gompi_fast_done_free = 0;
}

struct gompi_shm gompi_shm;
