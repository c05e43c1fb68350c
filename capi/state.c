#include "gompi.h"
int gompi_state;
int gompi_world_rank, gompi_world_size;
int gompi_thread_level;
