package mpi

import (
	"unsafe"

	"golang.org/x/sys/unix"

	"gompi/btl/ofi"
	"gompi/btl/sm"
	"gompi/pml"
)

// FastInfo is what the C fast path of the library needs: MPI_COMM_WORLD's
// sequence numbers and matching counter, the engine's pending flag and the
// shared-memory rings to every local peer. All of it lives outside the Go
// heap, so C may keep the pointers.
type FastInfo struct {
	Busy    *int32
	Pending *int32
	Seq     unsafe.Pointer // [size]pml.SeqPair
	Peers   []sm.FastPeer  // by world rank; Data nil when not reachable by sm
	GetFrom []int          // by world rank: the engine's single-copy size, 0 never
	// SharedFrom: by world rank, the size from which a send buffer in our
	// shared heap goes by single copy, 0 never.
	SharedFrom []int
	EagerLimit int
	// EagerRoom: a message big enough for single copy still goes eager
	// while no more than this many bytes are in flight on its ring.
	EagerRoom int
	Oversub   bool
	// SlowFrom and SlowPicos: btl/sm's slow-copy verdict (copyclock.go),
	// from which size and above which copy time per byte; 0 off.
	SlowFrom, SlowPicos int
	// TimeWaits is pml.TimeWaits (MPI_T's wait timer running): C waits
	// then hand over to the Go wait, which times them, at once.
	TimeWaits *bool
	// Net is the network endpoint (zero without one) and NetEager, by
	// world rank, the largest message the C fast path may send eagerly
	// through it (-1: the rank is not reached through the network).
	Net      ofi.FastNet
	NetEager []int
}

var fastInfo FastInfo

// worldShared allocates MPI_COMM_WORLD's sequence numbers and counters, plus
// the engine's pending flag, in anonymous memory.
func worldShared(size int) ([]pml.SeqPair, *pml.Shared, *int32, error) {
	need := 16 + 4*size
	mem, err := unix.Mmap(-1, 0, (need+4095)&^4095, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, nil, err
	}
	sh := (*pml.Shared)(unsafe.Pointer(&mem[0]))
	pending := (*int32)(unsafe.Pointer(&mem[8]))
	seq := unsafe.Slice((*pml.SeqPair)(unsafe.Pointer(&mem[16])), size)
	fastInfo.Busy = &sh.Busy
	fastInfo.Pending = pending
	fastInfo.Seq = unsafe.Pointer(&mem[16])
	return seq, sh, pending, nil
}

// Fast returns the fast-path description (valid after Init).
func Fast() *FastInfo { return &fastInfo }

func setupFast(oversub bool) {
	fastInfo.Peers = make([]sm.FastPeer, st.size)
	fastInfo.GetFrom = make([]int, st.size)
	fastInfo.SharedFrom = make([]int, st.size)
	fastInfo.Oversub = oversub
	fastInfo.TimeWaits = &pml.TimeWaits
	fastInfo.EagerRoom = eagerRoom()
	setupFastNet()
	if st.sm == nil {
		return
	}
	fastInfo.SlowFrom, fastInfo.SlowPicos = st.sm.SlowFrom(), st.sm.SlowCopyPicos()
	for _, r := range st.local {
		if r != st.rank {
			fastInfo.Peers[r] = st.sm.Fast(r)
			fastInfo.GetFrom[r] = st.eng.SingleCopyFrom(r)
			fastInfo.SharedFrom[r] = st.eng.SharedFrom(r)
			fastInfo.EagerLimit = st.eng.EagerLimit(r)
		}
	}
}

// SetForeignRecvs tells the engine about receives a C fast path queues on
// MPI_COMM_WORLD: while *count is nonzero, adopt must post them as Go
// requests before the engine matches anything.
func SetForeignRecvs(count *int32, adopt func()) { st.eng.SetForeign(count, adopt) }

// setupFastNet describes the network endpoint to the C fast path: every
// rank the engine routes through it, with the eager size the engine would
// use (below its fi_read size), at most 64 KiB as on shared memory.
func setupFastNet() {
	var t *ofiTransport
	for _, x := range transports {
		if o, ok := x.(*ofiTransport); ok {
			t = o
		}
	}
	if t == nil || t.m == nil || st.settings.str("GOMPI_FASTPATH_NET", "1") == "0" {
		return
	}
	fastInfo.NetEager = make([]int, st.size)
	any := false
	for r := 0; r < st.size; r++ {
		fastInfo.NetEager[r] = -1
		if !t.m.Reaches(r) {
			continue
		}
		n := min(st.eng.EagerLimit(r), 64<<10)
		if g := t.m.ReadFrom(r); g > 0 {
			n = min(n, g-1)
		}
		fastInfo.NetEager[r] = max(n, 0)
		any = true
	}
	if any {
		fastInfo.Net = t.m.Fast()
	}
}
