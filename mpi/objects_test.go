package mpi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/abi"
	"gompi/attr"
	"gompi/group"
	"gompi/info"
)

func TestUserErrorCodes(t *testing.T) {
	c1 := AddErrorClass()
	c2 := AddErrorClass()
	assert.Greater(t, c1, abi.ErrLastcode)
	assert.NotEqual(t, c1, c2)
	k1, err := AddErrorCode(c1)
	require.NoError(t, err)
	k2, err := AddErrorCode(abi.ErrTag)
	require.NoError(t, err)
	_, err = AddErrorCode(k1)
	assert.Equal(t, abi.ErrArg, err.(*Error).Class, "a code is not a class")
	_, err = AddErrorCode(-5)
	assert.Error(t, err)

	cl, ok := ErrorClass(k1)
	assert.True(t, ok)
	assert.Equal(t, c1, cl)
	cl, _ = ErrorClass(k2)
	assert.Equal(t, abi.ErrTag, cl)
	cl, _ = ErrorClass(c2)
	assert.Equal(t, c2, cl)
	_, ok = ErrorClass(0x7654321)
	assert.False(t, ok)

	s, ok := ErrorString(k1)
	assert.True(t, ok)
	assert.Equal(t, "", s)
	require.NoError(t, AddErrorString(k1, "boom"))
	s, _ = ErrorString(k1)
	assert.Equal(t, "boom", s)
	assert.Error(t, AddErrorString(abi.ErrTag, "no"))
	assert.Error(t, AddErrorString(k1, string(make([]byte, abi.MaxErrorString))))
	assert.GreaterOrEqual(t, LastUsedCode(), k2)
	assert.GreaterOrEqual(t, LastUsedCode(), c2)

	// A user code keeps its identity through Code and prints its text.
	e := &Error{Class: c1, Call: "MPI_X", ErrCode: k1}
	assert.Equal(t, k1, Code(e))
	assert.Contains(t, e.Error(), "boom")
	assert.Equal(t, abi.ErrRank, Code(errf(abi.ErrRank, "MPI_Y", "bad")))
}

func TestErrorStringNamesLastCall(t *testing.T) {
	s, _ := ErrorString(abi.ErrRoot)
	assert.Contains(t, s, "MPI_ERR_ROOT")
	raiseWith(ErrorsReturn, nil, errf(abi.ErrRoot, "MPI_Bcast", "root 7 is not in 0..3"))
	s, _ = ErrorString(abi.ErrRoot)
	assert.Contains(t, s, "MPI_Bcast")
	assert.Contains(t, s, "root 7")
	assert.Contains(t, s, "MPI_ERR_ROOT")
}

func TestErrhandlerReferences(t *testing.T) {
	n := LiveErrhandlers()
	calls := 0
	h := NewErrhandler(ErrhForComm, func(c *Comm, code int) { calls++ })
	assert.Same(t, h, ErrhandlerFromHandle(h.Handle))
	assert.Equal(t, h.Handle, h.GetHandle()) // a second reference
	FreeErrhandler(h)
	assert.Same(t, h, ErrhandlerFromHandle(h.Handle))
	FreeErrhandler(h)
	assert.Nil(t, ErrhandlerFromHandle(h.Handle))
	assert.Equal(t, n, LiveErrhandlers())
	// A communicator still using it can hand out a fresh handle.
	hd := h.GetHandle()
	assert.Same(t, h, ErrhandlerFromHandle(hd))
	FreeErrhandler(h)
	assert.Equal(t, n, LiveErrhandlers())

	raiseWith(h, nil, errf(abi.ErrTag, "MPI_Send", "bad tag"))
	assert.Equal(t, 1, calls)
	assert.Same(t, ErrorsReturn, ErrhandlerFromHandle(abi.ErrorsReturn))
	assert.Nil(t, ErrhandlerFromHandle(abi.ErrhandlerNull))
	FreeErrhandler(ErrorsReturn) // predefined: nothing happens
	assert.Same(t, ErrorsReturn, ErrhandlerFromHandle(abi.ErrorsReturn))
}

