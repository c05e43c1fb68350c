package datatype

import (
	"fmt"

	"gompi/abi"
)

// ArgError is an invalid constructor argument with its MPI error class.
type ArgError struct {
	Class int
	Msg   string
}

func (e *ArgError) Error() string { return e.Msg }

func argErr(class int, format string, args ...any) error {
	return &ArgError{Class: class, Msg: fmt.Sprintf(format, args...)}
}

func checkOld(old *Type) error {
	if old == nil {
		return argErr(abi.ErrType, "invalid datatype")
	}
	return nil
}

func checkCount(what string, n int) error {
	if n < 0 {
		return argErr(abi.ErrCount, "%s %d is negative", what, n)
	}
	return nil
}

// finish records how t was made (for MPI_Type_get_contents) and takes a
// reference on each derived type it was made from.
func finish(t *Type, combiner int, ints []int, addrs []int64, types []*Type) *Type {
	t.combiner, t.ints, t.addrs, t.types = combiner, ints, addrs, types
	for _, o := range types {
		o.hold()
		t.align = max(t.align, o.align) // kept even when no copy of o is placed
	}
	return t
}

// Contiguous is MPI_Type_contiguous.
func Contiguous(count int, old *Type) (*Type, error) {
	if err := checkCount("count", count); err != nil {
		return nil, err
	}
	if err := checkOld(old); err != nil {
		return nil, err
	}
	t := build([]piece{{t: old, n: int64(count), reps: 1}}, false)
	return finish(t, abi.CombinerContiguous, []int{count}, nil, []*Type{old}), nil
}

// Vector is MPI_Type_vector (stride in elements of old).
func Vector(count, blocklen, stride int, old *Type) (*Type, error) {
	t, err := hvector(count, blocklen, int64(stride)*int64(extentOf(old)), old)
	if err != nil {
		return nil, err
	}
	return finish(t, abi.CombinerVector, []int{count, blocklen, stride}, nil, []*Type{old}), nil
}

// Hvector is MPI_Type_create_hvector (stride in bytes).
func Hvector(count, blocklen int, stride int64, old *Type) (*Type, error) {
	t, err := hvector(count, blocklen, stride, old)
	if err != nil {
		return nil, err
	}
	return finish(t, abi.CombinerHvector, []int{count, blocklen}, []int64{stride}, []*Type{old}), nil
}

func extentOf(t *Type) int {
	if t == nil {
		return 0
	}
	return t.Extent
}

func hvector(count, blocklen int, stride int64, old *Type) (*Type, error) {
	if err := checkCount("count", count); err != nil {
		return nil, err
	}
	if err := checkCount("blocklength", blocklen); err != nil {
		return nil, err
	}
	if err := checkOld(old); err != nil {
		return nil, err
	}
	return build([]piece{{t: old, n: int64(blocklen), reps: int64(count), repStride: stride}}, false), nil
}

// Indexed is MPI_Type_indexed (displacements in elements of old).
func Indexed(blocklens, disps []int, old *Type) (*Type, error) {
	d := make([]int64, len(disps))
	for i, x := range disps {
		d[i] = int64(x) * int64(extentOf(old))
	}
	t, err := hindexed(blocklens, d, old)
	if err != nil {
		return nil, err
	}
	ints := append(append([]int{len(blocklens)}, blocklens...), disps...)
	return finish(t, abi.CombinerIndexed, ints, nil, []*Type{old}), nil
}

// Hindexed is MPI_Type_create_hindexed (displacements in bytes).
func Hindexed(blocklens []int, disps []int64, old *Type) (*Type, error) {
	t, err := hindexed(blocklens, disps, old)
	if err != nil {
		return nil, err
	}
	ints := append([]int{len(blocklens)}, blocklens...)
	return finish(t, abi.CombinerHindexed, ints, append([]int64(nil), disps...), []*Type{old}), nil
}

