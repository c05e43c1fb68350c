package op

import (
	"gompi/abi"
	"gompi/datatype"
)

// Element kinds: how a kernel sees one basic element. Same numbers as the
// GK_* enum in kernels.h.
const (
	kI8 = iota
	kU8
	kI16
	kU16
	kI32
	kU32
	kI64
	kU64
	kF32
	kF64
	kF80
	kC64
	kC128
	kCLD
	kFloatInt
	kDoubleInt
	kLongInt
	k2Int
	kShortInt
	kLDoubleInt
	k2Float
	k2Double
	// the pairs with padding, in packed form (MPI_Pack's layout)
	kDoubleIntP
	kLongIntP
	kShortIntP
	kLDoubleIntP
	kF128 // IEEE binary128: gfortran's REAL*16
	kC256 // complex of two binary128
	nKind
)

// Type groups of MPI-3.1 5.9.2, which decide which ops a type allows.
const (
	gNone    = iota // no arithmetic: only REPLACE and NO_OP
	gCInt           // C integer
	gFInt           // Fortran integer
	gFloat          // floating point
	gLogical        // C_BOOL, CXX_BOOL, LOGICAL
	gComplex        // complex
	gByte           // MPI_BYTE
	gMulti          // MPI_AINT, MPI_OFFSET, MPI_COUNT
	gPair           // MAXLOC/MINLOC pair types
	nGroup
)

// typeInfo is what a predefined datatype means to a kernel.
type typeInfo struct {
	kind  int8
	group int8
	ok    bool // known here
}

// builtinInfo is indexed by the low byte of a builtin datatype handle and
// pairInfo by the index of a direct pair-type handle, so no map is consulted.
var (
	builtinInfo [256]typeInfo
	pairInfo    [8]typeInfo
)

func initTypes() {
	set := func(group int8, kind int8, hs ...int32) {
		for _, h := range hs {
			ti := typeInfo{kind: kind, group: group, ok: true}
			switch abi.HandleKind(h) {
			case abi.KindBuiltin:
				builtinInfo[uint32(h)&0xff] = ti
			default:
				pairInfo[abi.HandleIndex(h)] = ti
			}
		}
	}
	// C integers. MPI_CHAR and Fortran's MPI_CHARACTER are not in the
	// standard's list, but MPICH and Open MPI both reduce them as signed
	// chars (checked against both), and programs rely on that.
	set(gCInt, kI8, abi.Char, abi.Character, abi.SignedChar, abi.Int8)
	set(gCInt, kU8, abi.UnsignedChar, abi.Uint8)
	set(gCInt, kI16, abi.Short, abi.Int16)
	set(gCInt, kU16, abi.UnsignedShort, abi.Uint16)
	set(gCInt, kI32, abi.Int, abi.Int32)
	set(gCInt, kU32, abi.Unsigned, abi.Uint32)
	set(gCInt, kI64, abi.Long, abi.LongLongInt, abi.Int64)
	set(gCInt, kU64, abi.UnsignedLong, abi.UnsignedLongLong, abi.Uint64)
	set(gMulti, kI64, abi.Aint, abi.Offset, abi.Count)
	// Fortran integers.
	set(gFInt, kI32, abi.Integer, abi.Integer4)
	set(gFInt, kI8, abi.Integer1)
	set(gFInt, kI16, abi.Integer2)
	set(gFInt, kI64, abi.Integer8)
	// Floating point. MPI_REAL16 is gfortran's REAL*16, IEEE binary128
	// (__float128), not the x87 long double of MPI_LONG_DOUBLE.
	set(gFloat, kF32, abi.Float, abi.Real, abi.Real4)
	set(gFloat, kF64, abi.Double, abi.DoublePrecision, abi.Real8)
	set(gFloat, kF80, abi.LongDouble)
	set(gFloat, kF128, abi.Real16)
	// Logical: 1-byte C/C++ bool and Fortran's 4-byte LOGICAL; the integer
	// kernels' logical ops give 0/1.
	set(gLogical, kU8, abi.CBool, abi.CxxBool)
	set(gLogical, kI32, abi.Logical, abi.Logical4)
	set(gLogical, kI8, abi.Logical1)
	set(gLogical, kI16, abi.Logical2)
	set(gLogical, kI64, abi.Logical8)
	// Complex.
	set(gComplex, kC64, abi.Complex, abi.Complex8, abi.CFloatComplex, abi.CxxFloatComplex)
	set(gComplex, kC128, abi.DoubleComplex, abi.Complex16, abi.CDoubleComplex, abi.CxxDoubleComplex)
	set(gComplex, kCLD, abi.CLongDoubleComplex, abi.CxxLongDoubleComplex)
	set(gComplex, kC256, abi.Complex32)
	set(gByte, kU8, abi.Byte)
	// Half precision (REAL*2, COMPLEX*4): no arithmetic kernel yet, so only
	// REPLACE and NO_OP, as for any type outside the standard's groups.
	set(gNone, kU16, abi.Real2)
	set(gNone, kU32, abi.Complex4)
	// Pairs.
	set(gPair, kFloatInt, abi.FloatInt)
	set(gPair, kDoubleInt, abi.DoubleInt)
	set(gPair, kLongInt, abi.LongInt)
	set(gPair, kShortInt, abi.ShortInt)
	set(gPair, kLDoubleInt, abi.LongDoubleInt)
	set(gPair, k2Int, abi.TwoInt, abi.TwoInteger)
	set(gPair, k2Float, abi.TwoReal)
	set(gPair, k2Double, abi.TwoDoublePrecision)
	// Types with data but no arithmetic.
	for _, h := range []int32{abi.Wchar, abi.Packed} {
		builtinInfo[uint32(h)&0xff] = typeInfo{kind: -1, group: gNone, ok: true}
	}
}

