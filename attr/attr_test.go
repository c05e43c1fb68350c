package attr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/abi"
)

type log struct{ events []string }

func (l *log) add(s string) { l.events = append(l.events, s) }

func name(v uintptr) string { return string(rune('a' + v)) }

func recorder(l *log, copyRC, delRC *int) (CopyFn, DeleteFn) {
	cp := func(obj, kv int32, extra, val uintptr) (uintptr, bool, int) {
		l.add("copy " + name(val))
		if *copyRC != 0 {
			return 0, false, *copyRC
		}
		return val + 10, true, 0
	}
	del := func(obj, kv int32, extra, val uintptr) int {
		l.add("delete " + name(val))
		return *delRC
	}
	return cp, del
}

func TestKeyvalHandles(t *testing.T) {
	before := LiveKeyvals()
	k := NewKeyval(Comm, nil, nil, 7)
	assert.Equal(t, uint32(abi.KindDirect), abi.HandleKind(k.Handle))
	assert.Equal(t, uint32(abi.ObjKeyval), abi.HandleObj(k.Handle))
	assert.Same(t, k, Lookup(k.Handle))
	w := NewKeyval(Win, nil, nil, 0)
	assert.NotEqual(t, k.Handle, w.Handle)
	assert.Nil(t, Lookup(abi.KeyvalInvalid))
	assert.Nil(t, Lookup(abi.AttrTagUB))
	k.Free()
	w.Free()
	assert.Nil(t, Lookup(k.Handle))
	assert.Equal(t, before, LiveKeyvals())
}

func TestSetGetDelete(t *testing.T) {
	var l log
	var crc, drc int
	cp, del := recorder(&l, &crc, &drc)
	k := NewKeyval(Comm, cp, del, 0)
	var s Store
	_, ok := s.Get(k)
	assert.False(t, ok)
	require.Zero(t, s.Set(1, k, 0))
	v, ok := s.Get(k)
	assert.True(t, ok)
	assert.Equal(t, uintptr(0), v)
	// Overwriting deletes the old value first.
	require.Zero(t, s.Set(1, k, 1))
	assert.Equal(t, []string{"delete a"}, l.events)
	// A failing delete keeps the old value.
	drc = 42
	assert.Equal(t, 42, s.Set(1, k, 2))
	v, _ = s.Get(k)
	assert.Equal(t, uintptr(1), v)
	assert.Equal(t, 42, s.Delete(1, k))
	assert.Equal(t, 1, s.Len())
	drc = 0
	require.Zero(t, s.Delete(1, k))
	assert.Equal(t, 0, s.Len())
	require.Zero(t, s.Delete(1, k)) // not set: nothing happens
	assert.Equal(t, []string{"delete a", "delete b", "delete b", "delete b"}, l.events)
	k.Free()
}

func TestKeyvalOutlivesUserHandle(t *testing.T) {
	var l log
	var crc, drc int
	cp, del := recorder(&l, &crc, &drc)
	k := NewKeyval(Comm, cp, del, 0)
	var s Store
	require.Zero(t, s.Set(1, k, 3))
	k.Free()
	assert.True(t, k.Freed())
	assert.Same(t, k, Lookup(k.Handle), "in use: still resolvable")
	require.Zero(t, s.DeleteAll(1))
	assert.Equal(t, []string{"delete d"}, l.events)
	assert.Nil(t, Lookup(k.Handle))
}

func TestCopyAndDeleteOrder(t *testing.T) {
	var l log
	var crc, drc int
	cp, del := recorder(&l, &crc, &drc)
	k1 := NewKeyval(Comm, cp, del, 0)
	k2 := NewKeyval(Comm, nil, del, 0) // NULL_COPY_FN: not copied
	k3 := NewKeyval(Comm, cp, del, 0)
	var s, d Store
	require.Zero(t, s.Set(1, k1, 0))
	require.Zero(t, s.Set(1, k2, 1))
	require.Zero(t, s.Set(1, k3, 2))
	require.Zero(t, s.CopyTo(1, &d, 2))
	assert.Equal(t, []string{"copy a", "copy c"}, l.events)
	assert.Equal(t, 2, d.Len())
	v, _ := d.Get(k3)
	assert.Equal(t, uintptr(12), v)
	_, ok := d.Get(k2)
	assert.False(t, ok)

	l.events = nil
	require.Zero(t, s.DeleteAll(1))
	assert.Equal(t, []string{"delete c", "delete b", "delete a"}, l.events, "last set, first deleted")

	// A failing copy undoes the copies already made.
	l.events = nil
	var e Store
	require.Zero(t, d.Set(2, k2, 5))
	crc = 0
	calls := 0
	k1.Copy = func(obj, kv int32, extra, val uintptr) (uintptr, bool, int) {
		calls++
		return val, true, 0
	}
	k3.Copy = func(obj, kv int32, extra, val uintptr) (uintptr, bool, int) { return 0, false, 77 }
	assert.Equal(t, 77, d.CopyTo(2, &e, 3))
	assert.Equal(t, 0, e.Len())
	assert.Equal(t, 1, calls)
	assert.Equal(t, []string{"delete k"}, l.events) // k1's copy (value 10) deleted from e

	// A failing delete stops DeleteAll and keeps the rest.
	l.events = nil
	drc = 9
	assert.Equal(t, 9, d.DeleteAll(2))
	assert.Equal(t, 3, d.Len())
	drc = 0
	require.Zero(t, d.DeleteAll(2))
	assert.Equal(t, 0, d.Len())
	k1.Free()
	k2.Free()
	k3.Free()
	assert.Nil(t, Lookup(k1.Handle))
}
