package main

/*
#include <stdlib.h>
#include "fastpath.h"
#include "shmcoll.h"
gompi_fpeer *gompi_fast_alloc(int size);
void gompi_fast_done_init(void);
*/
import "C"

import (
	"os"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/mpi"
)

// enableFast hands the C fast path everything it needs, unless
// GOMPI_FASTPATH=0 or the thread level needs locking.
func enableFast(level int) {
	for i := range C.gompi_builtin_sizes {
		C.gompi_builtin_sizes[i] = -1
	}
	for _, t := range datatype.PredefinedTypes() {
		if abi.HandleKind(t.Handle) == abi.KindBuiltin {
			C.gompi_builtin_sizes[t.Handle&0xff] = C.schar(t.Size)
		}
	}
	if os.Getenv("GOMPI_FASTPATH") == "0" || level > abi.ThreadSerialized {
		return
	}
	C.gompi_fast_done_init()
	enableShmColl()
	f := mpi.Fast()
	peers := unsafe.Slice(C.gompi_fast_alloc(C.int(len(f.Peers))), len(f.Peers))
	for i, p := range f.Peers {
		if p.Out.Data == nil {
			continue
		}
		peers[i].out = C.gompi_ring{data: (*C.char)(p.Out.Data), size: C.uint64_t(p.Out.Size),
			tail: (*C.uint64_t)(unsafe.Pointer(p.Out.Tail)), st: (*C.gompi_ring_state)(unsafe.Pointer(p.Out.State))}
		peers[i].in = C.gompi_ring{data: (*C.char)(p.In.Data), size: C.uint64_t(p.In.Size),
			tail: (*C.uint64_t)(unsafe.Pointer(p.In.Tail)), st: (*C.gompi_ring_state)(unsafe.Pointer(p.In.State))}
		peers[i].sleeping = (*C.uint32_t)(unsafe.Pointer(p.Sleeping))
		peers[i].doorbell = (*C.uint32_t)(unsafe.Pointer(p.Doorbell))
	}
	C.gompi_fast.size = C.int(len(f.Peers))
	C.gompi_fast.eager = C.int(min(f.EagerLimit, 1<<16))
	C.gompi_fast.spin, C.gompi_fast.yield_after = 20000, 1<<30 // then Go waits, driving progress
	if f.Oversub {
		C.gompi_fast.spin, C.gompi_fast.yield_after = 2000, 20
	}
	C.gompi_fast.busy = (*C.int32_t)(unsafe.Pointer(f.Busy))
	C.gompi_fast.pending = (*C.int32_t)(unsafe.Pointer(f.Pending))
	C.gompi_fast.seq = (*C.gompi_seqpair)(f.Seq)
	C.gompi_fast.enabled = 1
}

func disableFast() {
	C.gompi_fast.enabled = 0
	C.gompi_shm.enabled = 0
}

// isRecvDone tells a receive finished by the C fast path inside MPI_Irecv.
func isRecvDone(h int32) bool {
	return uint32(h)&0xfff00000 == C.GOMPI_REQ_RECV_DONE0 && uint32(h)&0xfffff < C.GOMPI_FAST_DONE_MAX
}

// recvDoneStatus is the status the C fast path recorded for handle h.
func recvDoneStatus(h int32) mpi.Status {
	d := &C.gompi_fast_done[uint32(h)&0xfffff]
	return mpi.Status{Source: int(d.source), Tag: int(d.tag), Count: int(d.count)}
}

// recvDoneRelease returns h's slot to the C free list.
func recvDoneRelease(h int32) {
	slot := uint32(h) & 0xfffff
	C.gompi_fast_done[slot].next = C.gompi_fast_done_free
	C.gompi_fast_done_free = C.int32_t(slot)
}

// enableShmColl hands MPI_COMM_WORLD's shared-memory collective group to
// the C side, which then runs small collectives without entering Go. Both
// sides count calls in one C word.
func enableShmColl() {
	g := mpi.WorldShm()
	if g == nil {
		return
	}
	base, nlocal, slot, locals, bases, me := g.Layout()
	n := len(locals)
	cl := unsafe.Slice((*C.int)(C.calloc(C.size_t(n), C.sizeof_int)), n)
	cb := unsafe.Slice((*C.uint64_t)(C.calloc(C.size_t(n), 8)), n)
	for i := range locals {
		cl[i], cb[i] = C.int(locals[i]), C.uint64_t(bases[i])
	}
	seq := (*C.uint64_t)(C.calloc(1, 8))
	g.ShareSeq((*uint64)(unsafe.Pointer(seq)))
	C.gompi_shm = C.struct_gompi_shm{size: C.int(n), me: C.int(me), nlocal: C.int(nlocal), slot: C.int(slot),
		polls: C.int(mpi.ShmPolls()), base: (*C.char)(base), locals: &cl[0], bases: &cb[0], seq: seq}
	for i, ok := range mpi.ShmAllowed() {
		if ok {
			C.gompi_shm.allow[i] = 1
		}
	}
	C.gompi_shm.enabled = 1
}

// gompi_shm_wait finishes a long wait of the C shared-memory collectives in
// Go: rank r (every rank when r < 0) arriving at call s of MPI_COMM_WORLD.
//
//export gompi_shm_wait
func gompi_shm_wait(r C.int, s C.uint64_t) { mpi.WorldShm().WaitArrived(int(r), uint64(s)) }
