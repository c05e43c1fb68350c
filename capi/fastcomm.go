package main

/*
#include <stdlib.h>
#include "fastpath.h"
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/mpi"
	"gompi/pml"
)

// The C fast path serves every intracommunicator (mpi/fastcomm.go): each
// one's pml sequence numbers, matching counter and rank map live in one C
// block, laid out as fastMem says, and gompi_fast_comms finds it by its
// handle (gompi_fast_comm_index; a communicator whose entry another one
// holds stays on the Go path).
var fastComms = mpi.FastComms{Alloc: fastCommAlloc, Publish: fastCommPublish, Unpublish: fastCommUnpublish,
	Free: func(mem unsafe.Pointer) { C.free(mem) }}

// fastMem: pml.Shared (8 bytes), then n sequence pairs, then n world ranks.
func fastMemSeq(mem unsafe.Pointer) unsafe.Pointer          { return unsafe.Add(mem, 8) }
func fastMemWorld(mem unsafe.Pointer, n int) unsafe.Pointer { return unsafe.Add(mem, 8+4*n) }

func fastCommAlloc(n int) ([]pml.SeqPair, *pml.Shared, unsafe.Pointer) {
	mem := C.calloc(C.size_t(8+8*n), 1)
	if mem == nil {
		return nil, nil, nil
	}
	return unsafe.Slice((*pml.SeqPair)(fastMemSeq(mem)), n), (*pml.Shared)(mem), mem
}

func fastCommPublish(h int32, ctx uint32, rank int, world []int, mem unsafe.Pointer) {
	e := &C.gompi_fast_comms[C.gompi_fast_comm_index(C.MPI_Comm(h))]
	if e.size != 0 {
		return // the slot serves another communicator: this one stays on the Go path
	}
	n := len(world)
	wr := unsafe.Slice((*C.int32_t)(fastMemWorld(mem, n)), n)
	for i, w := range world {
		wr[i] = C.int32_t(w)
	}
	*e = C.gompi_fcomm{handle: C.MPI_Comm(h), ctx: C.uint32_t(ctx), rank: C.int32_t(rank), size: C.int32_t(n),
		world: &wr[0], seq: (*C.gompi_seqpair)(fastMemSeq(mem)), busy: (*C.int32_t)(mem)}
}

func fastCommUnpublish(h int32) {
	e := &C.gompi_fast_comms[C.gompi_fast_comm_index(C.MPI_Comm(h))]
	if e.handle == C.MPI_Comm(h) {
		*e = C.gompi_fcomm{}
	}
}

// publishWorld enters MPI_COMM_WORLD, whose state the runtime keeps in its
// own anonymous mapping (mpi/fast.go).
func publishWorld(f *mpi.FastInfo) {
	n := len(f.Peers)
	wr := unsafe.Slice((*C.int32_t)(C.calloc(C.size_t(n), 4)), n)
	for i := range wr {
		wr[i] = C.int32_t(i)
	}
	C.gompi_fast_comms[C.gompi_fast_comm_index(C.MPI_Comm(abi.CommWorld))] = C.gompi_fcomm{handle: C.MPI_Comm(abi.CommWorld),
		ctx: 0, rank: C.int32_t(mpi.CommFromHandle(abi.CommWorld).Rank()), size: C.int32_t(n), world: &wr[0],
		seq: (*C.gompi_seqpair)(f.Seq), busy: (*C.int32_t)(unsafe.Pointer(f.Busy))}
}
