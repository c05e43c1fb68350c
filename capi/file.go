package main

/*
#include <stdint.h>
void gompi_call_file_errh(void *fn, int file, int code);
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/group"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// File handles reach Go as the int carried in the C MPI_File pointer.

func fileArg(call string, h C.int) (*mpi.File, C.int) {
	if !mpi.Ready() {
		return nil, C.int(mpi.Code(mpi.NotReady(call)))
	}
	f := mpi.FileFromHandle(int32(h))
	if f == nil {
		what := "invalid file handle"
		if h == 0 {
			what = "file is MPI_FILE_NULL"
		}
		return nil, C.int(mpi.Code(mpi.RaiseFile(nil, abi.ErrFile, call, what)))
	}
	return f, 0
}

func fileErr(f *mpi.File, class int, call, detail string) C.int {
	return C.int(mpi.Code(mpi.RaiseFile(f, class, call, detail)))
}

// newFileErrhandler wraps a C MPI_File_errhandler_function pointer.
func newFileErrhandler(fn unsafe.Pointer) *mpi.Errhandler {
	h := mpi.NewErrhandler(mpi.ErrhForFile, func(c *mpi.Comm, code int) {
		C.gompi_call_file_errh(fn, 0, C.int(code))
	})
	h.FileFn = func(f *mpi.File, code int) {
		var fh int32
		if f != nil {
			fh = f.Handle
		}
		C.gompi_call_file_errh(fn, C.int(fh), C.int(code))
	}
	return h
}

//export gompi_File_open
func gompi_File_open(comm C.int, name *C.char, amode, inf C.int, out *C.int, haveOut C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_File_open"
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if name == nil {
		return fileErr(nil, abi.ErrArg, call, "filename is NULL")
	}
	if haveOut == 0 {
		return fileErr(nil, abi.ErrArg, call, "file handle pointer is NULL")
	}
	in := mpi.InfoFromHandle(int32(inf))
	if in == nil && int32(inf) != abi.InfoNull {
		return fileErr(nil, abi.ErrInfo, call, "invalid info handle")
	}
	f, err := mpi.OpenFile(c, C.GoString(name), int(amode), in)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*out = C.int(f.Handle)
	return 0
}

//export gompi_File_close
func gompi_File_close(fh C.int, have C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_File_close"
	if have == 0 {
		return fileErr(nil, abi.ErrArg, call, "file handle pointer is NULL")
	}
	f, rc := fileArg(call, fh)
	if f == nil {
		return rc
	}
	return C.int(mpi.Code(f.Close()))
}

//export gompi_File_delete
func gompi_File_delete(name *C.char, inf C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_File_delete"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if name == nil {
		return fileErr(nil, abi.ErrArg, call, "filename is NULL")
	}
	if mpi.InfoFromHandle(int32(inf)) == nil && int32(inf) != abi.InfoNull {
		return fileErr(nil, abi.ErrInfo, call, "invalid info handle")
	}
	return C.int(mpi.Code(mpi.DeleteFile(C.GoString(name))))
}

//export gompi_File_set_size
func gompi_File_set_size(fh C.int, size C.long, prealloc C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_File_set_size"
	if prealloc != 0 {
		call = "MPI_File_preallocate"
	}
	f, rc := fileArg(call, fh)
	if f == nil {
		return rc
	}
	return C.int(mpi.Code(f.SetSize(int64(size), prealloc != 0)))
}

var offsetCalls = [...]string{"MPI_File_get_size", "MPI_File_get_position", "MPI_File_get_position_shared", "MPI_File_get_byte_offset"}

//export gompi_File_get_offset
func gompi_File_get_offset(fh C.int, out *C.long, which C.int, arg C.long) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := offsetCalls[which]
	f, rc := fileArg(call, fh)
	if f == nil {
		return rc
	}
	if out == nil {
		return fileErr(f, abi.ErrArg, call, "output pointer is NULL")
	}
	var v int64
	var err error
	switch which {
	case 0:
		v, err = f.Size()
	case 1:
		if f.Amode()&abi.ModeSequential != 0 {
			return fileErr(f, abi.ErrUnsupportedOperation, call, "file opened with MPI_MODE_SEQUENTIAL")
		}
		v = f.Position()
	case 2:
		v, err = f.PositionShared()
	case 3:
		v, err = f.ByteOffset(int64(arg))
	}
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*out = C.long(v)
	return 0
}

// fileOrNull is fileArg for the calls that also take MPI_FILE_NULL (null:
// the errhandler calls, as its handler is the default for opens); for it f
// is nil and rc 0.
func fileOrNull(call string, fh C.int, null bool) (*mpi.File, C.int) {
	if null && fh == 0 {
		if !mpi.Ready() {
			return nil, C.int(mpi.Code(mpi.NotReady(call)))
		}
		return nil, 0
	}
	return fileArg(call, fh)
}

var getIntCalls = [...]string{"MPI_File_get_group", "MPI_File_get_amode", "MPI_File_get_info", "MPI_File_get_atomicity", "MPI_File_get_errhandler"}

//export gompi_File_get_int
func gompi_File_get_int(fh C.int, out *C.int, which C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := getIntCalls[which]
	f, rc := fileOrNull(call, fh, which == 4)
	if rc != 0 {
		return rc
	}
	if out == nil {
		return fileErr(f, abi.ErrArg, call, "output pointer is NULL")
	}
	switch which {
	case 0:
		*out = C.int(mpi.NewGroupHandle(group.New(f.Comm().GroupRanks())))
	case 1:
		*out = C.int(f.Amode())
	case 2:
		*out = C.int(mpi.NewInfoHandle(f.Info()))
	case 3:
		*out = 0
		if f.Atomicity() {
			*out = 1
		}
	case 4:
		h := mpi.FileNullErrhandler()
		if f != nil {
			h = f.Errhandler()
		}
		*out = C.int(h.GetHandle())
	}
	return 0
}

var setIntCalls = [...]string{"MPI_File_set_info", "MPI_File_set_atomicity", "MPI_File_set_errhandler", "MPI_File_call_errhandler", "MPI_File_sync"}

//export gompi_File_set_int
func gompi_File_set_int(fh, v, which C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := setIntCalls[which]
	f, rc := fileOrNull(call, fh, which == 2 || which == 3)
	if rc != 0 {
		return rc
	}
	switch which {
	case 0:
		in := mpi.InfoFromHandle(int32(v))
		if in == nil && int32(v) != abi.InfoNull {
			return fileErr(f, abi.ErrInfo, call, "invalid info handle")
		}
		f.SetInfo(in)
	case 1:
		return C.int(mpi.Code(f.SetAtomicity(v != 0)))
	case 2:
		h := mpi.ErrhandlerFromHandle(int32(v))
		if h == nil {
			return fileErr(f, abi.ErrErrhandler, call, "invalid error handler")
		}
		if h.Kind == mpi.ErrhUser && h.For != mpi.ErrhForFile {
			return fileErr(f, abi.ErrErrhandler, call, "the error handler was not created for files")
		}
		if f == nil {
			mpi.SetFileNullErrhandler(h)
		} else {
			f.SetErrhandler(h)
		}
	case 3:
		if f == nil {
			class, ok := mpi.ErrorClass(int(v))
			if !ok {
				class = abi.ErrUnknown
			}
			mpi.RaiseFile(nil, class, call, "called on MPI_FILE_NULL")
			return 0
		}
		return C.int(mpi.Code(f.CallErrhandler(int(v))))
	case 4:
		return C.int(mpi.Code(f.Sync()))
	}
	return 0
}

//export gompi_File_seek
func gompi_File_seek(fh C.int, off C.long, whence, shared C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_File_seek"
	if shared != 0 {
		call = "MPI_File_seek_shared"
	}
	f, rc := fileArg(call, fh)
	if f == nil {
		return rc
	}
	if shared != 0 {
		return C.int(mpi.Code(f.SeekShared(int64(off), int(whence))))
	}
	return C.int(mpi.Code(f.SeekIndividual(int64(off), int(whence))))
}

func fileTypeArg(f *mpi.File, call string, h C.int) (*mpi.Datatype, C.int) {
	t := mpi.TypeFromHandle(int32(h))
	if t == nil {
		return nil, fileErr(f, abi.ErrType, call, "invalid datatype")
	}
	return t, 0
}

// fileTypeArgs resolves the file handle and then a datatype, the two
// arguments most file calls start with.
func fileTypeArgs(call string, fh, dt C.int) (*mpi.File, *mpi.Datatype, C.int) {
	f, rc := fileArg(call, fh)
	if f == nil {
		return nil, nil, rc
	}
	t, rc := fileTypeArg(f, call, dt)
	return f, t, rc
}

//export gompi_File_set_view
func gompi_File_set_view(fh C.int, disp C.long, et, ft C.int, rep *C.char, inf C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_File_set_view"
	f, etype, rc := fileTypeArgs(call, fh, et)
	if etype == nil {
		return rc
	}
	ftype, rc := fileTypeArg(f, call, ft)
	if ftype == nil {
		return rc
	}
	if rep == nil {
		return fileErr(f, abi.ErrArg, call, "datarep is NULL")
	}
	datarep := C.GoString(rep)
	in := mpi.InfoFromHandle(int32(inf))
	if in == nil && int32(inf) != abi.InfoNull {
		return fileErr(f, abi.ErrInfo, call, "invalid info handle")
	}
	return C.int(mpi.Code(f.SetView(int64(disp), etype, ftype, datarep, in)))
}

//export gompi_File_get_view
func gompi_File_get_view(fh C.int, disp *C.long, et, ft *C.int, rep *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_File_get_view"
	f, rc := fileArg(call, fh)
	if f == nil {
		return rc
	}
	if disp == nil || et == nil || ft == nil || rep == nil {
		return fileErr(f, abi.ErrArg, call, "an output pointer is NULL")
	}
	d, etype, ftype, datarep, err := f.View()
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*disp, *et, *ft = C.long(d), C.int(etype.Handle), C.int(ftype.Handle)
	out := unsafe.Slice((*byte)(unsafe.Pointer(rep)), len(datarep)+1)
	copy(out, datarep)
	out[len(datarep)] = 0
	return 0
}

//export gompi_File_get_type_extent
func gompi_File_get_type_extent(fh, dt C.int, out *C.long) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_File_get_type_extent"
	f, t, rc := fileTypeArgs(call, fh, dt)
	if t == nil {
		return rc
	}
	if out == nil {
		return fileErr(f, abi.ErrArg, call, "extent pointer is NULL")
	}
	*out = C.long(f.TypeExtent(t))
	return 0
}

// Access flags, as capi/file.c sets them.
const (
	accW       = 1
	accColl    = 2
	accIndiv   = 4
	accShared  = 8
	accNB      = 16
	accBegin   = 32
	accOrdered = 64
)

//export gompi_File_access
func gompi_File_access(ccall *C.char, fh, flags C.int, off C.long, buf unsafe.Pointer, count C.long, dt C.int, status C.uintptr_t, req *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := C.GoString(ccall)
	f, t, rc := fileTypeArgs(call, fh, dt)
	if t == nil {
		return rc
	}
	if flags&accNB != 0 && req == nil {
		return fileErr(f, abi.ErrArg, call, "request pointer is NULL")
	}
	// The blocking forms take a status: MPI_STATUS_IGNORE is not NULL.
	if flags&(accNB|accBegin) == 0 && status == 0 {
		return fileErr(f, abi.ErrArg, call, "status pointer is NULL (use MPI_STATUS_IGNORE)")
	}
	if buf == nil && count > 0 && t.Size > 0 {
		return fileErr(f, abi.ErrBuffer, call, "buffer is NULL")
	}
	write, coll := flags&accW != 0, flags&accColl != 0
	at := mpi.AtExplicit
	switch {
	case flags&accIndiv != 0:
		at = mpi.AtIndividual
	case flags&(accShared|accOrdered) != 0:
		at = mpi.AtShared
	}
	if flags&(accNB|accBegin) != 0 {
		start := func() (*mpi.Request, error) {
			if flags&accOrdered != 0 {
				return f.OrderedNB(call, write, buf, int(count), t)
			}
			return f.AccessNB(call, write, coll, at, int64(off), buf, int(count), t)
		}
		if flags&accBegin != 0 {
			return C.int(mpi.Code(f.SplitBegin(call, start)))
		}
		r, err := start()
		if err == nil {
			*req = C.int(mpi.RequestHandle(r))
		}
		return C.int(mpi.Code(err))
	}
	var s mpi.Status
	var err error
	if flags&accOrdered != 0 {
		s, err = f.Ordered(call, write, buf, int(count), t)
	} else {
		s, err = f.Access(call, write, coll, at, int64(off), buf, int(count), t)
	}
	if err == nil {
		putStatus(status, &s)
	}
	return C.int(mpi.Code(err))
}

//export gompi_File_split_end
func gompi_File_split_end(ccall *C.char, fh C.int, status C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := C.GoString(ccall)
	f, rc := fileArg(call, fh)
	if f == nil {
		return rc
	}
	if status == 0 {
		return fileErr(f, abi.ErrArg, call, "status pointer is NULL (use MPI_STATUS_IGNORE)")
	}
	s, err := f.SplitEnd(call)
	if err == nil {
		putStatus(status, &s)
	}
	return C.int(mpi.Code(err))
}
