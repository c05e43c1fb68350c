package main

/*
#include <stdint.h>
#include "gompi.h"
int gompi_attr_copy(void *fn, int obj, int keyval, uintptr_t extra, uintptr_t in, uintptr_t *out, int *flag);
int gompi_attr_delete(void *fn, int obj, int keyval, uintptr_t val, uintptr_t extra);
extern int gompi_predef_attr[8];
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/attr"
	"gompi/datatype"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// cCopy wraps a C copy callback (MPI_Comm/Type/Win_copy_attr_function and
// MPI_Copy_function share one shape); nil is the NULL copy function.
func cCopy(fn unsafe.Pointer) attr.CopyFn {
	if fn == nil {
		return nil
	}
	return func(obj, kv int32, extra, val uintptr) (uintptr, bool, int) {
		var out C.uintptr_t
		var flag C.int
		rc := C.gompi_attr_copy(fn, C.int(obj), C.int(kv), C.uintptr_t(extra), C.uintptr_t(val), &out, &flag)
		return uintptr(out), flag != 0, int(rc)
	}
}

// cDelete wraps a C delete callback; nil is the NULL delete function.
func cDelete(fn unsafe.Pointer) attr.DeleteFn {
	if fn == nil {
		return nil
	}
	return func(obj, kv int32, extra, val uintptr) int {
		return int(C.gompi_attr_delete(fn, C.int(obj), C.int(kv), C.uintptr_t(val), C.uintptr_t(extra)))
	}
}

func raiseOn(c *mpi.Comm, e *mpi.Error) C.int {
	if c == nil {
		c = mpi.World()
	}
	return C.int(mpi.Code(mpi.Raise(c, e.Class, e.Call, e.Detail)))
}

//export gompi_create_keyval
func gompi_create_keyval(kind C.int, cp, del unsafe.Pointer, out *C.int, extra C.uintptr_t, call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(name)))
	}
	if out == nil {
		return argErr(nil, name, abi.ErrArg, "keyval pointer is NULL")
	}
	k := mpi.CreateKeyval(attr.Kind(kind), cCopy(cp), cDelete(del), uintptr(extra))
	*out = C.int(k.Handle)
	return 0
}

//export gompi_free_keyval
func gompi_free_keyval(kind C.int, kv *C.int, call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(name)))
	}
	if kv == nil {
		return argErr(nil, name, abi.ErrArg, "keyval pointer is NULL")
	}
	if e := mpi.FreeKeyval(name, int32(*kv), attr.Kind(kind)); e != nil {
		return raiseOn(nil, e)
	}
	*kv = C.int(abi.KeyvalInvalid)
	return 0
}

// predefAttr points at a C int holding a predefined attribute's value, so
// the pointer returned to the program stays valid.
func predefAttr(kv int32) uintptr {
	v, _ := mpi.PredefinedAttr(kv)
	i := (abi.HandleIndex(kv) & 0xff) / 2 // 1, 3, 5... -> 0, 1, 2...
	C.gompi_predef_attr[i] = C.int(v)
	return uintptr(unsafe.Pointer(&C.gompi_predef_attr[i]))
}

//export gompi_Comm_set_attr
func gompi_Comm_set_attr(comm, kv C.int, val C.uintptr_t, call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	c, rc := commArg(name, comm)
	if c == nil {
		return rc
	}
	if mpi.IsPredefinedKeyval(int32(kv)) {
		return argErr(c, name, abi.ErrKeyval, "a predefined attribute cannot be set")
	}
	k, e := mpi.KeyvalArg(name, int32(kv), attr.Comm)
	if e != nil {
		return raiseOn(c, e)
	}
	return C.int(mpi.Code(c.SetAttr(k, uintptr(val))))
}

//export gompi_Comm_get_attr
func gompi_Comm_get_attr(comm, kv C.int, val unsafe.Pointer, flag *C.int, call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	c, rc := commArg(name, comm)
	if c == nil {
		return rc
	}
	if val == nil || flag == nil {
		return argErr(c, name, abi.ErrArg, "attribute_val or flag is NULL")
	}
	out := (*C.uintptr_t)(val)
	if mpi.IsPredefinedKeyval(int32(kv)) {
		*out = C.uintptr_t(predefAttr(int32(kv)))
		*flag = 1
		return 0
	}
	k, e := mpi.KeyvalArg(name, int32(kv), attr.Comm)
	if e != nil {
		return raiseOn(c, e)
	}
	v, ok := c.GetAttr(k)
	*flag = 0
	if ok {
		*flag = 1
		*out = C.uintptr_t(v)
	}
	return 0
}

//export gompi_Comm_delete_attr
func gompi_Comm_delete_attr(comm, kv C.int, call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	c, rc := commArg(name, comm)
	if c == nil {
		return rc
	}
	if mpi.IsPredefinedKeyval(int32(kv)) {
		return argErr(c, name, abi.ErrKeyval, "a predefined attribute cannot be deleted")
	}
	k, e := mpi.KeyvalArg(name, int32(kv), attr.Comm)
	if e != nil {
		return raiseOn(c, e)
	}
	return C.int(mpi.Code(c.DeleteAttr(k)))
}

func typeArg(call string, h C.int) (*datatype.Type, C.int) {
	if !mpi.Ready() {
		return nil, C.int(mpi.Code(mpi.NotReady(call)))
	}
	t := mpi.TypeFromHandle(int32(h))
	if t == nil {
		return nil, argErr(nil, call, abi.ErrType, "invalid datatype")
	}
	return t, 0
}

//export gompi_Type_set_attr
func gompi_Type_set_attr(dt, kv C.int, val C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Type_set_attr"
	t, rc := typeArg(call, dt)
	if t == nil {
		return rc
	}
	k, e := mpi.KeyvalArg(call, int32(kv), attr.Datatype)
	if e != nil {
		return raiseOn(nil, e)
	}
	return C.int(mpi.Code(mpi.SetTypeAttr(t, k, uintptr(val))))
}

//export gompi_Type_get_attr
func gompi_Type_get_attr(dt, kv C.int, val unsafe.Pointer, flag *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Type_get_attr"
	t, rc := typeArg(call, dt)
	if t == nil {
		return rc
	}
	if val == nil || flag == nil {
		return argErr(nil, call, abi.ErrArg, "attribute_val or flag is NULL")
	}
	k, e := mpi.KeyvalArg(call, int32(kv), attr.Datatype)
	if e != nil {
		return raiseOn(nil, e)
	}
	v, ok := t.Attrs.Get(k)
	*flag = 0
	if ok {
		*flag = 1
		*(*C.uintptr_t)(val) = C.uintptr_t(v)
	}
	return 0
}

//export gompi_Type_delete_attr
func gompi_Type_delete_attr(dt, kv C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Type_delete_attr"
	t, rc := typeArg(call, dt)
	if t == nil {
		return rc
	}
	k, e := mpi.KeyvalArg(call, int32(kv), attr.Datatype)
	if e != nil {
		return raiseOn(nil, e)
	}
	return C.int(mpi.Code(mpi.DeleteTypeAttr(t, k)))
}
