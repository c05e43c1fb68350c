package main

/*
#include <stdlib.h>
#include "fastpath.h"
#include "shmcoll.h"
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
	"gompi/shmcoll"
)

// The C shared-memory collectives (shmcoll.h) serve MPI_COMM_WORLD (the
// gompi_shm struct) and every other intracommunicator with a collective
// area (a struct each, in gompi_shm_comms). Both sides count a group's
// calls in one C word, so C and Go calls may follow each other on one
// communicator. At MPI_THREAD_MULTIPLE the C calls take no lock (each
// communicator's group is its own): threads on different communicators run
// their collectives in parallel.
var shmComms = mpi.ShmComms{Publish: shmPublish, Unpublish: shmUnpublish}

// enableShmColl hands MPI_COMM_WORLD's shared-memory collective group to
// the C side, and lets every communicator made later publish its own.
func enableShmColl() {
	if mtlock.On {
		C.gompi_shm_mt = 1
	}
	mpi.SetShmComms(&shmComms)
	g := mpi.WorldShm()
	if g == nil {
		return
	}
	shmFill(&C.gompi_shm, abi.CommWorld, g, mpi.WorldShmLimits())
	C.gompi_shm_note_cpu(&C.gompi_shm) // a first hint before the first call
	C.gompi_shm.enabled = 1
}

// shmFill describes g (the group of communicator h, whose calls of each
// kind run through shared memory up to limits) in d, in C memory, and moves
// the group's call counter there.
func shmFill(d *C.struct_gompi_shm, h int32, g *shmcoll.Group, limits [7]int) {
	l := g.Layout()
	n := len(l.Locals)
	cl := unsafe.Slice((*C.int)(C.calloc(C.size_t(n), C.sizeof_int)), n)
	cb := unsafe.Slice((*C.uint64_t)(C.calloc(C.size_t(n), 8)), n)
	for i := range l.Locals {
		cl[i], cb[i] = C.int(l.Locals[i]), C.uint64_t(l.Bases[i])
	}
	seq := (*C.uint64_t)(C.calloc(1, 8))
	g.ShareSeq((*uint64)(unsafe.Pointer(seq)))
	*d = C.struct_gompi_shm{handle: C.MPI_Comm(h), size: C.int(n), me: C.int(l.Me), nlocal: C.int(l.NLocal),
		slot: C.int(l.Slot), polls: C.int(mpi.ShmPolls()), yields: C.int(shmYields()), spin_max: C.int(mpi.ShmSpinMax()),
		base: (*C.char)(l.Base), bigbase: (*C.char)(l.BigBase), big: C.int(l.Big), locals: &cl[0], bases: &cb[0], seq: seq}
	d.allreduce_blocks = C.int64_t(l.AllreduceBlocks)
	for i, v := range limits {
		d.max[i] = C.int64_t(v)
	}
	if mtlock.On {
		_, _, rel, _ := mtlock.Words()
		d.mt, d.released = 1, (*C.int32_t)(unsafe.Pointer(rel))
	}
}

// shmPublish gives a new communicator's group its C struct, unless its
// entry serves another communicator (it then stays in Go).
func shmPublish(h int32, g *shmcoll.Group, limits [7]int) {
	e := &C.gompi_shm_comms[C.gompi_shm_comm_index(C.MPI_Comm(h))]
	if *e != nil {
		return
	}
	d := (*C.struct_gompi_shm)(C.calloc(1, C.sizeof_struct_gompi_shm))
	shmFill(d, h, g, limits)
	C.gompi_shm_note_cpu(d)
	d.enabled = 1
	*e = d
}

// shmUnpublish takes the group back at MPI_Comm_free: its call counter
// returns to Go memory (the fence and the drain still count) and the C
// struct is freed (no C call runs on a communicator being freed).
func shmUnpublish(h int32, g *shmcoll.Group) {
	e := &C.gompi_shm_comms[C.gompi_shm_comm_index(C.MPI_Comm(h))]
	d := *e
	if d == nil || d.handle != C.MPI_Comm(h) {
		return
	}
	*e = nil
	g.ShareSeq(new(uint64))
	C.free(unsafe.Pointer(d.locals))
	C.free(unsafe.Pointer(d.bases))
	C.free(unsafe.Pointer(d.seq))
	C.free(unsafe.Pointer(d))
}

// gompi_shm_wait finishes a long wait of the C shared-memory collectives in
// Go: rank r (every rank when r < 0) of communicator h arriving at call s.
// At MULTIPLE the C side holds nothing when it calls this (shmcoll.h).
//
//export gompi_shm_wait
func gompi_shm_wait(h C.MPI_Comm, r C.int, s C.uint64_t) {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if g := mpi.CommShm(int32(h)); g != nil {
		g.WaitArrived(int(r), uint64(s))
	}
}

// shmYields is how many times a C shared-memory collective gives the core
// away before it hands the wait to Go: oversubscribed, a crossing and Go's
// progress pass per yield made small synchronizing collectives of 4 ranks on
// 2 cores cost 3.1-4.6 us; yielding in C, 2.0-2.7 (16 to 256 yields alike).
// At MULTIPLE likewise: a wait in Go takes the process lock at every poll,
// where threads of other communicators would queue behind it.
func shmYields() int {
	if mpi.ShmPolls() > 1 && !mtlock.On {
		return 0
	}
	return 64
}
