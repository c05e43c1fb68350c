package mpi

import "gompi/abi"

// Error classes MPI-4.1 added (values of MPICH 4.2, which implements it).
func init() {
	classNames[abi.ErrErrhandler] = "MPI_ERR_ERRHANDLER"
	classStrings[abi.ErrErrhandler] = "invalid errhandler argument"
	classNames[abi.TErrNotAccessible] = "MPI_T_ERR_NOT_ACCESSIBLE"
	classStrings[abi.TErrNotAccessible] = "the variable or its value is not accessible (MPI_T)"
}
