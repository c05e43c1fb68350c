package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
)

// Datatype is an MPI datatype (predefined or derived).
type Datatype = datatype.Type

// typeErr reports a datatype call's error through MPI_COMM_WORLD's handler
// (datatype calls have no communicator).
func typeErr(call string, err error) error {
	if e, ok := err.(*datatype.ArgError); ok {
		return Raise(nil, e.Class, call, e.Msg)
	}
	return Raise(nil, abi.ErrOther, call, err.Error())
}

// newType gives a freshly built type its handle.
func newType(call string, t *Datatype, err error) (*Datatype, error) {
	if err != nil {
		return nil, typeErr(call, err)
	}
	datatype.Register(t)
	return t, nil
}

// TypeContiguous is MPI_Type_contiguous.
func TypeContiguous(count int, old *Datatype) (*Datatype, error) {
	t, err := datatype.Contiguous(count, old)
	return newType("MPI_Type_contiguous", t, err)
}

// TypeVector is MPI_Type_vector (stride in elements).
func TypeVector(count, blocklen, stride int, old *Datatype) (*Datatype, error) {
	t, err := datatype.Vector(count, blocklen, stride, old)
	return newType("MPI_Type_vector", t, err)
}

// TypeHvector is MPI_Type_create_hvector (stride in bytes).
func TypeHvector(count, blocklen int, stride int64, old *Datatype) (*Datatype, error) {
	t, err := datatype.Hvector(count, blocklen, stride, old)
	return newType("MPI_Type_create_hvector", t, err)
}

// TypeIndexed is MPI_Type_indexed.
func TypeIndexed(blocklens, disps []int, old *Datatype) (*Datatype, error) {
	t, err := datatype.Indexed(blocklens, disps, old)
	return newType("MPI_Type_indexed", t, err)
}

// TypeHindexed is MPI_Type_create_hindexed.
func TypeHindexed(blocklens []int, disps []int64, old *Datatype) (*Datatype, error) {
	t, err := datatype.Hindexed(blocklens, disps, old)
	return newType("MPI_Type_create_hindexed", t, err)
}

// TypeIndexedBlock is MPI_Type_create_indexed_block.
func TypeIndexedBlock(blocklen int, disps []int, old *Datatype) (*Datatype, error) {
	t, err := datatype.IndexedBlock(blocklen, disps, old)
	return newType("MPI_Type_create_indexed_block", t, err)
}

// TypeHindexedBlock is MPI_Type_create_hindexed_block.
func TypeHindexedBlock(blocklen int, disps []int64, old *Datatype) (*Datatype, error) {
	t, err := datatype.HindexedBlock(blocklen, disps, old)
	return newType("MPI_Type_create_hindexed_block", t, err)
}

// TypeStruct is MPI_Type_create_struct.
func TypeStruct(blocklens []int, disps []int64, types []*Datatype) (*Datatype, error) {
	t, err := datatype.Struct(blocklens, disps, types)
	return newType("MPI_Type_create_struct", t, err)
}

// TypeResized is MPI_Type_create_resized.
func TypeResized(old *Datatype, lb, extent int64) (*Datatype, error) {
	t, err := datatype.Resized(old, lb, extent)
	return newType("MPI_Type_create_resized", t, err)
}

// TypeSubarray is MPI_Type_create_subarray.
func TypeSubarray(sizes, subsizes, starts []int, order int, old *Datatype) (*Datatype, error) {
	t, err := datatype.Subarray(sizes, subsizes, starts, order, old)
	return newType("MPI_Type_create_subarray", t, err)
}

// TypeDarray is MPI_Type_create_darray.
func TypeDarray(size, rank int, gsizes, distribs, dargs, psizes []int, order int, old *Datatype) (*Datatype, error) {
	t, err := datatype.Darray(size, rank, gsizes, distribs, dargs, psizes, order, old)
	return newType("MPI_Type_create_darray", t, err)
}

// TypeDup is MPI_Type_dup: a new handle, the attributes copied by their
// copy callbacks.
func TypeDup(old *Datatype) (*Datatype, error) {
	t, err := datatype.Dup(old)
	if t, err = newType("MPI_Type_dup", t, err); err != nil {
		return nil, err
	}
	if err := CopyTypeAttrs(old, t); err != nil {
		t.Release()
		return nil, err
	}
	return t, nil
}

// TypeCommit is MPI_Type_commit (predefined and committed types are fine).
func TypeCommit(t *Datatype) error {
	if t == nil {
		return Raise(nil, abi.ErrType, "MPI_Type_commit", "invalid datatype")
	}
	t.Commit()
	return nil
}

// TypeFree is MPI_Type_free: the delete callbacks run, then the user's
// reference goes. Operations still using t keep it alive until they end.
func TypeFree(t *Datatype) error {
	if t == nil {
		return Raise(nil, abi.ErrType, "MPI_Type_free", "invalid datatype")
	}
	if t.Named {
		return Raise(nil, abi.ErrType, "MPI_Type_free", "predefined datatype "+t.Name+" cannot be freed")
	}
	if err := DeleteTypeAttrs(t); err != nil {
		return err
	}
	t.Release()
	return nil
}

