package op

import "gompi/datatype"

// What one-sided accumulates need to know to use CPU atomics: the op's
// index and whether an element fits one atomic word.

// Exported op indices (Index's values).
const (
	IMax     = iMax
	IMin     = iMin
	ISum     = iSum
	IProd    = iProd
	ILand    = iLand
	IBand    = iBand
	ILor     = iLor
	IBor     = iBor
	ILxor    = iLxor
	IBxor    = iBxor
	IMinloc  = iMinloc
	IMaxloc  = iMaxloc
	IReplace = iReplace
	INoOp    = iNoOp
)

// Atomic element kinds: elements a CPU atomic word holds.
const (
	AtomNone = iota
	AtomI32
	AtomU32
	AtomI64
	AtomU64
	AtomF32
	AtomF64
	AtomI8
	AtomU8
	AtomI16
	AtomU16
)

// Index is the predefined op's index (IMax...INoOp), -1 for a user op.
func (o *Op) Index() int { return o.code }

// BaseOf is the predefined type t is made of (nil for mixed types).
func BaseOf(t *datatype.Type) *datatype.Type { return baseOf(t) }

// AtomicKind says how an element of predefined type b fits an atomic word,
// AtomNone when it does not (pairs, complex, long double). 1- and 2-byte
// integers are done by a CAS on the word that holds them.
func AtomicKind(b *datatype.Type) int {
	if b == nil {
		return AtomNone
	}
	ti := info(b)
	if !ti.ok {
		return AtomNone
	}
	switch ti.kind {
	case kI32:
		return AtomI32
	case kU32:
		return AtomU32
	case kI64:
		return AtomI64
	case kU64:
		return AtomU64
	case kF32:
		return AtomF32
	case kF64:
		return AtomF64
	case kI8:
		return AtomI8
	case kU8:
		return AtomU8
	case kI16:
		return AtomI16
	case kU16:
		return AtomU16
	}
	return AtomNone
}