func hindexed(blocklens []int, disps []int64, old *Type) (*Type, error) {
	if err := checkOld(old); err != nil {
		return nil, err
	}
	if len(disps) < len(blocklens) {
		return nil, argErr(abi.ErrArg, "%d displacements for %d blocks", len(disps), len(blocklens))
	}
	ps := make([]piece, 0, len(blocklens))
	for i, b := range blocklens {
		if err := checkCount(fmt.Sprintf("blocklength[%d]", i), b); err != nil {
			return nil, err
		}
		ps = append(ps, piece{t: old, off: disps[i], n: int64(b), reps: 1})
	}
	return build(ps, false), nil
}

// IndexedBlock is MPI_Type_create_indexed_block.
func IndexedBlock(blocklen int, disps []int, old *Type) (*Type, error) {
	if err := checkCount("blocklength", blocklen); err != nil {
		return nil, err
	}
	d := make([]int64, len(disps))
	for i, x := range disps {
		d[i] = int64(x) * int64(extentOf(old))
	}
	t, err := hindexed(repeatInt(blocklen, len(disps)), d, old)
	if err != nil {
		return nil, err
	}
	ints := append([]int{len(disps), blocklen}, disps...)
	return finish(t, abi.CombinerIndexedBlock, ints, nil, []*Type{old}), nil
}

// HindexedBlock is MPI_Type_create_hindexed_block.
func HindexedBlock(blocklen int, disps []int64, old *Type) (*Type, error) {
	if err := checkCount("blocklength", blocklen); err != nil {
		return nil, err
	}
	t, err := hindexed(repeatInt(blocklen, len(disps)), disps, old)
	if err != nil {
		return nil, err
	}
	return finish(t, abi.CombinerHindexedBlock, []int{len(disps), blocklen}, append([]int64(nil), disps...), []*Type{old}), nil
}

func repeatInt(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// Struct is MPI_Type_create_struct (and the MPI-1 MPI_Type_struct).
func Struct(blocklens []int, disps []int64, types []*Type) (*Type, error) {
	if len(disps) < len(blocklens) || len(types) < len(blocklens) {
		return nil, argErr(abi.ErrArg, "%d displacements and %d types for %d blocks", len(disps), len(types), len(blocklens))
	}
	ps := make([]piece, 0, len(blocklens))
	for i, b := range blocklens {
		if err := checkCount(fmt.Sprintf("blocklength[%d]", i), b); err != nil {
			return nil, err
		}
		if types[i] == nil {
			return nil, argErr(abi.ErrType, "datatype %d of the struct is invalid", i)
		}
		ps = append(ps, piece{t: types[i], off: disps[i], n: int64(b), reps: 1})
	}
	t := build(ps, true)
	ints := append([]int{len(blocklens)}, blocklens...)
	return finish(t, abi.CombinerStruct, ints, append([]int64(nil), disps...), append([]*Type(nil), types...)), nil
}

// Resized is MPI_Type_create_resized: the same data with a new lower bound
// and extent (which replace any MPI_LB/MPI_UB markers).
func Resized(old *Type, lb, extent int64) (*Type, error) {
	if err := checkOld(old); err != nil {
		return nil, err
	}
	t := resized(old, lb, extent)
	return finish(t, abi.CombinerResized, nil, []int64{lb, extent}, []*Type{old}), nil
}

func resized(old *Type, lb, extent int64) *Type {
	t := build([]piece{{t: old, n: 1, reps: 1}}, false)
	t.LB, t.Extent = int(lb), int(extent)
	t.stickyLB, t.stickyUB = false, false
	return t
}

// Dup is MPI_Type_dup: an equal type with its own handle (and attributes).
func Dup(old *Type) (*Type, error) {
	if err := checkOld(old); err != nil {
		return nil, err
	}
	t := build([]piece{{t: old, n: 1, reps: 1}}, false)
	t.LB, t.Extent, t.stickyLB, t.stickyUB = old.LB, old.Extent, old.stickyLB, old.stickyUB
	t.TrueLB, t.TrueExtent, t.align = old.TrueLB, old.TrueExtent, old.align
	t = finish(t, abi.CombinerDup, nil, nil, []*Type{old})
	if old.Committed {
		t.Commit()
	}
	return t, nil
}