// TypeGetContents is MPI_Type_get_contents; every derived type returned
// carries a reference the caller frees.
func TypeGetContents(t *Datatype) ([]int, []int64, []*Datatype, error) {
	if t == nil {
		return nil, nil, nil, Raise(nil, abi.ErrType, "MPI_Type_get_contents", "invalid datatype")
	}
	if t.Combiner() == abi.CombinerNamed {
		return nil, nil, nil, Raise(nil, abi.ErrType, "MPI_Type_get_contents", "datatype "+t.Name+" is predefined")
	}
	ints, addrs, types := t.Contents()
	for _, o := range types {
		o.Hold()
	}
	return ints, addrs, types, nil
}

// TypeF90 is MPI_Type_create_f90_real/complex/integer (combiner picks which).
func TypeF90(call string, combiner, p, r int) (*Datatype, error) {
	t, err := datatype.F90(combiner, p, r)
	if err != nil {
		return nil, typeErr(call, err)
	}
	return t, nil
}

// TypeMatchSize is MPI_Type_match_size.
func TypeMatchSize(class, size int) (*Datatype, error) {
	t, err := datatype.MatchSize(class, size)
	if err != nil {
		return nil, typeErr("MPI_Type_match_size", err)
	}
	return t, nil
}

// checkPackType rejects invalid and uncommitted types.
func checkPackType(call string, t *Datatype, count int) error {
	switch {
	case t == nil:
		return Raise(nil, abi.ErrType, call, "invalid datatype")
	case !t.Committed:
		return Raise(nil, abi.ErrType, call, "datatype "+typeName(t)+" is not committed")
	case count < 0:
		return Raise(nil, abi.ErrCount, call, "count is negative")
	}
	return nil
}

func typeName(t *Datatype) string {
	if t.Name != "" {
		return t.Name
	}
	return "(unnamed)"
}

// Pack is MPI_Pack: count elements at in go to out at *pos, which advances.
func Pack(in unsafe.Pointer, count int, t *Datatype, out []byte, pos *int) error {
	if err := checkPackType("MPI_Pack", t, count); err != nil {
		return err
	}
	need := t.PackSize(count)
	if *pos < 0 || *pos+need > len(out) {
		return Raise(nil, abi.ErrTruncate, "MPI_Pack", "the output buffer has no room for the packed data")
	}
	*pos += t.Pack(out[*pos:*pos+need], in, count, 0)
	return nil
}

// Unpack is MPI_Unpack: count elements from in at *pos go to out.
func Unpack(in []byte, pos *int, out unsafe.Pointer, count int, t *Datatype) error {
	if err := checkPackType("MPI_Unpack", t, count); err != nil {
		return err
	}
	need := t.PackSize(count)
	if *pos < 0 || *pos+need > len(in) {
		return Raise(nil, abi.ErrTruncate, "MPI_Unpack", "the input buffer holds less than the data to unpack")
	}
	*pos += t.Unpack(out, count, in[*pos:*pos+need], 0)
	return nil
}

// checkDatarep accepts the one portable representation.
func checkDatarep(call, rep string) error {
	if rep != "external32" {
		return Raise(nil, abi.ErrArg, call, "data representation \""+rep+"\" is not \"external32\"")
	}
	return nil
}

// PackExternal is MPI_Pack_external.
func PackExternal(rep string, in unsafe.Pointer, count int, t *Datatype, out []byte, pos *int64) error {
	if err := checkDatarep("MPI_Pack_external", rep); err != nil {
		return err
	}
	if err := checkPackType("MPI_Pack_external", t, count); err != nil {
		return err
	}
	need := t.ExternalSize(count)
	if *pos < 0 || *pos+need > int64(len(out)) {
		return Raise(nil, abi.ErrTruncate, "MPI_Pack_external", "the output buffer has no room for the packed data")
	}
	*pos += int64(t.PackExternal(out[*pos:*pos+need], in, count))
	return nil
}

// UnpackExternal is MPI_Unpack_external.
func UnpackExternal(rep string, in []byte, pos *int64, out unsafe.Pointer, count int, t *Datatype) error {
	if err := checkDatarep("MPI_Unpack_external", rep); err != nil {
		return err
	}
	if err := checkPackType("MPI_Unpack_external", t, count); err != nil {
		return err
	}
	need := t.ExternalSize(count)
	if *pos < 0 || *pos+need > int64(len(in)) {
		return Raise(nil, abi.ErrTruncate, "MPI_Unpack_external", "the input buffer holds less than the data to unpack")
	}
	*pos += int64(t.UnpackExternal(out, count, in[*pos:*pos+need]))
	return nil
}
