package main

import "C"

import (
	"gompi/abi"
	"gompi/mpi"
)

func errhandlerFromHandle(h int32) *mpi.Errhandler {
	switch h {
	case abi.ErrorsAreFatal:
		return mpi.ErrorsAreFatal
	case abi.ErrorsReturn:
		return mpi.ErrorsReturn
	case abi.ErrorsAbort:
		return mpi.ErrorsAbort
	}
	return nil
}

//export gompi_Comm_set_errhandler
func gompi_Comm_set_errhandler(comm, eh C.int) C.int {
	c, rc := commArg("MPI_Comm_set_errhandler", comm)
	if c == nil {
		return rc
	}
	h := errhandlerFromHandle(int32(eh))
	if h == nil {
		return argErr(c, "MPI_Comm_set_errhandler", abi.ErrArg, "invalid error handler")
	}
	c.SetErrhandler(h)
	return 0
}

//export gompi_Comm_get_errhandler
func gompi_Comm_get_errhandler(comm C.int, eh *C.int) C.int {
	c, rc := commArg("MPI_Comm_get_errhandler", comm)
	if c == nil {
		return rc
	}
	if eh == nil {
		return argErr(c, "MPI_Comm_get_errhandler", abi.ErrArg, "errhandler pointer is NULL")
	}
	*eh = C.int(c.Errhandler().Handle)
	return 0
}

//export gompi_Errhandler_free
func gompi_Errhandler_free(eh *C.int) C.int {
	if !mpi.Ready() {
		return gompi_NotReady(C.CString("MPI_Errhandler_free"))
	}
	if eh == nil || errhandlerFromHandle(int32(*eh)) == nil {
		return argErr(nil, "MPI_Errhandler_free", abi.ErrArg, "invalid error handler")
	}
	*eh = C.int(abi.ErrhandlerNull)
	return 0
}
