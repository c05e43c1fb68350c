package datatype

import (
	"encoding/binary"
	"unsafe"

	"gompi/abi"
)

// external32 is the portable representation of MPI_Pack_external: every
// basic element big-endian in the standard's fixed size (MPI-3.1 table
// 13.2): MPI_LONG is 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE a 16-byte IEEE
// quad, complex types two reals.
type x32 struct {
	size  int // external bytes of the whole element
	parts int // 2 for complex types: two reals converted one by one
	kind  uint8
}

const (
	kInt   uint8 = iota // signed integer (truncated or sign-extended)
	kUint               // unsigned integer, bool, characters
	kFloat              // IEEE float/double: byte swap only
	kLongDouble
)

var ext32 = map[int32]x32{}

func init() {
	set := func(kind uint8, size int, hs ...int32) {
		for _, h := range hs {
			ext32[h] = x32{size: size, parts: 1, kind: kind}
		}
	}
	set(kUint, 1, abi.Packed, abi.Byte, abi.Char, abi.UnsignedChar, abi.Character, abi.Uint8, abi.CBool, abi.CxxBool)
	set(kInt, 1, abi.SignedChar, abi.Int8, abi.Integer1)
	set(kUint, 2, abi.Wchar, abi.UnsignedShort, abi.Uint16)
	set(kInt, 2, abi.Short, abi.Int16, abi.Integer2)
	set(kInt, 4, abi.Int, abi.Long, abi.Int32, abi.Integer, abi.Integer4, abi.Logical)
	set(kUint, 4, abi.Unsigned, abi.UnsignedLong, abi.Uint32)
	set(kInt, 8, abi.LongLongInt, abi.Int64, abi.Integer8, abi.Aint, abi.Offset, abi.Count)
	set(kUint, 8, abi.UnsignedLongLong, abi.Uint64)
	set(kFloat, 4, abi.Float, abi.Real, abi.Real4)
	set(kFloat, 8, abi.Double, abi.DoublePrecision, abi.Real8)
	set(kLongDouble, 16, abi.LongDouble)
	set(kFloat, 16, abi.Real16) // Fortran REAL*16 is IEEE quad already
	set(kInt, 1, abi.Logical1)
	set(kInt, 2, abi.Logical2)
	set(kInt, 4, abi.Logical4)
	set(kInt, 8, abi.Logical8)
	set(kFloat, 2, abi.Real2) // IEEE half, big-endian like the others
	for h, c := range map[int32]int32{
		abi.Complex: abi.Real, abi.Complex8: abi.Real4, abi.CFloatComplex: abi.Float, abi.CxxFloatComplex: abi.Float,
		abi.DoubleComplex: abi.Double, abi.Complex16: abi.Real8, abi.CDoubleComplex: abi.Double, abi.CxxDoubleComplex: abi.Double,
		abi.Complex32: abi.Real16, abi.Complex4: abi.Real2, abi.CLongDoubleComplex: abi.LongDouble, abi.CxxLongDoubleComplex: abi.LongDouble,
	} {
		e := ext32[c]
		ext32[h] = x32{size: 2 * e.size, parts: 2, kind: e.kind}
	}
}

// ExternalSize is MPI_Pack_external_size for count elements.
func (t *Type) ExternalSize(count int) int64 {
	return int64(count) * extBytes(t.typed)
}

func extBytes(nodes []node) int64 {
	var b int64
	for i := range nodes {
		x := &nodes[i]
		if x.leaf() {
			b += x.Count * x.N * int64(ext32[x.Elem.Handle].size)
		} else {
			b += x.Count * extBytes(x.Kids)
		}
	}
	return b
}

// PackExternal writes count elements at src in external32 form to dst,
// which must hold ExternalSize(count) bytes; it returns the bytes written.
func (t *Type) PackExternal(dst []byte, src unsafe.Pointer, count int) int {
	return t.moveExternal(dst, src, count, true)
}

// UnpackExternal reads count elements in external32 form from src into dst.
func (t *Type) UnpackExternal(dst unsafe.Pointer, count int, src []byte) int {
	return t.moveExternal(src, dst, count, false)
}

func (t *Type) moveExternal(buf []byte, mem unsafe.Pointer, count int, pack bool) int {
	pos := 0
	for i := 0; i < count; i++ {
		pos = extWalk(buf, pos, mem, int64(i)*int64(t.Extent), t.typed, pack)
	}
	return pos
}

// extWalk converts the elements of nodes placed at base+off (the address is
// formed only for data, as in copier.walk).
func extWalk(buf []byte, pos int, base unsafe.Pointer, off int64, nodes []node, pack bool) int {
	for i := range nodes {
		x := &nodes[i]
		for k := int64(0); k < x.Count; k++ {
			o := off + x.Off + k*x.Stride
			if !x.leaf() {
				pos = extWalk(buf, pos, base, o, x.Kids, pack)
				continue
			}
			p := unsafe.Add(base, o)
			e := ext32[x.Elem.Handle]
			native := x.Elem.Size / e.parts
			for j := int64(0); j < x.N*int64(e.parts); j++ {
				q := unsafe.Slice((*byte)(unsafe.Add(p, j*int64(native))), native)
				w := buf[pos : pos+e.size/e.parts]
				if pack {
					toExternal(w, q, e.kind)
				} else {
					fromExternal(q, w, e.kind)
				}
				pos += len(w)
			}
		}
	}
	return pos
}

// toExternal converts one native little-endian value q to big-endian w.
func toExternal(w, q []byte, kind uint8) {
	switch {
	case kind == kLongDouble:
		putQuad(w, q)
	case len(w) <= len(q): // same size, or truncated (long, wchar_t)
		for i := range w {
			w[i] = q[len(w)-1-i]
		}
	default:
		panic("datatype: external32 wider than native")
	}
}

// fromExternal converts big-endian w to native q, extending signed values.
func fromExternal(q, w []byte, kind uint8) {
	if kind == kLongDouble {
		getQuad(q, w)
		return
	}
	for i := range w {
		q[i] = w[len(w)-1-i]
	}
	fill := byte(0)
	if kind == kInt && len(w) > 0 && w[0]&0x80 != 0 {
		fill = 0xff
	}
	for i := len(w); i < len(q); i++ {
		q[i] = fill
	}
}

// putQuad converts an x87 80-bit extended value (in 16 bytes) to a
// big-endian IEEE binary128: same sign and biased exponent, the explicit
// integer bit dropped, the 63 fraction bits at the top of the 112.
func putQuad(w, q []byte) {
	mant := binary.LittleEndian.Uint64(q[0:8])
	se := binary.LittleEndian.Uint16(q[8:10])
	frac := mant << 1 // drop the integer bit
	hi := uint64(se)<<48 | frac>>16
	lo := frac << 48
	binary.BigEndian.PutUint64(w[0:8], hi)
	binary.BigEndian.PutUint64(w[8:16], lo)
}

func getQuad(q, w []byte) {
	hi := binary.BigEndian.Uint64(w[0:8])
	lo := binary.BigEndian.Uint64(w[8:16])
	se := uint16(hi >> 48)
	frac := hi<<16 | lo>>48
	mant := frac >> 1
	if se&0x7fff != 0 { // normal (or inf/nan): the integer bit is 1
		mant |= 1 << 63
	}
	clear(q)
	binary.LittleEndian.PutUint64(q[0:8], mant)
	binary.LittleEndian.PutUint16(q[8:10], se)
}
