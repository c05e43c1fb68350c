package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/op"
)

// Reduction operations for Go callers. Ops are *op.Op values: the predefined
// ones are op.Max, op.Sum, ... and user ops come from OpCreate.

// OpFromHandle resolves an op handle (nil when invalid or MPI_OP_NULL).
func OpFromHandle(h int32) *op.Op { return op.Lookup(h) }

// OpCreate registers a user reduction (MPI_Op_create). fn computes
// inout[i] = in[i] op inout[i] for count elements of the datatype with
// handle dt; commute says whether the op is commutative.
func OpCreate(fn op.UserFunc, commute bool) (*op.Op, error) {
	if fn == nil {
		return nil, Raise(nil, abi.ErrArg, "MPI_Op_create", "user function is NULL")
	}
	return op.NewUser(fn, commute), nil
}

// OpCreateTyped registers a user reduction over Go slices of T; the
// datatype of a reduction using it must be TypeOf[T]() or a contiguous type
// made of it.
func OpCreateTyped[T Elem](fn func(in, inout []T), commute bool) (*op.Op, error) {
	if fn == nil {
		return nil, Raise(nil, abi.ErrArg, "MPI_Op_create", "user function is NULL")
	}
	size := int(unsafe.Sizeof(*new(T)))
	return op.NewUser(func(in, inout unsafe.Pointer, count int, dt int32) {
		n := count
		if t := TypeFromHandle(dt); t != nil && size > 0 {
			n = count * t.Size / size
		}
		fn(unsafe.Slice((*T)(in), n), unsafe.Slice((*T)(inout), n))
	}, commute), nil
}

// OpFree releases a user op (MPI_Op_free); predefined ops cannot be freed.
func OpFree(o *op.Op) error {
	if o == nil {
		return Raise(nil, abi.ErrOp, "MPI_Op_free", "invalid op")
	}
	if o.Predefined() {
		return Raise(nil, abi.ErrOp, "MPI_Op_free", "cannot free predefined op "+o.Name)
	}
	if class := op.Free(o); class != 0 {
		return Raise(nil, class, "MPI_Op_free", "op already freed")
	}
	return nil
}

// ReduceLocal computes inout[i] = in[i] op inout[i] for count elements of t
// (MPI_Reduce_local). Errors are raised on MPI_COMM_WORLD, as for every call
// without a communicator.
func ReduceLocal(in, inout unsafe.Pointer, count int, t *datatype.Type, o *op.Op) error {
	const call = "MPI_Reduce_local"
	if !st.ready {
		return notReady(call)
	}
	if e := checkReduceLocal(in, inout, count, t, o); e != nil {
		return st.world.raise(e)
	}
	o.Apply(in, inout, count, t)
	return nil
}

func checkReduceLocal(in, inout unsafe.Pointer, count int, t *datatype.Type, o *op.Op) *Error {
	const call = "MPI_Reduce_local"
	switch {
	case o == nil:
		return errf(abi.ErrOp, call, "invalid op")
	case count < 0:
		return errf(abi.ErrCount, call, "count %d is negative", count)
	case t == nil:
		return errf(abi.ErrType, call, "invalid datatype")
	case !t.Committed:
		return errf(abi.ErrType, call, "datatype %s is not committed", t.Name)
	}
	if class := o.Check(t); class != 0 {
		return errf(class, call, "%s is not defined for datatype %s", o.Name, t.Name)
	}
	if count == 0 || t.Size == 0 {
		return nil
	}
	inPlace := ^uintptr(0)
	switch {
	case uintptr(in) == inPlace || uintptr(inout) == inPlace:
		return errf(abi.ErrBuffer, call, "MPI_IN_PLACE is not allowed")
	case in == nil || inout == nil:
		return errf(abi.ErrBuffer, call, "buffer is NULL")
	case in == inout:
		return errf(abi.ErrBuffer, call, "inbuf and inoutbuf are the same buffer")
	}
	return nil
}

// ReduceLocalSlice is ReduceLocal over Go slices of equal length.
func ReduceLocalSlice[T Elem](in, inout []T, o *op.Op) error {
	if len(in) != len(inout) {
		return Raise(nil, abi.ErrCount, "MPI_Reduce_local",
			"inbuf and inoutbuf have different lengths")
	}
	return ReduceLocal(slicePtr(in), slicePtr(inout), len(in), TypeOf[T](), o)
}
