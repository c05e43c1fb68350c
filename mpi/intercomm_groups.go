package mpi

import (
	"fmt"
	"hash/fnv"
	"slices"

	"gompi/abi"
	"gompi/group"
	"gompi/info"
)

// IntercommFromGroups makes an intercommunicator between two disjoint
// groups, called by every member of both with the same string tag
// (MPI_Intercomm_create_from_groups). There is no parent: as in
// CreateFromGroup the members of both groups agree on the context slots
// over the world's collective context, ordered by world rank, on a tag
// hashed from the string tag. The leaders only have to be valid ranks:
// the agreement takes no leader.
func IntercommFromGroups(lgr *group.Group, localLeader int, rgr *group.Group, remoteLeader int,
	tag string, in *info.Info, eh *Errhandler) (*Comm, error) {
	const call = "MPI_Intercomm_create_from_groups"
	if eh == nil {
		eh = ErrorsAreFatal
	}
	local, remote := lgr.WorldRanks(), rgr.WorldRanks()
	me := slices.Index(local, st.rank)
	if me < 0 {
		return nil, RaiseWith(eh, abi.ErrGroup, call, "the calling process is not in the local group")
	}
	if localLeader < 0 || localLeader >= len(local) {
		return nil, RaiseWith(eh, abi.ErrRank, call, fmt.Sprintf("local leader %d is not in [0, %d)", localLeader, len(local)))
	}
	if remoteLeader < 0 || remoteLeader >= len(remote) {
		return nil, RaiseWith(eh, abi.ErrRank, call, fmt.Sprintf("remote leader %d is not in [0, %d)", remoteLeader, len(remote)))
	}
	all := append(slices.Clone(local), remote...)
	slices.Sort(all)
	for i, w := range all {
		if i > 0 && all[i-1] == w {
			return nil, RaiseWith(eh, abi.ErrGroup, call, "the local and remote groups overlap")
		}
		if w < 0 || w >= st.size {
			return nil, RaiseWith(eh, abi.ErrGroup, call, "a member is not a process of MPI_COMM_WORLD (processes of other jobs are not supported here)")
		}
	}
	h := fnv.New32a()
	h.Write([]byte(tag))
	v := &xview{pc: st.world.cc, ranks: all, me: slices.Index(all, st.rank),
		tag: tagGroupBase - 5<<20 - int(h.Sum32()%(1<<20))}
	s, e := st.world.agreeSlots(call, v, 2)
	if e != nil {
		return nil, RaiseWith(eh, e.Class, call, e.Detail)
	}
	c := newInter(s, local, me, remote, nil)
	c.errh = eh
	c.session = psetGroups[lgr]
	if in != nil {
		c.info = in.Dup()
	}
	return c, nil
}
