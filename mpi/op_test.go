package mpi

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"gompi/abi"
	"gompi/datatype"
	"gompi/op"
)

func TestCheckReduceLocal(t *testing.T) {
	dbl := datatype.Predefined(abi.Double)
	x, y := 1.0, 2.0
	px, py := unsafe.Pointer(&x), unsafe.Pointer(&y)
	inPlace := unsafe.Add(unsafe.Pointer(nil), -1)
	class := func(e *Error) int {
		if e == nil {
			return 0
		}
		return e.Class
	}
	require.Equal(t, 0, class(checkReduceLocal(px, py, 1, dbl, op.Sum)))
	require.Equal(t, abi.ErrOp, class(checkReduceLocal(px, py, 1, dbl, nil)))
	require.Equal(t, abi.ErrOp, class(checkReduceLocal(px, py, 1, dbl, op.Band)))
	require.Equal(t, abi.ErrCount, class(checkReduceLocal(px, py, -1, dbl, op.Sum)))
	require.Equal(t, abi.ErrType, class(checkReduceLocal(px, py, 1, nil, op.Sum)))
	require.Equal(t, abi.ErrType, class(checkReduceLocal(px, py, 1,
		&datatype.Type{Name: "uncommitted", Size: 8, Extent: 8, Base: dbl}, op.Sum)))
	require.Equal(t, abi.ErrBuffer, class(checkReduceLocal(nil, py, 1, dbl, op.Sum)))
	require.Equal(t, abi.ErrBuffer, class(checkReduceLocal(px, nil, 1, dbl, op.Sum)))
	require.Equal(t, abi.ErrBuffer, class(checkReduceLocal(px, px, 1, dbl, op.Sum)))
	require.Equal(t, abi.ErrBuffer, class(checkReduceLocal(inPlace, py, 1, dbl, op.Sum)))
	require.Equal(t, 0, class(checkReduceLocal(nil, nil, 0, dbl, op.Sum)), "count 0 needs no buffers")
}
