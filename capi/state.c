#include "gompi.h"
int gompi_state;
int gompi_world_rank, gompi_world_size;
int gompi_thread_level;

/* Sentinel objects the header declares: only their addresses matter. */
static int unweighted_sentinel, weights_empty_sentinel;
int *const MPI_UNWEIGHTED = &unweighted_sentinel;
int *const MPI_WEIGHTS_EMPTY = &weights_empty_sentinel;
MPI_Fint *MPI_F_STATUS_IGNORE = 0;
MPI_Fint *MPI_F_STATUSES_IGNORE = 0;
MPI_T_pvar_handle const MPI_T_PVAR_ALL_HANDLES = (MPI_T_pvar_handle)1;