func TestInfoHandles(t *testing.T) {
	n := LiveInfos()
	in := info.New()
	h := NewInfoHandle(in)
	assert.Equal(t, uint32(abi.ObjInfo), abi.HandleObj(h))
	assert.Same(t, in, InfoFromHandle(h))
	assert.Nil(t, InfoFromHandle(abi.InfoNull))
	assert.NotNil(t, InfoFromHandle(abi.InfoEnv))
	require.NoError(t, FreeInfoHandle(h))
	assert.Nil(t, InfoFromHandle(h))
	assert.Error(t, FreeInfoHandle(h))
	assert.Error(t, FreeInfoHandle(abi.InfoEnv))
	assert.Equal(t, n, LiveInfos())
	_, ok := InfoEnv().Lookup("wdir")
	assert.True(t, ok)
}

func TestGroupHandles(t *testing.T) {
	n := LiveGroups()
	g := group.New([]int{2, 0})
	h := NewGroupHandle(g)
	assert.Equal(t, uint32(abi.ObjGroup), abi.HandleObj(h))
	assert.Same(t, g, GroupFromHandle(h))
	assert.Equal(t, abi.GroupEmpty, NewGroupHandle(group.Empty()))
	assert.Equal(t, 0, GroupFromHandle(abi.GroupEmpty).Size())
	assert.Nil(t, GroupFromHandle(abi.GroupNull))
	require.NoError(t, FreeGroupHandle(h))
	assert.Nil(t, GroupFromHandle(h))
	assert.Error(t, FreeGroupHandle(h))
	assert.NoError(t, FreeGroupHandle(abi.GroupEmpty))
	assert.Equal(t, n, LiveGroups())
}

func TestKeyvalArgs(t *testing.T) {
	k := CreateKeyval(attr.Comm, nil, nil, 0)
	got, e := KeyvalArg("MPI_Comm_get_attr", k.Handle, attr.Comm)
	assert.Nil(t, e)
	assert.Same(t, k, got)
	_, e = KeyvalArg("MPI_Type_get_attr", k.Handle, attr.Datatype)
	assert.Equal(t, abi.ErrKeyval, e.Class)
	got, e = KeyvalArg("MPI_Comm_get_attr", abi.AttrTagUB, attr.Comm)
	assert.Nil(t, e)
	assert.Nil(t, got, "predefined keyvals resolve to nil without error")
	_, e = KeyvalArg("MPI_Type_get_attr", abi.AttrTagUB, attr.Datatype)
	assert.Equal(t, abi.ErrKeyval, e.Class)
	_, e = KeyvalArg("MPI_Comm_get_attr", abi.KeyvalInvalid, attr.Comm)
	assert.Equal(t, abi.ErrKeyval, e.Class)
	assert.Equal(t, abi.ErrKeyval, FreeKeyval("MPI_Comm_free_keyval", abi.AttrTagUB, attr.Comm).Class)
	assert.Nil(t, FreeKeyval("MPI_Comm_free_keyval", k.Handle, attr.Comm))
	assert.NotNil(t, FreeKeyval("MPI_Comm_free_keyval", k.Handle, attr.Comm))

	v, ok := PredefinedAttr(abi.AttrTagUB)
	assert.True(t, ok)
	assert.Equal(t, abi.TagUB, v)
	v, _ = PredefinedAttr(abi.AttrIO)
	assert.Equal(t, abi.AnySource, v)

	e2 := callbackErr("MPI_Comm_dup", "copy", abi.ErrOther)
	assert.Equal(t, abi.ErrOther, e2.Class)
	e2 = callbackErr("MPI_Comm_dup", "copy", 0x7654321)
	assert.Equal(t, abi.ErrOther, e2.Class)
	assert.Equal(t, 0x7654321, Code(e2))
}
