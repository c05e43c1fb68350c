package main

/*
#include <stdlib.h>
#include "fastslot.h"
#include "shmcoll.h"
gompi_fpeer *gompi_fast_alloc(int size);
*/
import "C"

import (
	"os"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// enableFast hands the C fast path everything it needs, unless
// GOMPI_FASTPATH=0. At MPI_THREAD_MULTIPLE the point-to-point fast path
// runs under the MULTIPLE lock (syncFastMT); the shared-memory collectives
// run without it (capi/shmcoll.h, shmcomms.go).
func enableFast(level int) {
	for i := range C.gompi_builtin_sizes {
		C.gompi_builtin_sizes[i] = -1
	}
	for _, t := range datatype.PredefinedTypes() {
		if abi.HandleKind(t.Handle) == abi.KindBuiltin {
			C.gompi_builtin_sizes[t.Handle&0xff] = C.schar(t.Size)
		}
	}
	if os.Getenv("GOMPI_FASTPATH") == "0" {
		return
	}
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
		peers[i].getmin = C.uint64_t(f.GetFrom[i])
		peers[i].sharedmin = C.uint64_t(f.SharedFrom[i])
		peers[i].doorbell = (*C.uint32_t)(unsafe.Pointer(p.Doorbell))
		peers[i].out_slow = (*C.uint32_t)(unsafe.Pointer(p.OutSlow))
	}
	C.gompi_fast.size = C.int(len(f.Peers))
	C.gompi_fast.eager = C.int(min(f.EagerLimit, 1<<16))
	C.gompi_fast.big_room = C.uint64_t(f.EagerRoom)
	C.gompi_fast.slow_from, C.gompi_fast.slow_picos = C.uint64_t(f.SlowFrom), C.uint64_t(f.SlowPicos)
	C.gompi_fast.spin, C.gompi_fast.yield_after = 20000, 1<<30 // then Go waits, driving progress
	if f.Oversub {
		C.gompi_fast.spin, C.gompi_fast.yield_after = 2000, 20
		C.gompi_fast.shared_single = 1
	}
	enableFastNet(f)
	C.gompi_fast.pending = (*C.int32_t)(unsafe.Pointer(f.Pending))
	C.gompi_fast.timed = (*C._Bool)(unsafe.Pointer(f.TimeWaits))
	mpi.SetForeignRecvs((*int32)(unsafe.Pointer(&C.gompi_fast.posted)), adoptFast)
	publishWorld(f)
	mpi.SetFastComms(&fastComms)
	C.gompi_fast.enabled = 1
	syncFastMT()
}

// enableFastNet hands the fast path the network endpoint, so that small
// blocking messages to and from other nodes go without crossing into Go
// (unless GOMPI_FASTPATH_NET=0, see mpi/fast.go).
func enableFastNet(f *mpi.FastInfo) {
	if f.Net.G == nil {
		return
	}
	eager := unsafe.Slice((*C.int32_t)(C.malloc(C.size_t(4*len(f.NetEager)))), len(f.NetEager))
	for i, n := range f.NetEager {
		eager[i] = C.int32_t(n)
	}
	C.gompi_fast.net_eager = &eager[0]
	C.gompi_fast.net_send = (*[0]byte)(f.Net.Send)
	C.gompi_fast.net_peek = (*[0]byte)(f.Net.Peek)
	C.gompi_fast.net_pop = (*[0]byte)(f.Net.Pop)
	C.gompi_fast.net = (*C.gofi)(f.Net.G)
}

// syncFastMT puts the C fast path under the MULTIPLE lock, as its shared
// readers (capi/fastpath.h), when MULTIPLE is on. It is only ever granted when the runtime starts (grantThread), so
// enableFast's call is the only one needed.
func syncFastMT() {
	if !mtlock.On || C.gompi_fast.enabled == 0 || C.gompi_fast.mt != 0 {
		return
	}
	st, wait, rel, rd := mtlock.Words()
	C.gompi_fast.mt_state = (*C.int32_t)(unsafe.Pointer(st))
	C.gompi_fast.mt_waiters = (*C.int32_t)(unsafe.Pointer(wait))
	C.gompi_fast.mt_released = (*C.int32_t)(unsafe.Pointer(rel))
	C.gompi_fast.mt_readers = (*C.int32_t)(unsafe.Pointer(rd))
	first, stride, claimed := mtlock.Slots()
	C.gompi_fast.mt_slots = (*C.char)(unsafe.Pointer(first))
	C.gompi_fast.mt_stride = C.uintptr_t(stride)
	C.gompi_fast.mt_claimed = (*C.int32_t)(unsafe.Pointer(claimed))
	C.gompi_fast.mt_max = mtlock.MaxSlots
	C.gompi_fast.mt = 1
}

func disableFast() {
	C.gompi_fast.enabled = 0
	C.gompi_shm.enabled = 0
	mpi.SetFastComms(nil)
}

// fastSlot is the C fast path's receive slot behind handle h (see
// fastslot.h), nil for every other handle.
func fastSlot(h int32) *C.gompi_fslot {
	if uint32(h)&0xfff00000 != C.GOMPI_REQ_FAST0 {
		return nil
	}
	d := &C.gompi_fast_slots[uint32(h)&C.GOMPI_FAST_SLOT_MASK]
	if uint32(d.gen) != uint32(h)>>C.GOMPI_FAST_GEN_SHIFT&C.GOMPI_FAST_GEN_MASK {
		return nil // a stale copy of a handle whose slot was reused
	}
	return d
}

// slotStatus is the status the C fast path recorded in a finished slot.
func slotStatus(d *C.gompi_fslot) mpi.Status {
	return mpi.Status{Source: int(d.source), Tag: int(d.tag), Count: int(d.count)}
}

// slotRelease returns h's slot to the C free list.
func slotRelease(h int32) { C.gompi_fast_release(C.MPI_Request(h)) }

// adoptFast turns every receive queued by the C fast path into a Go request,
// source by source in posting order, so the engine matches them before
// anything posted later. The engine calls it before it matches anything.
func adoptFast() {
	f := &C.gompi_fast
	f.posted = 0
	qhead := unsafe.Slice(f.qhead, int(f.size))
	qtail := unsafe.Slice(f.qtail, int(f.size))
	for src := range qhead {
		for s := qhead[src]; s >= 0; {
			d := &C.gompi_fast_slots[s]
			s = d.next
			// The arguments passed the C checks and the communicator is
			// still published (MPI_Comm_free adopts first), so posting
			// cannot fail.
			comm := mpi.CommFromHandle(int32(d.comm.handle))
			r, _ := comm.Irecv(d.buf, int(d.ucount), mpi.TypeFromHandle(int32(d.dtype)), int(d.source), int(d.tag))
			d.goh = C.int32_t(mpi.RequestHandle(r))
			d.state = C.GOMPI_SLOT_ADOPTED
		}
		qhead[src], qtail[src] = -1, -1
	}
}
