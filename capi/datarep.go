package main

/*
int gompi_call_datarep_conv(void *fn, int fortran, void *userbuf, int dt, int count, void *filebuf, long long pos, void *extra);
int gompi_call_datarep_extent(void *fn, int fortran, int dt, long *ext, void *extra);
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// gompi_Register_datarep is MPI_Register_datarep from C (fortran 0) or from
// the Fortran binding (fortran 1): the callbacks stay C function pointers
// called back through capi/datarep.c; a NULL conversion is
// MPI_CONVERSION_FN_NULL.
//
//export gompi_Register_datarep
func gompi_Register_datarep(rep *C.char, read, write, extent, extra unsafe.Pointer, fortran C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Register_datarep"
	if fortran == 2 {
		call = "MPI_Register_datarep_c"
	}
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if rep == nil {
		return fileErr(nil, abi.ErrArg, call, "datarep is NULL")
	}
	conv := func(fn unsafe.Pointer) func(unsafe.Pointer, *datatype.Type, int, unsafe.Pointer, int64) int {
		if fn == nil {
			return nil
		}
		return func(user unsafe.Pointer, dt *datatype.Type, count int, file unsafe.Pointer, pos int64) int {
			return int(C.gompi_call_datarep_conv(fn, fortran, user, C.int(dt.Handle), C.int(count), file, C.longlong(pos), extra))
		}
	}
	d := &mpi.Datarep{Name: C.GoString(rep), Read: conv(read), Write: conv(write),
		Extent: func(dt *datatype.Type) (int64, int) {
			var x C.long
			rc := C.gompi_call_datarep_extent(extent, fortran, C.int(dt.Handle), &x, extra)
			return int64(x), int(rc)
		}}
	return C.int(mpi.Code(mpi.RegisterDatarep(d)))
}
