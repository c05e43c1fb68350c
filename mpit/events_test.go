package mpit

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"gompi/abi"
)

func TestEventLayoutAndRaise(t *testing.T) {
	require.Equal(t, int(NumEventTypes), NumEvents())
	e := EventAt(EvUnexpected)
	require.Equal(t, EvUnexpected, EventIndex(e.Name))
	require.Equal(t, -1, EventIndex("nope"))
	require.Nil(t, EventAt(NumEvents()))
	// int, int, MPI_COUNT: the count is 8-aligned after two ints.
	require.Equal(t, []Element{{abi.Int, 0, 4}, {abi.Int, 4, 4}, {abi.Count, 8, 8}}, e.Elems)
	require.Equal(t, 16, e.Bytes)
	c := CategoryAt(CategoryIndex("gompi_events"))
	require.Equal(t, []int{0, 1, 2}, c.Events)

	var got []byte
	var gotEv int
	old := Deliver
	defer func() { Deliver = old }()
	Deliver = func(ev int, data []byte, ts int64) { gotEv, got = ev, append([]byte(nil), data...) }
	RaiseUnexpected(3, -7, 1<<33)
	require.Equal(t, EvUnexpected, gotEv)
	require.Equal(t, uint32(3), binary.LittleEndian.Uint32(got[0:]))
	require.Equal(t, int32(-7), int32(binary.LittleEndian.Uint32(got[4:])))
	require.Equal(t, uint64(1<<33), binary.LittleEndian.Uint64(got[8:]))
	RaiseCommCreated(0x44000002, 4, 9)
	require.Equal(t, EvCommCreated, gotEv)
	require.Len(t, got, 12)
}
