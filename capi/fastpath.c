#include <stdlib.h>
#include "fastslot.h"
#include "shmcoll.h"

struct gompi_fast gompi_fast;
gompi_fcomm gompi_fast_comms[GOMPI_FAST_COMMS];
uint64_t gompi_fast_sends, gompi_fast_send_bytes;
uint64_t gompi_shm_ncalls[8];
signed char gompi_builtin_sizes[256];

gompi_fslot gompi_fast_slots[GOMPI_FAST_SLOTS];
int32_t gompi_fast_free = -1;

/* Called by the Go side after MPI_Init: room for the per-peer ring table and
 * receive queues, and every request slot on the free list. */
gompi_fpeer *gompi_fast_alloc(int size)
{
    gompi_fast.peers = calloc((size_t)size, sizeof(gompi_fpeer));
    gompi_fast.qhead = malloc((size_t)size * sizeof(int32_t));
    gompi_fast.qtail = malloc((size_t)size * sizeof(int32_t));
    for (int i = 0; i < size; i++)
        gompi_fast.qhead[i] = gompi_fast.qtail[i] = -1;
    for (int i = 0; i < GOMPI_FAST_SLOTS; i++)
        gompi_fast_slots[i].next = i + 1 < GOMPI_FAST_SLOTS ? i + 1 : -1;
    gompi_fast_free = 0;
    return gompi_fast.peers;
}

struct gompi_shm gompi_shm;
