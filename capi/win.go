package main

/*
#include <stdint.h>
#include "gompi.h"
void gompi_call_comm_errh(void *fn, int comm, int code);
void *gompi_win_attrs_new(long size, int disp_unit, int flavor, int model);
void gompi_win_attrs_free(void *a);
void *gompi_win_attr_size(void *a);
void *gompi_win_attr_disp(void *a);
void *gompi_win_attr_flavor(void *a);
void *gompi_win_attr_model(void *a);
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/attr"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// winArg resolves a window handle; a bad one is MPI_ERR_WIN, raised on
// MPI_COMM_WORLD (there is no window to take a handler from).
func winArg(call string, h C.int) (*mpi.Win, C.int) {
	if !mpi.Ready() {
		return nil, C.int(mpi.Code(mpi.NotReady(call)))
	}
	w := mpi.WinFromHandle(int32(h))
	if w == nil {
		what := "invalid window handle"
		if int32(h) == abi.WinNull {
			what = "window is MPI_WIN_NULL"
		}
		return nil, argErr(nil, call, abi.ErrWin, what)
	}
	return w, 0
}

// winArgOut is winArg for calls with output pointers: null says one of them
// is NULL, an MPI_ERR_ARG (what) raised on the window.
func winArgOut(call string, h C.int, null bool, what string) (*mpi.Win, C.int) {
	w, rc := winArg(call, h)
	if w != nil && null {
		return nil, winErr(w, call, abi.ErrArg, what)
	}
	return w, rc
}

func winErr(w *mpi.Win, call string, class int, detail string) C.int {
	return C.int(mpi.Code(mpi.RaiseWin(w, class, call, detail)))
}

// winInfo resolves the info argument of a window creation (MPI_INFO_NULL: none).
func winInfo(call string, h C.int) (*info.Info, C.int) {
	if int32(h) == abi.InfoNull {
		return nil, 0
	}
	return infoArg(call, h)
}

// finishWin gives a new window its C memory for the predefined attributes
// and its handle.
func finishWin(w *mpi.Win, err error, out *C.int) C.int {
	if err != nil {
		return C.int(mpi.Code(err))
	}
	w.Extra = C.gompi_win_attrs_new(C.long(w.Size), C.int(w.DispUnit), C.int(w.Flavor), C.int(abi.WinUnified))
	winFastPublish(w)
	*out = C.int(w.Handle)
	return 0
}

//export gompi_Win_create
func gompi_Win_create(base unsafe.Pointer, size C.long, du C.long, inf, comm C.int, out *C.int, wide C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := callC("MPI_Win_create", wide != 0)
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	in, rc := winInfo(call, inf)
	if rc != 0 {
		return rc
	}
	if out == nil {
		return argErr(c, call, abi.ErrArg, "win pointer is NULL")
	}
	if base == nil && size > 0 {
		return argErr(c, call, abi.ErrBase, "base is NULL with a non-zero size")
	}
	w, err := c.WinCreate(base, int64(size), int(du), in)
	return finishWin(w, err, out)
}

//export gompi_Win_allocate
func gompi_Win_allocate(size C.long, du C.long, inf, comm C.int, baseptr *unsafe.Pointer, out *C.int, shared C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	wide := shared&wideBit != 0
	shared &^= wideBit
	call := "MPI_Win_allocate"
	if shared != 0 {
		call = "MPI_Win_allocate_shared"
	}
	call = callC(call, wide)
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	in, rc := winInfo(call, inf)
	if rc != 0 {
		return rc
	}
	if out == nil || baseptr == nil {
		return argErr(c, call, abi.ErrArg, "baseptr or win pointer is NULL")
	}
	var w *mpi.Win
	var err error
	if shared != 0 {
		w, err = c.WinAllocateShared(int64(size), int(du), in)
	} else {
		w, err = c.WinAllocate(int64(size), int(du), in)
	}
	if rc := finishWin(w, err, out); rc != 0 {
		return rc
	}
	*baseptr = w.Base
	return 0
}

//export gompi_Win_create_dynamic
func gompi_Win_create_dynamic(inf, comm C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_create_dynamic"
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	in, rc := winInfo(call, inf)
	if rc != 0 {
		return rc
	}
	if out == nil {
		return argErr(c, call, abi.ErrArg, "win pointer is NULL")
	}
	w, err := c.WinCreateDynamic(in)
	return finishWin(w, err, out)
}

//export gompi_Win_shared_query
func gompi_Win_shared_query(win, rank C.int, size *C.long, du unsafe.Pointer, baseptr *unsafe.Pointer, wide C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := callC("MPI_Win_shared_query", wide != 0)
	w, rc := winArgOut(call, win, size == nil || du == nil || baseptr == nil, "size, disp_unit or baseptr is NULL")
	if w == nil {
		return rc
	}
	p, s, d, err := w.SharedQuery(int(rank))
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*size, *baseptr = C.long(s), p
	putCount(du, wide != 0, d)
	return 0
}

//export gompi_Win_attach
func gompi_Win_attach(win C.int, base unsafe.Pointer, size C.long) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_attach"
	w, rc := winArg(call, win)
	if w == nil {
		return rc
	}
	if base == nil && size > 0 {
		return winErr(w, call, abi.ErrBase, "base is NULL")
	}
	return C.int(mpi.Code(w.Attach(base, int64(size))))
}

//export gompi_Win_detach
func gompi_Win_detach(win C.int, base unsafe.Pointer) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	w, rc := winArg("MPI_Win_detach", win)
	if w == nil {
		return rc
	}
	return C.int(mpi.Code(w.Detach(base)))
}

//export gompi_Win_free
func gompi_Win_free(win *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_free"
	if win == nil {
		return argErr(nil, call, abi.ErrArg, "win pointer is NULL")
	}
	w, rc := winArg(call, *win)
	if w == nil {
		return rc
	}
	h := w.Handle
	if err := w.Free(); err != nil {
		return C.int(mpi.Code(err))
	}
	w.Handle = h // winFastRetire finds the entry by the old handle
	winFastRetire(w)
	w.Handle = abi.WinNull
	if w.Extra != nil {
		C.gompi_win_attrs_free(w.Extra)
		w.Extra = nil
	}
	*win = C.int(abi.WinNull)
	return 0
}

//export gompi_Win_get_group
func gompi_Win_get_group(win C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_get_group"
	w, rc := winArgOut(call, win, out == nil, "group pointer is NULL")
	if w == nil {
		return rc
	}
	*out = C.int(mpi.NewGroupHandle(w.Group()))
	return 0
}

//export gompi_Win_set_info
func gompi_Win_set_info(win, inf C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_set_info"
	w, rc := winArg(call, win)
	if w == nil {
		return rc
	}
	in, rc := infoArg(call, inf)
	if in == nil {
		return rc
	}
	w.SetInfo(in)
	return 0
}

//export gompi_Win_get_info
func gompi_Win_get_info(win C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_get_info"
	w, rc := winArgOut(call, win, out == nil, "info pointer is NULL")
	if w == nil {
		return rc
	}
	*out = C.int(mpi.NewInfoHandle(w.Info()))
	return 0
}

//export gompi_Win_set_name
func gompi_Win_set_name(win C.int, name *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_set_name"
	w, rc := winArgOut(call, win, name == nil, "name is NULL")
	if w == nil {
		return rc
	}
	n := C.GoString(name)
	if len(n) > abi.MaxObjectName-1 {
		n = n[:abi.MaxObjectName-1]
	}
	w.SetName(n)
	return 0
}

//export gompi_Win_get_name
func gompi_Win_get_name(win C.int, name *C.char, resultlen *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_get_name"
	w, rc := winArgOut(call, win, name == nil || resultlen == nil, "name or resultlen is NULL")
	if w == nil {
		return rc
	}
	putCString(name, w.Name())
	*resultlen = C.int(len(w.Name()))
	return 0
}

func isWinPredefKeyval(kv int32) bool {
	switch kv {
	case abi.AttrWinBase, abi.AttrWinSize, abi.AttrWinDispUnit, abi.AttrWinCreateFlavor, abi.AttrWinModel:
		return true
	}
	return false
}

// winAttrArgs resolves the window and the keyval of MPI_Win_set_attr and
// MPI_Win_delete_attr (the predefined window attributes are read-only).
func winAttrArgs(call string, win, kv C.int) (*mpi.Win, *attr.Keyval, C.int) {
	w, rc := winArg(call, win)
	if w == nil {
		return nil, nil, rc
	}
	if isWinPredefKeyval(int32(kv)) {
		return nil, nil, winErr(w, call, abi.ErrKeyval, "a predefined window attribute cannot be set or deleted")
	}
	k, e := mpi.KeyvalArg(call, int32(kv), attr.Win)
	if e != nil {
		return nil, nil, winErr(w, call, e.Class, e.Detail)
	}
	return w, k, 0
}

//export gompi_Win_set_attr
func gompi_Win_set_attr(win, kv C.int, val C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_set_attr"
	w, k, rc := winAttrArgs(call, win, kv)
	if k == nil {
		return rc
	}
	return C.int(mpi.Code(w.SetAttr(k, uintptr(val))))
}

//export gompi_Win_delete_attr
func gompi_Win_delete_attr(win, kv C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_delete_attr"
	w, k, rc := winAttrArgs(call, win, kv)
	if k == nil {
		return rc
	}
	return C.int(mpi.Code(w.DeleteAttr(k)))
}

//export gompi_Win_get_attr
func gompi_Win_get_attr(win, kv C.int, val unsafe.Pointer, flag *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_get_attr"
	w, rc := winArgOut(call, win, val == nil || flag == nil, "attribute_val or flag is NULL")
	if w == nil {
		return rc
	}
	out := (*unsafe.Pointer)(val)
	if isWinPredefKeyval(int32(kv)) {
		*flag = 1
		switch int32(kv) {
		case abi.AttrWinBase:
			*out = w.Base
		case abi.AttrWinSize:
			*out = C.gompi_win_attr_size(w.Extra)
		case abi.AttrWinDispUnit:
			*out = C.gompi_win_attr_disp(w.Extra)
		case abi.AttrWinCreateFlavor:
			*out = C.gompi_win_attr_flavor(w.Extra)
		default:
			*out = C.gompi_win_attr_model(w.Extra)
		}
		return 0
	}
	k, e := mpi.KeyvalArg(call, int32(kv), attr.Win)
	if e != nil {
		return winErr(w, call, e.Class, e.Detail)
	}
	v, ok := w.Attrs.Get(k)
	*flag = 0
	if ok {
		*flag = 1
		*(*C.uintptr_t)(val) = C.uintptr_t(v)
	}
	return 0
}

// winErrhFn is the window half of a C MPI_Win_errhandler_function: it gets
// a pointer to the window's handle.
func winErrhFn(fn unsafe.Pointer) func(w *mpi.Win, code int) {
	return func(w *mpi.Win, code int) {
		h := C.int(abi.WinNull)
		if w != nil {
			h = C.int(w.Handle)
		}
		C.gompi_call_comm_errh(fn, h, C.int(code))
	}
}

//export gompi_Win_set_errhandler
func gompi_Win_set_errhandler(win, eh C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_set_errhandler"
	w, rc := winArg(call, win)
	if w == nil {
		return rc
	}
	h := mpi.ErrhandlerFromHandle(int32(eh))
	if h == nil {
		return winErr(w, call, abi.ErrErrhandler, "invalid error handler")
	}
	if h.Kind == mpi.ErrhUser && h.For != mpi.ErrhForWin {
		return winErr(w, call, abi.ErrErrhandler, "the error handler was not created for windows")
	}
	w.SetErrhandler(h)
	return 0
}

//export gompi_Win_get_errhandler
func gompi_Win_get_errhandler(win C.int, eh *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_get_errhandler"
	w, rc := winArgOut(call, win, eh == nil, "errhandler pointer is NULL")
	if w == nil {
		return rc
	}
	*eh = C.int(w.Errhandler().GetHandle())
	return 0
}

//export gompi_Win_call_errhandler
func gompi_Win_call_errhandler(win, code C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	w, rc := winArg("MPI_Win_call_errhandler", win)
	if w == nil {
		return rc
	}
	return C.int(mpi.Code(w.CallErrhandler(int(code))))
}
