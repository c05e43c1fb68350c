// Package datatype describes MPI datatypes: sizes, extents and the layout the
// pml needs to move them. Predefined types are fixed tables indexed by handle
// bits, so looking one up costs no map access.
package datatype

import (
	"gompi/abi"
	"gompi/attr"
)

// Type is one datatype.
type Type struct {
	Handle    int32
	Name      string
	Size      int // bytes of data in one element
	Extent    int // stride between elements
	LB        int
	Contig    bool // one element is Size contiguous bytes at offset 0 and Extent == Size
	Committed bool
	Builtin   bool
	// Base is the predefined type all data is made of, or nil when mixed
	// (reductions need one base type).
	Base *Type
	// pairFirst is the size of the first of the two basic elements of a
	// pair type (MPI_2INT, MPI_DOUBLE_INT...), 0 for other types.
	pairFirst int

	// Attrs caches the attributes set on this type (MPI_Type_set_attr).
	Attrs attr.Store

	// TrueLB and TrueExtent bound the bytes actually holding data.
	TrueLB, TrueExtent int
	// Elems is the number of basic elements in one element of the type.
	Elems int64
	// Named types (predefined ones, and the cached results of
	// MPI_Type_create_f90_*) cannot be freed.
	Named bool

	combiner int
	ints     []int
	addrs    []int64
	types    []*Type

	typed []node // layout with element types kept (typemap order)
	fast  []node // committed layout: adjacent runs merged regardless of type

	stickyLB, stickyUB bool // explicit MPI_LB / MPI_UB markers
	align              int  // alignment used to pad struct extents
	refs               int32
}

// Bytes returns the data size of count elements.
func (t *Type) Bytes(count int) int { return t.Size * count }

var builtins [256]*Type
var pairs [5]*Type

func def(h int32, name string, size int) {
	t := &Type{Handle: h, Name: name, Size: size, Extent: size, Contig: true, Committed: true, Builtin: true,
		Named: true, combiner: abi.CombinerNamed, TrueExtent: size, Elems: 1, align: naturalAlign(h, size)}
	t.Base = t
	if builtins[uint32(h)&0xff] != nil {
		panic("datatype: two predefined types share handle index " + name)
	}
	builtins[uint32(h)&0xff] = t
}

func init() {
	for _, b := range predefined {
		def(b.h, b.name, abi.BuiltinSize(b.h))
	}
	// MPI_LB and MPI_UB are markers with no data.
	for _, h := range []int32{abi.LB, abi.UB} {
		t := builtins[uint32(h)&0xff]
		t.Size, t.Extent, t.TrueExtent, t.Elems, t.Base = 0, 0, 0, 0, nil
	}
	builtins[uint32(abi.LB)&0xff].stickyLB = true
	builtins[uint32(abi.UB)&0xff].stickyUB = true
	for _, h := range []int32{abi.TwoInt, abi.TwoInteger, abi.TwoReal, abi.TwoDoublePrecision} {
		t := builtins[uint32(h)&0xff]
		t.pairFirst, t.Elems = t.Size/2, 2
	}
	// Pair types for MAXLOC/MINLOC, with C struct layout (padding included in extent).
	for i, p := range []struct {
		h            int32
		name         string
		size, extent int
		first        int
	}{
		{abi.FloatInt, "MPI_FLOAT_INT", 8, 8, 4},
		{abi.DoubleInt, "MPI_DOUBLE_INT", 12, 16, 8},
		{abi.LongInt, "MPI_LONG_INT", 12, 16, 8},
		{abi.ShortInt, "MPI_SHORT_INT", 6, 8, 2},
		{abi.LongDoubleInt, "MPI_LONG_DOUBLE_INT", 20, 32, 16},
	} {
		t := &Type{Handle: p.h, Name: p.name, Size: p.size, Extent: p.extent, Contig: p.size == p.extent,
			Committed: true, Builtin: true, pairFirst: p.first, Named: true, combiner: abi.CombinerNamed,
			TrueExtent: p.size, Elems: 2}
		t.Base = t
		pairs[i] = t
	}
	initLayouts()
}

// PredefinedTypes lists every predefined type.
func PredefinedTypes() []*Type {
	var out []*Type
	for _, t := range builtins {
		if t != nil {
			out = append(out, t)
		}
	}
	return append(out, pairs[:]...)
}

