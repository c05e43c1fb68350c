package main

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

func statusIgnored(p unsafe.Pointer) bool { return uintptr(p) <= 1 }

// putStatus writes s (count in bytes) unless the caller passed MPI_STATUS_IGNORE.
func putStatus(p unsafe.Pointer, s *mpi.Status) {
	if statusIgnored(p) {
		return
	}
	cs := (*cStatus)(p)
	cs.countLo = int32(uint32(s.Count))
	c := int32(s.Count>>32) << 1
	if s.Cancelled {
		c |= 1
	}
	cs.countHiCancelled = c
	cs.source, cs.tag = int32(s.Source), int32(s.Tag)
}

// statusAt is element i of a C status array.
func statusAt(arr unsafe.Pointer, i int) unsafe.Pointer {
	if statusIgnored(arr) {
		return arr
	}
	return unsafe.Add(arr, i*abi.StatusSize)
}

func setStatusError(p unsafe.Pointer, code int) {
	if !statusIgnored(p) {
		(*cStatus)(p).err = int32(code)
	}
}

var emptyStatus = mpi.Status{Source: abi.AnySource, Tag: abi.AnyTag}

// putEmpty writes the standard's empty status (MPI_ERROR included).
func putEmpty(p unsafe.Pointer) {
	putStatus(p, &emptyStatus)
	setStatusError(p, 0)
}
