package main

/*
#include "gompi.h"
void gompi_call_comm_errh(void *fn, int comm, int code);
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// newCommErrhandler wraps a C MPI_Comm_errhandler_function pointer; the
// handler gets pointers to copies of the communicator handle and the code,
// as the standard's prototype says.
func newCommErrhandler(forObj int, fn unsafe.Pointer) *mpi.Errhandler {
	return mpi.NewErrhandler(forObj, func(c *mpi.Comm, code int) {
		h := abi.CommWorld
		if c != nil {
			h = c.Handle
		}
		C.gompi_call_comm_errh(fn, C.int(h), C.int(code))
	})
}

func createErrhandler(call string, forObj int, fn unsafe.Pointer, out *C.int) C.int {
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if fn == nil {
		return argErr(nil, call, abi.ErrArg, "the handler function is NULL")
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "errhandler pointer is NULL")
	}
	if forObj == mpi.ErrhForFile {
		*out = C.int(newFileErrhandler(fn).Handle)
		return 0
	}
	*out = C.int(newCommErrhandler(forObj, fn).Handle)
	return 0
}

//export gompi_Comm_create_errhandler
func gompi_Comm_create_errhandler(fn unsafe.Pointer, out *C.int, call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return createErrhandler(C.GoString(call), mpi.ErrhForComm, fn, out)
}

//export gompi_Win_create_errhandler
func gompi_Win_create_errhandler(fn unsafe.Pointer, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	rc := createErrhandler("MPI_Win_create_errhandler", mpi.ErrhForWin, fn, out)
	if rc == 0 {
		mpi.ErrhandlerFromHandle(int32(*out)).WinFn = winErrhFn(fn)
	}
	return rc
}

//export gompi_File_create_errhandler
func gompi_File_create_errhandler(fn unsafe.Pointer, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return createErrhandler("MPI_File_create_errhandler", mpi.ErrhForFile, fn, out)
}

//export gompi_Comm_set_errhandler
func gompi_Comm_set_errhandler(comm, eh C.int, call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	c, rc := commArg(name, comm)
	if c == nil {
		return rc
	}
	h := mpi.ErrhandlerFromHandle(int32(eh))
	if h == nil {
		what := "invalid error handler"
		if int32(eh) == abi.ErrhandlerNull {
			what = "errhandler is MPI_ERRHANDLER_NULL"
		}
		return argErr(c, name, abi.ErrErrhandler, what)
	}
	if h.Kind == mpi.ErrhUser && h.For != mpi.ErrhForComm {
		return argErr(c, name, abi.ErrErrhandler, "the error handler was not created for communicators")
	}
	c.SetErrhandler(h)
	return 0
}

//export gompi_Comm_get_errhandler
func gompi_Comm_get_errhandler(comm C.int, eh *C.int, call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	c, rc := commArg(name, comm)
	if c == nil {
		return rc
	}
	if eh == nil {
		return argErr(c, name, abi.ErrArg, "errhandler pointer is NULL")
	}
	h := c.Errhandler()
	if h == nil {
		h = mpi.ErrorsAreFatal
	}
	*eh = C.int(h.GetHandle())
	return 0
}

//export gompi_Comm_call_errhandler
func gompi_Comm_call_errhandler(comm, code C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	c, rc := commArg("MPI_Comm_call_errhandler", comm)
	if c == nil {
		return rc
	}
	return C.int(mpi.Code(c.CallErrhandler(int(code))))
}

//export gompi_Errhandler_free
func gompi_Errhandler_free(eh *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Errhandler_free" // allowed before init (MPI-4 11.4.1)
	if eh == nil {
		return argErr(nil, call, abi.ErrArg, "errhandler pointer is NULL")
	}
	h := mpi.ErrhandlerFromHandle(int32(*eh))
	if h == nil {
		return argErr(nil, call, abi.ErrErrhandler, "invalid error handler")
	}
	mpi.FreeErrhandler(h)
	*eh = C.int(abi.ErrhandlerNull)
	return 0
}

//export gompi_Add_error_class
func gompi_Add_error_class(class *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady("MPI_Add_error_class")))
	}
	if class == nil {
		return argErr(nil, "MPI_Add_error_class", abi.ErrArg, "errorclass pointer is NULL")
	}
	*class = C.int(mpi.AddErrorClass())
	return 0
}

//export gompi_Add_error_code
func gompi_Add_error_code(class C.int, code *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady("MPI_Add_error_code")))
	}
	if code == nil {
		return argErr(nil, "MPI_Add_error_code", abi.ErrArg, "errorcode pointer is NULL")
	}
	c, err := mpi.AddErrorCode(int(class))
	if err != nil {
		return objErr(nil, "MPI_Add_error_code", err)
	}
	*code = C.int(c)
	return 0
}

//export gompi_Add_error_string
func gompi_Add_error_string(code C.int, s *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady("MPI_Add_error_string")))
	}
	if s == nil {
		return argErr(nil, "MPI_Add_error_string", abi.ErrArg, "string is NULL")
	}
	if err := mpi.AddErrorString(int(code), C.GoString(s)); err != nil {
		return objErr(nil, "MPI_Add_error_string", err)
	}
	return 0
}
