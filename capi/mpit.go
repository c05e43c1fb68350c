package main

/*
#include <stdint.h>
#include "fastpath.h"
#include "fastslot.h"
#include "shmcoll.h"
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
	"gompi/mpit"
)

// MPI_T calls return their error class; they never call error handlers.

func init() {
	mpi.FastCounters.Sends = func() uint64 { return uint64(C.gompi_fast_sent(0)) }
	mpi.FastCounters.SendBytes = func() uint64 { return uint64(C.gompi_fast_sent(1)) }
	mpi.FastCounters.Posted = func() int64 { return int64(C.gompi_fast.posted) }
	mpi.FastCounters.ShmCalls = func(k int) uint64 { return uint64(C.gompi_shm_ncalls[k]) }
}

// putString copies s into the user's buffer of *n bytes (NUL included) and
// sets *n to the length s needs; either pointer may be NULL.
func putString(s string, buf *C.char, n *C.int) {
	if n == nil {
		return
	}
	if buf != nil && *n > 0 {
		k := min(len(s), int(*n)-1)
		b := unsafe.Slice((*byte)(unsafe.Pointer(buf)), k+1)
		copy(b, s[:k])
		b[k] = 0
	}
	*n = C.int(len(s) + 1)
}

func setInt(p *C.int, v int) {
	if p != nil {
		*p = C.int(v)
	}
}

func tReady() C.int {
	if !mpit.Active() {
		return abi.TErrNotInitialized
	}
	return 0
}

//export gompi_T_init_thread
func gompi_T_init_thread(required C.int, provided *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	// Checked before initializing: a failed call must not count as an init.
	if provided == nil {
		return abi.TErrInvalid
	}
	p := mpit.Init(int(required))
	// Every MPI_T entry takes the MULTIPLE lock once MPI runs at MULTIPLE,
	// so MPI_T is then as thread-safe as the rest (before that, the lock is
	// off and MPI_T stays at SERIALIZED).
	if int(required) >= abi.ThreadMultiple && mtlock.On {
		p = abi.ThreadMultiple
	}
	setInt(provided, p)
	return 0
}

//export gompi_T_finalize
func gompi_T_finalize() C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return C.int(mpit.Finalize())
}

//export gompi_T_get_num
func gompi_T_get_num(what C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if out == nil {
		return abi.TErrInvalid
	}
	*out = C.int([...]int{mpit.NumCvars(), mpit.NumPvars(), mpit.NumCategories(), mpit.Stamp()}[what])
	return 0
}

//export gompi_T_get_index
func gompi_T_get_index(what C.int, name *C.char, class C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if name == nil || out == nil {
		return abi.TErrInvalid
	}
	s := C.GoString(name)
	i := -1
	switch what {
	case 0:
		i = mpit.CvarIndex(s)
	case 1:
		i = mpit.PvarIndex(s, int(class))
	default:
		i = mpit.CategoryIndex(s)
	}
	if i < 0 {
		return abi.TErrInvalidName
	}
	*out = C.int(i)
	return 0
}

func enumHandle(e *mpit.Enum) C.uintptr_t { return C.uintptr_t(mpit.EnumID(e)) }

//export gompi_T_enum_get_info
func gompi_T_enum_get_info(h C.uintptr_t, num *C.int, name *C.char, nameLen *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	e := mpit.EnumAt(int(h))
	if e == nil {
		return abi.TErrInvalidHandle
	}
	setInt(num, len(e.Items))
	putString(e.Name, name, nameLen)
	return 0
}

//export gompi_T_enum_get_item
func gompi_T_enum_get_item(h C.uintptr_t, i C.int, value *C.int, name *C.char, nameLen *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	e := mpit.EnumAt(int(h))
	if e == nil {
		return abi.TErrInvalidHandle
	}
	if i < 0 || int(i) >= len(e.Items) {
		return abi.TErrInvalidItem
	}
	setInt(value, int(i))
	putString(e.Items[i], name, nameLen)
	return 0
}

//export gompi_T_cvar_get_info
func gompi_T_cvar_get_info(i C.int, name *C.char, nameLen, verbosity, dt *C.int, enumOut *C.uintptr_t, desc *C.char, descLen, bind, scope *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	v := mpit.CvarAt(int(i))
	if v == nil {
		return abi.TErrInvalidIndex
	}
	putString(v.Name, name, nameLen)
	setInt(verbosity, v.Verbosity)
	t := abi.Int
	if v.Str {
		t = abi.Char
	}
	setInt(dt, int(t))
	if enumOut != nil {
		*enumOut = enumHandle(v.Enum)
	}
	putString(v.Desc, desc, descLen)
	setInt(bind, abi.TBindNoObject)
	setInt(scope, v.Scope)
	return 0
}

// cvarLen is the element count of a cvar handle: 1 int, or the bytes a
// string may need.
const cvarStrLen = 4096

//export gompi_T_cvar_handle_alloc
func gompi_T_cvar_handle_alloc(i C.int, h *C.uintptr_t, count *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if h == nil || count == nil {
		return abi.TErrInvalid
	}
	id, rc := mpit.AllocCvarHandle(int(i))
	if rc != 0 {
		return C.int(rc)
	}
	*h = C.uintptr_t(id)
	n := 1
	if mpit.CvarAt(int(i)).Str {
		n = cvarStrLen
	}
	setInt(count, n)
	return 0
}

//export gompi_T_cvar_handle_free
func gompi_T_cvar_handle_free(h *C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if h == nil { // no handle to free: a bad argument
		return abi.TErrInvalid
	}
	if rc := mpit.FreeCvarHandle(int(*h)); rc != 0 {
		return C.int(rc)
	}
	*h = 0
	return 0
}

// cvarBuf checks what MPI_T_cvar_read and MPI_T_cvar_write share: the
// interface is ready, h is a live handle and buf is not NULL.
func cvarBuf(h C.uintptr_t, buf unsafe.Pointer) (*mpit.Cvar, C.int) {
	if rc := tReady(); rc != 0 {
		return nil, rc
	}
	v := mpit.CvarHandleAt(int(h))
	if v == nil {
		return nil, abi.TErrInvalidHandle
	}
	if buf == nil {
		return nil, abi.TErrInvalid
	}
	return v, 0
}

//export gompi_T_cvar_read
func gompi_T_cvar_read(h C.uintptr_t, buf unsafe.Pointer) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	v, rc := cvarBuf(h, buf)
	if rc != 0 {
		return rc
	}
	if v.Str {
		s := v.ReadString()
		n := C.int(cvarStrLen)
		putString(s, (*C.char)(buf), &n)
		return 0
	}
	*(*C.int)(buf) = C.int(v.ReadInt())
	return 0
}

//export gompi_T_cvar_write
func gompi_T_cvar_write(h C.uintptr_t, buf unsafe.Pointer) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	v, rc := cvarBuf(h, buf)
	if rc != 0 {
		return rc
	}
	if v.Str {
		return C.int(v.WriteString(C.GoString((*C.char)(buf))))
	}
	return C.int(v.WriteInt(int(*(*C.int)(buf))))
}

//export gompi_T_pvar_get_info
func gompi_T_pvar_get_info(i C.int, name *C.char, nameLen, verbosity, class, dt *C.int, enumOut *C.uintptr_t, desc *C.char, descLen, bind, readonly, continuous, atomic *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	v := mpit.PvarAt(int(i))
	if v == nil {
		return abi.TErrInvalidIndex
	}
	putString(v.Name, name, nameLen)
	setInt(verbosity, v.Verbosity)
	setInt(class, v.Class)
	t := abi.UnsignedLongLong
	if v.Double() {
		t = abi.Double
	}
	setInt(dt, int(t))
	if enumOut != nil {
		*enumOut = 0
	}
	putString(v.Desc, desc, descLen)
	setInt(bind, abi.TBindNoObject)
	b := func(x bool) int {
		if x {
			return 1
		}
		return 0
	}
	setInt(readonly, b(v.Readonly()))
	setInt(continuous, b(v.Continuous()))
	setInt(atomic, 0)
	return 0
}

//export gompi_T_pvar_session
func gompi_T_pvar_session(free C.int, s *C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if s == nil {
		// No session to create or free: a bad argument, not a bad session.
		return abi.TErrInvalid
	}
	if free == 0 {
		*s = C.uintptr_t(mpit.NewSession())
		return 0
	}
	if rc := mpit.FreeSession(int(*s)); rc != 0 {
		return C.int(rc)
	}
	*s = 0
	return 0
}

//export gompi_T_pvar_handle_alloc
func gompi_T_pvar_handle_alloc(s C.uintptr_t, i C.int, h *C.uintptr_t, count *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if h == nil || count == nil {
		return abi.TErrInvalid
	}
	id, rc := mpit.AllocHandle(int(s), int(i))
	if rc != 0 {
		return C.int(rc)
	}
	*h = C.uintptr_t(id)
	setInt(count, 1)
	return 0
}

//export gompi_T_pvar_handle_free
func gompi_T_pvar_handle_free(s C.uintptr_t, h *C.uintptr_t) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	if h == nil { // no handle to free: a bad argument
		return abi.TErrInvalid
	}
	if rc := mpit.FreeHandle(int(s), int(*h)); rc != 0 {
		return C.int(rc)
	}
	*h = 0
	return 0
}

const (
	pvStart = iota
	pvStop
	pvReset
	pvRead
	pvWrite
	pvReadReset
)

//export gompi_T_pvar_op
func gompi_T_pvar_op(op C.int, s, h C.uintptr_t, buf unsafe.Pointer) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	switch op {
	case pvStart:
		return C.int(mpit.Start(int(s), int(h)))
	case pvStop:
		return C.int(mpit.Stop(int(s), int(h)))
	case pvReset:
		return C.int(mpit.Reset(int(s), int(h)))
	}
	if mpit.SessionAt(int(s)) == nil {
		return abi.TErrInvalidSession
	}
	if h == mpit.AllHandles {
		return abi.TErrInvalidHandle // read and write take one handle
	}
	hd, rc := mpit.HandleAt(int(s), int(h))
	if hd == nil {
		return C.int(rc)
	}
	if buf == nil {
		return abi.TErrInvalid
	}
	dbl := hd.Pvar().Double()
	if op == pvWrite {
		if dbl {
			return C.int(hd.Write(uint64(*(*float64)(buf) * 1e9)))
		}
		return C.int(hd.Write(*(*uint64)(buf)))
	}
	if op == pvReadReset && hd.Pvar().Readonly() {
		return abi.TErrPvarNoWrite
	}
	x := hd.Value()
	if dbl {
		*(*float64)(buf) = float64(x) / 1e9
	} else {
		*(*uint64)(buf) = x
	}
	if op == pvReadReset {
		return C.int(mpit.Reset(int(s), int(h)))
	}
	return 0
}

//export gompi_T_category_get_info
func gompi_T_category_get_info(i C.int, name *C.char, nameLen *C.int, desc *C.char, descLen, ncv, npv, ncat *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	c := mpit.CategoryAt(int(i))
	if c == nil {
		return abi.TErrInvalidIndex
	}
	putString(c.Name, name, nameLen)
	putString(c.Desc, desc, descLen)
	setInt(ncv, len(c.Cvars))
	setInt(npv, len(c.Pvars))
	setInt(ncat, len(c.Cats))
	return 0
}

//export gompi_T_category_list
func gompi_T_category_list(what, i, n C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	c := mpit.CategoryAt(int(i))
	if c == nil {
		return abi.TErrInvalidIndex
	}
	if n < 0 || n > 0 && out == nil {
		return abi.TErrInvalid
	}
	l := [...][]int{c.Cvars, c.Pvars, c.Cats, c.Events}[what]
	dst := unsafe.Slice(out, int(n))
	for k := 0; k < int(n) && k < len(l); k++ {
		dst[k] = C.int(l[k])
	}
	return 0
}

//export gompi_T_category_num_events
func gompi_T_category_num_events(i C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if rc := tReady(); rc != 0 {
		return rc
	}
	c := mpit.CategoryAt(int(i))
	if c == nil {
		return abi.TErrInvalidIndex
	}
	if out == nil {
		return abi.TErrInvalid
	}
	*out = C.int(len(c.Events))
	return 0
}
