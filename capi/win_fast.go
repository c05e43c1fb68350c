package main

/*
#include <stdlib.h>
#include "win_fast.h"
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
	"gompi/osc"
)

// winFastSlot is w's entry in the C fast-path table, nil when it has none:
// dynamic windows (addresses are checked against the region tables),
// windows some target of which is reached by single copy, and handle
// indices past the table.
func winFastSlot(w *mpi.Win) *C.gompi_winfast_t {
	i := abi.HandleIndex(w.Handle)
	if i >= C.GOMPI_WINFAST_MAX {
		return nil
	}
	return &C.gompi_winfast[i]
}

// winFastPublish gives a new window its C fast-path entry.
func winFastPublish(w *mpi.Win) {
	ow := w.Osc()
	s := winFastSlot(w)
	if s == nil || w.Flavor == abi.WinFlavorDynamic || mtlock.On {
		return // at MULTIPLE the Go path runs, under the lock
	}
	ts := ow.Targets
	for i := range ts {
		if ts[i].Path != osc.PathDirect {
			return
		}
	}
	n := len(ts)
	s.acc = (*C.uchar)(C.calloc(C.size_t(n), 1))
	s.base = (**C.char)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(uintptr(0)))))
	s.size = (*C.int64_t)(C.calloc(C.size_t(n), 8))
	s.du = (*C.int64_t)(C.calloc(C.size_t(n), 8))
	base := unsafe.Slice(s.base, n)
	size, du := unsafe.Slice(s.size, n), unsafe.Slice(s.du, n)
	for i := range ts {
		base[i] = (*C.char)(ts[i].Ptr)
		size[i], du[i] = C.int64_t(ts[i].Size), C.int64_t(ts[i].DispUnit)
	}
	s.atomics = 0
	if ow.Atomics {
		s.atomics = 1
	}
	s.n = C.int32_t(n)
	winFastSync(w)
}

// winFastSync republishes which targets are in an access epoch, after every
// synchronisation call.
func winFastSync(w *mpi.Win) {
	s := winFastSlot(w)
	if s == nil || s.n == 0 {
		return
	}
	acc := unsafe.Slice(s.acc, int(s.n))
	e := &w.Osc().Epoch
	for t := range acc {
		switch {
		case e.Passive(t):
			acc[t] = 2
		case e.CanAccess(t):
			acc[t] = 1
		default:
			acc[t] = 0
		}
	}
	s.passive = 0
	if e.Passive(-1) {
		s.passive = 1
	}
}

// winFastRetire removes a freed window's entry.
func winFastRetire(w *mpi.Win) {
	s := winFastSlot(w)
	if s == nil || s.n == 0 {
		return
	}
	s.n = 0
	C.free(unsafe.Pointer(s.acc))
	C.free(unsafe.Pointer(s.base))
	C.free(unsafe.Pointer(s.size))
	C.free(unsafe.Pointer(s.du))
	s.acc, s.base, s.size, s.du = nil, nil, nil, nil
}
