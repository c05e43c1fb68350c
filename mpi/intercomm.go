package mpi

import (
	"encoding/binary"
	"slices"

	"gompi/abi"
	"gompi/pml"
)

// newInter builds an intercommunicator: slots[0] carries the traffic between
// the groups, slots[1] the local group's own intracommunicator (used by
// communicator management and collectives).
func newInter(slots []int, local []int, me int, remote []int, parent *Comm) *Comm {
	return newInterAt(0, slots, local, me, remote, parent)
}

// newInterAt is newInter under a handle taken earlier (0: a new one).
func newInterAt(h int32, slots []int, local []int, me int, remote []int, parent *Comm) *Comm {
	pc := pml.NewComm(uint32(2*slots[0]), me, remote)
	cc := pml.NewComm(uint32(2*slots[0]+1), me, remote)
	c := newComm(h, pc, cc, "")
	c.size, c.group, c.remote, c.inter = len(local), local, remote, true
	c.local = &Comm{pc: pml.NewComm(uint32(2*slots[1]), me, local), cc: pml.NewComm(uint32(2*slots[1]+1), me, local),
		rank: me, size: len(local), group: local, errh: ErrorsReturn, slots: slots[1:2], Handle: abi.CommNull}
	st.eng.Register(c.local.pc)
	st.eng.Register(c.local.cc)
	c.slots = slots[:1]
	if parent != nil {
		c.errh = parent.errh
	}
	registerComm(c)
	return c
}

func intsBytes(xs []int) []byte {
	b := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return b
}

func bytesInts(b []byte) []int {
	xs := make([]int, len(b)/8)
	for i := range xs {
		xs[i] = int(int64(binary.LittleEndian.Uint64(b[8*i:])))
	}
	return xs
}

// IntercommCreate joins the group of local with a disjoint group reached
// through peer (MPI_Intercomm_create). The leaders talk over peer with tag.
func IntercommCreate(local *Comm, localLeader int, peer *Comm, remoteLeader, tag int) (*Comm, error) {
	const call = "MPI_Intercomm_create"
	if local.inter {
		return nil, local.raise(errf(abi.ErrComm, call, "the local communicator is an intercommunicator"))
	}
	if localLeader < 0 || localLeader >= local.size {
		return nil, local.raise(errf(abi.ErrRank, call, "local leader %d is not in [0, %d)", localLeader, local.size))
	}
	if tag < 0 || tag > abi.TagUB {
		return nil, local.raise(errf(abi.ErrTag, call, "tag %d is not in [0, MPI_TAG_UB]", tag))
	}
	v := viewOf(local)
	if len(retiring) > 0 {
		sweepRetiring()
	}
	m := ctxSnapshot()
	defer ctxClaim(&m)() // other threads' agreements must not offer these
	v.allreduceMask(&m)
	// The leader learns the remote group and mask; then everyone gets
	// [slot0, slot1, remote world ranks...].
	var info []int
	var leaderErr *Error
	if local.rank == localLeader {
		info, leaderErr = interLeader(local, &m, peer, remoteLeader, tag)
	}
	n := []int{len(info)}
	v.bcastInts(n, localLeader)
	if local.rank != localLeader {
		info = make([]int, n[0])
	}
	v.bcastInts(info, localLeader)
	switch info[0] {
	case -3:
		if leaderErr == nil {
			leaderErr = errf(abi.ErrComm, call, "the local leader (rank %d) rejected its peer communicator or remote leader", localLeader)
		}
		return nil, local.raise(leaderErr)
	case -1:
		return nil, local.raise(errf(abi.ErrComm, call, "the local and remote groups overlap"))
	case -2:
		return nil, local.raise(errf(abi.ErrOther, call, "no free context id left"))
	}
	ctxFree.clear(info[0])
	ctxFree.clear(info[1])
	return newInter(info[:2], local.group, local.rank, slices.Clone(info[2:]), local), nil
}

// interLeader is the local leader's part of IntercommCreate: swap mask and
// group with the remote leader and pick the slots. Errors go to the whole
// local group as negative codes so nobody waits for a leader that gave up.
func interLeader(local *Comm, m *ctxMask, peer *Comm, remoteLeader, tag int) ([]int, *Error) {
	const call = "MPI_Intercomm_create"
	if peer == nil {
		return []int{-3, -3}, errf(abi.ErrComm, call, "peer communicator is MPI_COMM_NULL at the local leader")
	}
	if remoteLeader < 0 || remoteLeader >= peer.PeerSize() {
		return []int{-3, -3}, errf(abi.ErrRank, call, "remote leader %d is not in [0, %d)", remoteLeader, peer.PeerSize())
	}
	btag := tagGroupBase - (1 << 21) - tag%(1<<20)
	out := append(maskBytes(m), intsBytes(local.group)...)
	var n [8]byte
	exchange(peer.cc, remoteLeader, btag, intsBytes([]int{len(out)}), n[:])
	in := make([]byte, bytesInts(n[:])[0])
	exchange(peer.cc, remoteLeader, btag, out, in)
	var other ctxMask
	copy(maskBytes(&other), in)
	m.and(&other)
	remote := bytesInts(in[len(maskBytes(&other)):])
	if slices.ContainsFunc(remote, func(w int) bool { return slices.Contains(local.group, w) }) {
		return []int{-1, -1}, nil // both leaders see the overlap, so both groups fail alike
	}
	if s := m.lowestN(2); len(s) == 2 {
		return append([]int{s[0], s[1]}, remote...), nil
	}
	return []int{-2, -2}, nil
}

// bcastInts broadcasts xs (same length everywhere) from member root.
func (v *xview) bcastInts(xs []int, root int) {
	b := intsBytes(xs)
	v.bcast(b, root)
	copy(xs, bytesInts(b))
}

// Merge makes an intracommunicator of both groups of an intercommunicator
// (MPI_Intercomm_merge); the group that passes high=true is ordered last.
func (c *Comm) Merge(high bool) (*Comm, error) {
	const call = "MPI_Intercomm_merge"
	if !c.inter {
		return nil, c.raise(errf(abi.ErrComm, call, "not an intercommunicator"))
	}
	v := viewOf(c)
	s, area, e := c.agreeIntra(call, v)
	if e != nil {
		return nil, c.raise(e)
	}
	h := []int{0}
	if high {
		h[0] = 1
	}
	v.bcastInts(h, 0) // the leader's choice speaks for the group
	if c.rank == 0 {
		in := make([]byte, 8)
		exchange(c.cc, 0, tagCommBridge, intsBytes(h), in)
		h = append(h, bytesInts(in)[0])
	} else {
		h = append(h, 0)
	}
	v.bcastInts(h, 0)
	a, b := procKey(c.group[0], c.remote[0])
	localFirst := h[0] < h[1] || (h[0] == h[1] && a < b)
	var group []int
	me := c.rank
	if localFirst {
		group = append(slices.Clone(c.group), c.remote...)
	} else {
		group = append(slices.Clone(c.remote), c.group...)
		me += len(c.remote)
	}
	return newIntra(s, group, me, c, area), nil
}
