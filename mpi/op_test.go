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

// TestOpCreateTyped: the typed wrapper hands the function slices of the
// right length, for the element type and for a contiguous type made of it.
func TestOpCreateTyped(t *testing.T) {
	o, err := OpCreateTyped(func(in, inout []float64) {
		for i := range inout {
			inout[i] = in[i] - inout[i]
		}
	}, false)
	require.NoError(t, err)
	require.False(t, o.Commute)
	require.Same(t, o, OpFromHandle(o.Handle))
	in, io := []float64{5, 7, 9, 11}, []float64{1, 2, 3, 4}
	o.Apply(unsafe.Pointer(&in[0]), unsafe.Pointer(&io[0]), 3, TypeOf[float64]())
	require.Equal(t, []float64{4, 5, 6, 4}, io)
	pair, err := datatype.Contiguous(2, TypeOf[float64]())
	require.NoError(t, err)
	pair.Commit()
	datatype.Register(pair) // as MPI_Type_contiguous does: the op sees its handle
	io = []float64{1, 2, 3, 4}
	o.Apply(unsafe.Pointer(&in[0]), unsafe.Pointer(&io[0]), 2, pair)
	require.Equal(t, []float64{4, 5, 6, 7}, io)
	require.NoError(t, OpFree(o))
	require.Nil(t, OpFromHandle(o.Handle))
}

func TestTypeOfNamedTypes(t *testing.T) {
	type celsius float64
	type id int32
	require.Equal(t, abi.Double, TypeOf[celsius]().Handle)
	require.Equal(t, abi.Int32, TypeOf[id]().Handle)
	require.Equal(t, abi.Int64, TypeOf[int]().Handle)
	require.Equal(t, abi.CFloatComplex, TypeOf[complex64]().Handle)
}