// info returns the kernel view of predefined type b.
func info(b *datatype.Type) typeInfo {
	h := b.Handle
	switch abi.HandleKind(h) {
	case abi.KindBuiltin:
		return builtinInfo[uint32(h)&0xff]
	case abi.KindDirect:
		if i := abi.HandleIndex(h); i < uint32(len(pairInfo)) && abi.HandleObj(h) == abi.ObjDatatype {
			return pairInfo[i]
		}
	}
	return typeInfo{}
}

// baseOf is the predefined type t is made of: t itself for predefined types
// (pair types included), nil for mixed types.
func baseOf(t *datatype.Type) *datatype.Type {
	if t.Builtin {
		return t
	}
	return t.Base
}

// groupOps lists, per type group, the predefined ops MPI-3.1 5.9.2 allows
// in reductions (bit i = op index i). REPLACE and NO_OP are for one-sided
// accumulates only (see CheckAccumulate).
var groupOps [nGroup]uint16

func initGroups() {
	bits := func(ops ...int) (m uint16) {
		for _, o := range ops {
			m |= 1 << o
		}
		return m
	}
	groupOps[gNone] = bits()
	groupOps[gCInt] = bits(iMax, iMin, iSum, iProd, iLand, iLor, iLxor, iBand, iBor, iBxor)
	groupOps[gFInt] = bits(iMax, iMin, iSum, iProd, iBand, iBor, iBxor)
	groupOps[gFloat] = bits(iMax, iMin, iSum, iProd)
	groupOps[gLogical] = bits(iLand, iLor, iLxor)
	groupOps[gComplex] = bits(iSum, iProd)
	groupOps[gByte] = bits(iBand, iBor, iBxor)
	// The standard lists MPI_AINT/OFFSET/COUNT for arithmetic and bitwise ops
	// only; MPICH and Open MPI both accept the logical ops too.
	groupOps[gMulti] = bits(iMax, iMin, iSum, iProd, iLand, iLor, iLxor, iBand, iBor, iBxor)
	groupOps[gPair] = bits(iMaxloc, iMinloc)
}

// packedKind is the kind of base elements stored back to back at the base
// type's Size (packed data and contiguous derived types), which differs from
// the in-memory kind only for the pair types with padding.
var packedKind = [nKind]int8{}

func initPacked() {
	for k := range packedKind {
		packedKind[k] = int8(k)
	}
	packedKind[kDoubleInt], packedKind[kLongInt] = kDoubleIntP, kLongIntP
	packedKind[kShortInt], packedKind[kLDoubleInt] = kShortIntP, kLDoubleIntP
}
