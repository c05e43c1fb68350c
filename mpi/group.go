package mpi

import (
	"gompi/abi"
	"gompi/group"
)

var groups objTable[group.Group]

// NewGroupHandle registers g and returns its C handle; an empty group is
// MPI_GROUP_EMPTY, as in MPICH.
func NewGroupHandle(g *group.Group) int32 {
	if g.Size() == 0 {
		return abi.GroupEmpty
	}
	return abi.MakeHandle(abi.KindDirect, abi.ObjGroup, uint32(groups.add(g)))
}

// GroupFromHandle resolves a group handle; nil for MPI_GROUP_NULL and for
// anything that is not a live group.
func GroupFromHandle(h int32) *group.Group {
	if h == abi.GroupEmpty {
		return group.Empty()
	}
	if abi.HandleKind(h) != abi.KindDirect || abi.HandleObj(h) != abi.ObjGroup {
		return nil
	}
	return groups.get(int(abi.HandleIndex(h)))
}

// FreeGroupHandle releases a group handle. Freeing MPI_GROUP_EMPTY is
// allowed (and does nothing), as MPICH allows it; anything else that is not
// a live group is MPI_ERR_GROUP. Communicators keep their own reference to
// the group, so freeing a handle never affects them.
func FreeGroupHandle(h int32) error {
	if h == abi.GroupEmpty {
		return nil
	}
	if GroupFromHandle(h) == nil {
		return &Error{Class: abi.ErrGroup, Call: "MPI_Group_free", Detail: "not a group"}
	}
	groups.remove(int(abi.HandleIndex(h)))
	return nil
}

// LiveGroups is the number of user group handles not yet freed.
func LiveGroups() int { return groups.live() }

// WorldGroup is the group of MPI_COMM_WORLD's processes.
func WorldGroup() *group.Group {
	if worldGroup == nil || worldGroup.Size() != st.size {
		worldGroup = group.Range(st.size)
	}
	return worldGroup
}

var worldGroup *group.Group