// Predefined returns the predefined type of handle h, or nil.
func Predefined(h int32) *Type {
	switch abi.HandleKind(h) {
	case abi.KindBuiltin:
		if abi.HandleObj(h) == abi.ObjDatatype {
			return builtins[uint32(h)&0xff]
		}
	case abi.KindDirect:
		if i := abi.HandleIndex(h); abi.HandleObj(h) == abi.ObjDatatype && i < uint32(len(pairs)) {
			return pairs[i]
		}
	}
	return nil
}

var predefined = []struct {
	h    int32
	name string
}{
	{abi.Char, "MPI_CHAR"}, {abi.SignedChar, "MPI_SIGNED_CHAR"}, {abi.UnsignedChar, "MPI_UNSIGNED_CHAR"},
	{abi.Byte, "MPI_BYTE"}, {abi.Wchar, "MPI_WCHAR"}, {abi.Short, "MPI_SHORT"},
	{abi.UnsignedShort, "MPI_UNSIGNED_SHORT"}, {abi.Int, "MPI_INT"}, {abi.Unsigned, "MPI_UNSIGNED"},
	{abi.Long, "MPI_LONG"}, {abi.UnsignedLong, "MPI_UNSIGNED_LONG"}, {abi.Float, "MPI_FLOAT"},
	{abi.Double, "MPI_DOUBLE"}, {abi.LongDouble, "MPI_LONG_DOUBLE"}, {abi.LongLongInt, "MPI_LONG_LONG_INT"},
	{abi.UnsignedLongLong, "MPI_UNSIGNED_LONG_LONG"}, {abi.Packed, "MPI_PACKED"}, {abi.LB, "MPI_LB"},
	{abi.UB, "MPI_UB"}, {abi.TwoInt, "MPI_2INT"}, {abi.Complex, "MPI_COMPLEX"},
	{abi.DoubleComplex, "MPI_DOUBLE_COMPLEX"}, {abi.Logical, "MPI_LOGICAL"}, {abi.Real, "MPI_REAL"},
	{abi.DoublePrecision, "MPI_DOUBLE_PRECISION"}, {abi.Integer, "MPI_INTEGER"},
	{abi.TwoInteger, "MPI_2INTEGER"}, {abi.TwoReal, "MPI_2REAL"},
	{abi.TwoDoublePrecision, "MPI_2DOUBLE_PRECISION"}, {abi.Character, "MPI_CHARACTER"},
	{abi.Real4, "MPI_REAL4"}, {abi.Real8, "MPI_REAL8"}, {abi.Real16, "MPI_REAL16"},
	{abi.Complex8, "MPI_COMPLEX8"}, {abi.Complex16, "MPI_COMPLEX16"}, {abi.Complex32, "MPI_COMPLEX32"},
	{abi.Integer1, "MPI_INTEGER1"}, {abi.Integer2, "MPI_INTEGER2"}, {abi.Integer4, "MPI_INTEGER4"},
	{abi.Integer8, "MPI_INTEGER8"}, {abi.Logical1, "MPI_LOGICAL1"}, {abi.Logical2, "MPI_LOGICAL2"},
	{abi.Logical4, "MPI_LOGICAL4"}, {abi.Logical8, "MPI_LOGICAL8"}, {abi.Real2, "MPI_REAL2"},
	{abi.Complex4, "MPI_COMPLEX4"}, {abi.Int8, "MPI_INT8_T"}, {abi.Int16, "MPI_INT16_T"},
	{abi.Int32, "MPI_INT32_T"}, {abi.Int64, "MPI_INT64_T"}, {abi.Uint8, "MPI_UINT8_T"},
	{abi.Uint16, "MPI_UINT16_T"}, {abi.Uint32, "MPI_UINT32_T"}, {abi.Uint64, "MPI_UINT64_T"},
	{abi.CBool, "MPI_C_BOOL"}, {abi.CFloatComplex, "MPI_C_COMPLEX"}, // MPI_C_FLOAT_COMPLEX is the same handle; MPICH names it so too
	{abi.CDoubleComplex, "MPI_C_DOUBLE_COMPLEX"}, {abi.CLongDoubleComplex, "MPI_C_LONG_DOUBLE_COMPLEX"},
	{abi.Aint, "MPI_AINT"}, {abi.Offset, "MPI_OFFSET"}, {abi.Count, "MPI_COUNT"},
	{abi.CxxBool, "MPI_CXX_BOOL"}, {abi.CxxFloatComplex, "MPI_CXX_FLOAT_COMPLEX"},
	{abi.CxxDoubleComplex, "MPI_CXX_DOUBLE_COMPLEX"}, {abi.CxxLongDoubleComplex, "MPI_CXX_LONG_DOUBLE_COMPLEX"},
}
