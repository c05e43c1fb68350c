package mpi

import (
	"unsafe"

	"golang.org/x/sys/unix"

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
