/* The C shared-memory collectives' groups of communicators other than
 * MPI_COMM_WORLD (shmcoll.h, shmcomms.go). */
#include "fastpath.h"
#include "shmcoll.h"

struct gompi_shm *gompi_shm_comms[GOMPI_SHM_COMMS];
int gompi_shm_mt;
