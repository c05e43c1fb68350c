package datatype

import (
	"sync"

	"gompi/abi"
)

// Envelope is MPI_Type_get_envelope: how many integers, addresses and
// datatypes Contents returns, and the combiner that made t.
func (t *Type) Envelope() (nints, naddrs, ntypes, combiner int) {
	return len(t.ints), len(t.addrs), len(t.types), t.combiner
}

// Combiner is how t was made (abi.Combiner*).
func (t *Type) Combiner() int { return t.combiner }

// Contents is MPI_Type_get_contents: the arguments t was made with. The
// types are the originals; the caller takes a reference on each derived one
// it hands out (the user frees them).
func (t *Type) Contents() (ints []int, addrs []int64, types []*Type) {
	return t.ints, t.addrs, t.types
}

// TrueBounds is MPI_Type_get_true_extent.
func (t *Type) TrueBounds() (lb, extent int) { return t.TrueLB, t.TrueExtent }

// ReduceShape is what a reduction needs of a type: the predefined type all
// its data is made of and how many of those one element holds. ok is false
// for types mixing several predefined types (reductions reject them).
func (t *Type) ReduceShape() (base *Type, perElem int, ok bool) {
	if t.Base == nil || t.Base.Size == 0 {
		return nil, 0, false
	}
	return t.Base, t.Size / t.Base.Size, true
}

// F90 parameterised types: one cached type per (combiner, p, r), named so
// it cannot be freed, equal in data to the predefined type it selects.
var f90 struct {
	mu    sync.Mutex
	cache map[[3]int]*Type
}

// F90 is MPI_Type_create_f90_real/complex/integer (r only for integer;
// abi.Undefined for an unspecified p or r).
func F90(combiner, p, r int) (*Type, error) {
	key := [3]int{combiner, p, r}
	f90.mu.Lock()
	defer f90.mu.Unlock()
	if t := f90.cache[key]; t != nil {
		return t, nil
	}
	var h int32
	und := func(x int) bool { return x == abi.Undefined }
	switch combiner {
	case abi.CombinerF90Integer:
		switch {
		case r <= 2:
			h = abi.Integer1
		case r <= 4:
			h = abi.Integer2
		case r <= 9:
			h = abi.Integer4
		case r <= 18:
			h = abi.Integer8
		}
	case abi.CombinerF90Real, abi.CombinerF90Complex:
		if und(p) && und(r) {
			return nil, argErr(abi.ErrArg, "p and r are both MPI_UNDEFINED")
		}
		pp, rr := p, r
		if und(pp) {
			pp = 0
		}
		if und(rr) {
			rr = 0
		}
		switch {
		case pp <= 6 && rr <= 37:
			h = abi.Real4
		case pp <= 15 && rr <= 307:
			h = abi.Real8
		case pp <= 33 && rr <= 4931:
			h = abi.Real16
		}
		if h != 0 && combiner == abi.CombinerF90Complex {
			h = map[int32]int32{abi.Real4: abi.Complex8, abi.Real8: abi.Complex16, abi.Real16: abi.Complex32}[h]
		}
	}
	if h == 0 {
		return nil, argErr(abi.ErrArg, "no Fortran type has precision %d and range %d", p, r)
	}
	old := Predefined(h)
	t := build([]piece{{t: old, n: 1, reps: 1}}, false)
	if combiner == abi.CombinerF90Integer {
		t.ints = []int{r}
	} else {
		t.ints = []int{p, r}
	}
	t.combiner = combiner
	t.Commit()
	Register(t)
	t.Named = true
	if f90.cache == nil {
		f90.cache = map[[3]int]*Type{}
	}
	f90.cache[key] = t
	return t, nil
}

// MatchSize is MPI_Type_match_size: the Fortran predefined type of a class
// and size, as MPICH answers.
func MatchSize(class, size int) (*Type, error) {
	var table map[int]int32
	switch class {
	case abi.TypeclassReal:
		table = map[int]int32{4: abi.Real4, 8: abi.Real8, 16: abi.Real16}
	case abi.TypeclassInteger:
		table = map[int]int32{1: abi.Integer1, 2: abi.Integer2, 4: abi.Integer4, 8: abi.Integer8}
	case abi.TypeclassComplex:
		table = map[int]int32{8: abi.Complex8, 16: abi.Complex16, 32: abi.Complex32}
	default:
		return nil, argErr(abi.ErrArg, "type class %d is not MPI_TYPECLASS_REAL, _INTEGER or _COMPLEX", class)
	}
	h, ok := table[size]
	if !ok {
		return nil, argErr(abi.ErrArg, "no type of class %d has size %d", class, size)
	}
	return Predefined(h), nil
}
