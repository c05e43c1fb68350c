package mpi

import "gompi/abi"

// MaxThreadLevel is the thread level MPI_Init_thread gives to a program
// asking for MPI_THREAD_MULTIPLE (for gompi_info).
func MaxThreadLevel() int { return providedLevel(abi.ThreadMultiple) }
