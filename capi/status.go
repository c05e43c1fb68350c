package main

/*
#include <stdint.h>
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/mpi"
)

// cStatus mirrors MPICH's MPI_Status.
type cStatus struct {
	countLo, countHiCancelled, source, tag, err int32
}

// Status pointers cross from C as integers: MPI_STATUS_IGNORE is (void *)1,
// and the Go runtime aborts when it finds such a value in a pointer slot of
// a stack it copies.
func statusIgnored(p C.uintptr_t) bool { return p <= 1 }

func cstatus(p C.uintptr_t) *cStatus {
	u := uintptr(p)
	return *(**cStatus)(unsafe.Pointer(&u))
}

// putStatus writes s (count in bytes) unless the caller passed MPI_STATUS_IGNORE.
func putStatus(p C.uintptr_t, s *mpi.Status) {
	if statusIgnored(p) {
		return
	}
	cs := cstatus(p)
	cs.countLo = int32(uint32(s.Count))
	c := int32(s.Count>>32) << 1
	if s.Cancelled {
		c |= 1
	}
	cs.countHiCancelled = c
	cs.source, cs.tag = int32(s.Source), int32(s.Tag)
}

// statusAt is element i of a C status array.
func statusAt(arr C.uintptr_t, i int) C.uintptr_t {
	if statusIgnored(arr) {
		return arr
	}
	return arr + C.uintptr_t(i*abi.StatusSize)
}

func setStatusError(p C.uintptr_t, code int) {
	if !statusIgnored(p) {
		cstatus(p).err = int32(code)
	}
}

var emptyStatus = mpi.Status{Source: abi.AnySource, Tag: abi.AnyTag}

// putEmpty writes the standard's empty status (MPI_ERROR included).
func putEmpty(p C.uintptr_t) {
	putStatus(p, &emptyStatus)
	setStatusError(p, 0)
}
