package op

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"gompi/abi"
	"gompi/datatype"
)

// The standard's table (MPI-3.1 5.9.2), written out by handle independently
// of kinds.go, plus the extensions MPICH and Open MPI share: MPI_CHAR and
// MPI_CHARACTER count as C integers, and the logical ops take
// MPI_AINT/OFFSET/COUNT.
var (
	cInts = []int32{abi.Int, abi.Long, abi.Short, abi.UnsignedShort, abi.Unsigned, abi.UnsignedLong,
		abi.LongLongInt, abi.UnsignedLongLong, abi.SignedChar, abi.UnsignedChar, abi.Int8, abi.Int16,
		abi.Int32, abi.Int64, abi.Uint8, abi.Uint16, abi.Uint32, abi.Uint64, abi.Char, abi.Character}
	fInts    = []int32{abi.Integer, abi.Integer1, abi.Integer2, abi.Integer4, abi.Integer8}
	floats   = []int32{abi.Float, abi.Double, abi.Real, abi.DoublePrecision, abi.LongDouble, abi.Real4, abi.Real8, abi.Real16}
	logicals = []int32{abi.Logical, abi.CBool, abi.CxxBool, abi.Logical1, abi.Logical2, abi.Logical4, abi.Logical8}
	complexs = []int32{abi.Complex, abi.DoubleComplex, abi.Complex8, abi.Complex16, abi.CFloatComplex,
		abi.CDoubleComplex, abi.CLongDoubleComplex, abi.CxxFloatComplex, abi.CxxDoubleComplex,
		abi.CxxLongDoubleComplex, abi.Complex32}
	bytes  = []int32{abi.Byte}
	multis = []int32{abi.Aint, abi.Offset, abi.Count}
	pairs  = []int32{abi.FloatInt, abi.DoubleInt, abi.LongInt, abi.TwoInt, abi.ShortInt,
		abi.LongDoubleInt, abi.TwoInteger, abi.TwoReal, abi.TwoDoublePrecision}
)

func join(ls ...[]int32) map[int32]bool {
	m := map[int32]bool{}
	for _, l := range ls {
		for _, h := range l {
			m[h] = true
		}
	}
	return m
}

func allowed(o *Op, h int32) bool {
	switch o {
	case Max, Min:
		return join(cInts, fInts, floats, multis)[h]
	case Sum, Prod:
		return join(cInts, fInts, floats, complexs, multis)[h]
	case Land, Lor, Lxor:
		return join(cInts, logicals, multis)[h]
	case Band, Bor, Bxor:
		return join(cInts, fInts, bytes, multis)[h]
	case Maxloc, Minloc:
		return join(pairs)[h]
	}
	return false // REPLACE, NO_OP: one-sided accumulates only
}

// Element classes of the reference implementation.
const (
	cSigned = iota
	cUnsigned
	cF32
	cF64
	cF80
	cF128
	cBool
	cNone
)

// desc says how the reference reads one element of a predefined type.
type desc struct {
	class   int
	width   int // bytes of one scalar
	complex bool
	// pairs: index class/width and offset
	pair         bool
	iclass, iw   int
	ioff, stride int
}

func descOf(h int32) desc {
	s := func(w int) desc { return desc{class: cSigned, width: w, stride: w} }
	u := func(w int) desc { return desc{class: cUnsigned, width: w, stride: w} }
	switch h {
	case abi.Char, abi.Character, abi.SignedChar, abi.Int8, abi.Integer1, abi.Logical1:
		return s(1)
	case abi.UnsignedChar, abi.Uint8, abi.Byte:
		return u(1)
	case abi.Short, abi.Int16, abi.Integer2, abi.Logical2:
		return s(2)
	case abi.UnsignedShort, abi.Uint16, abi.Real2:
		return u(2)
	case abi.Int, abi.Int32, abi.Integer, abi.Integer4, abi.Logical, abi.Logical4:
		return s(4)
	case abi.Unsigned, abi.Uint32, abi.Complex4:
		return u(4)
	case abi.Long, abi.LongLongInt, abi.Int64, abi.Integer8, abi.Aint, abi.Offset, abi.Count, abi.Logical8:
		return s(8)
	case abi.UnsignedLong, abi.UnsignedLongLong, abi.Uint64:
		return u(8)
	case abi.CBool, abi.CxxBool:
		return desc{class: cBool, width: 1, stride: 1}
	case abi.Float, abi.Real, abi.Real4:
		return desc{class: cF32, width: 4, stride: 4}
	case abi.Double, abi.DoublePrecision, abi.Real8:
		return desc{class: cF64, width: 8, stride: 8}
	case abi.LongDouble:
		return desc{class: cF80, width: 16, stride: 16}
	case abi.Real16:
		return desc{class: cF128, width: 16, stride: 16}
	case abi.Complex32:
		return desc{class: cF128, width: 16, complex: true, stride: 32}
	case abi.Complex, abi.Complex8, abi.CFloatComplex, abi.CxxFloatComplex:
		return desc{class: cF32, width: 4, complex: true, stride: 8}
	case abi.DoubleComplex, abi.Complex16, abi.CDoubleComplex, abi.CxxDoubleComplex:
		return desc{class: cF64, width: 8, complex: true, stride: 16}
	case abi.CLongDoubleComplex, abi.CxxLongDoubleComplex:
		return desc{class: cF80, width: 16, complex: true, stride: 32}
	case abi.FloatInt:
		return desc{class: cF32, width: 4, pair: true, iclass: cSigned, iw: 4, ioff: 4, stride: 8}
	case abi.DoubleInt:
		return desc{class: cF64, width: 8, pair: true, iclass: cSigned, iw: 4, ioff: 8, stride: 16}
	case abi.LongInt:
		return desc{class: cSigned, width: 8, pair: true, iclass: cSigned, iw: 4, ioff: 8, stride: 16}
	case abi.TwoInt, abi.TwoInteger:
		return desc{class: cSigned, width: 4, pair: true, iclass: cSigned, iw: 4, ioff: 4, stride: 8}
	case abi.ShortInt:
		return desc{class: cSigned, width: 2, pair: true, iclass: cSigned, iw: 4, ioff: 4, stride: 8}
	case abi.LongDoubleInt:
		return desc{class: cF80, width: 16, pair: true, iclass: cSigned, iw: 4, ioff: 16, stride: 32}
	case abi.TwoReal:
		return desc{class: cF32, width: 4, pair: true, iclass: cF32, iw: 4, ioff: 4, stride: 8}
	case abi.TwoDoublePrecision:
		return desc{class: cF64, width: 8, pair: true, iclass: cF64, iw: 8, ioff: 8, stride: 16}
	}
	return desc{class: cNone}
}

// scalar is one decoded value: integers as raw bits (sign-extended for
// signed classes), floats as float64 (exact for float32 and our long
// double test values).
type scalar struct {
	i uint64
	f float64
}

func get(b []byte, class, w int) scalar {
	switch class {
	case cF32:
		return scalar{f: float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))}
	case cF64:
		return scalar{f: math.Float64frombits(binary.LittleEndian.Uint64(b))}
	case cF80:
		return scalar{f: f80get(b)}
	case cF128:
		return scalar{f: f128get(b)}
	}
	var v uint64
	for k := w - 1; k >= 0; k-- {
		v = v<<8 | uint64(b[k])
	}
	if class == cSigned && w < 8 && v>>(8*w-1)&1 == 1 {
		v |= ^uint64(0) << (8 * w)
	}
	return scalar{i: v}
}

func put(b []byte, class, w int, s scalar) {
	switch class {
	case cF32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(s.f)))
	case cF64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(s.f))
	case cF80:
		f80put(b, s.f)
	case cF128:
		f128put(b, s.f)
	default:
		for k := 0; k < w; k++ {
			b[k] = byte(s.i >> (8 * k))
		}
	}
}

// f80put stores a float64 as an x87 80-bit extended value (the layout of
// long double on x86-64); f80get reads one back.
func f80put(b []byte, f float64) {
	bits := math.Float64bits(f)
	sign := uint16(bits>>63) << 15
	var exp uint16
	var mant uint64
	switch {
	case f == 0:
	case math.IsInf(f, 0):
		exp, mant = 0x7fff, 1<<63
	default:
		fr, e := math.Frexp(math.Abs(f)) // f = fr * 2^e, fr in [0.5,1)
		mant = uint64(fr * (1 << 64))    // exact: fr has 53 bits
		exp = uint16(e - 1 + 16383)
	}
	binary.LittleEndian.PutUint64(b, mant)
	binary.LittleEndian.PutUint16(b[8:], sign|exp)
}

func f80get(b []byte) float64 {
	mant := binary.LittleEndian.Uint64(b)
	se := binary.LittleEndian.Uint16(b[8:])
	exp := int(se & 0x7fff)
	var f float64
	switch {
	case exp == 0x7fff:
		f = math.Inf(1)
	case mant != 0:
		f = math.Ldexp(float64(mant), exp-16383-63)
	}
	if se>>15 == 1 {
		f = -f
	}
	return f
}

// f128put stores a float64 as IEEE binary128 (gfortran's REAL*16); f128get
// reads one back (exactly, for values with at most 53 significant bits).
func f128put(b []byte, f float64) {
	var hi, lo uint64
	if math.Signbit(f) {
		hi = 1 << 63
	}
	switch {
	case f == 0:
	case math.IsInf(f, 0):
		hi |= 0x7fff << 48
	default:
		fr, e := math.Frexp(math.Abs(f))      // f = fr * 2^e, fr in [0.5,1)
		frac := uint64(fr*(1<<53)) - 1<<52    // 52 fraction bits
		hi |= uint64(e-1+16383)<<48 | frac>>4 // top 48 of the 112 fraction bits
		lo = frac << 60                       // the rest
	}
	binary.LittleEndian.PutUint64(b, lo)
	binary.LittleEndian.PutUint64(b[8:], hi)
}

func f128get(b []byte) float64 {
	lo, hi := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
	exp := int(hi >> 48 & 0x7fff)
	var f float64
	switch {
	case exp == 0x7fff:
		f = math.Inf(1)
	case exp != 0 || hi&(1<<48-1) != 0 || lo != 0:
		m := float64(hi&(1<<48-1)|1<<48) + float64(lo)/(1<<64) // 1.fraction * 2^48
		f = math.Ldexp(m, exp-16383-48)
	}
	if hi>>63 == 1 {
		f = -f
	}
	return f
}

func lt(class, w int, a, b scalar) bool {
	switch class {
	case cSigned:
		return int64(a.i) < int64(b.i)
	case cUnsigned, cBool:
		return a.i < b.i
	}
	return a.f < b.f
}

func eq(class int, a, b scalar) bool {
	if class >= cF32 && class <= cF128 {
		return a.f == b.f
	}
	return a.i == b.i
}

func truth(c bool) scalar {
	if c {
		return scalar{i: 1, f: 1}
	}
	return scalar{}
}

// round brings a float result to the precision of its class.
func round(class int, f float64) float64 {
	if class == cF32 {
		return float64(float32(f))
	}
	return f
}

// refScalar is x op y for one scalar (x from in, y from inout).
func refScalar(o *Op, class, w int, x, y scalar) scalar {
	isF := class >= cF32 && class <= cF128
	switch o {
	case Max:
		if lt(class, w, y, x) {
			return x
		}
		return y
	case Min:
		if lt(class, w, x, y) {
			return x
		}
		return y
	case Sum:
		if isF {
			return scalar{f: round(class, x.f+y.f)}
		}
		return scalar{i: x.i + y.i}
	case Prod:
		if isF {
			return scalar{f: round(class, x.f*y.f)}
		}
		return scalar{i: x.i * y.i}
	case Land:
		return truth(x.i != 0 && y.i != 0)
	case Lor:
		return truth(x.i != 0 || y.i != 0)
	case Lxor:
		return truth((x.i != 0) != (y.i != 0))
	case Band:
		return scalar{i: x.i & y.i}
	case Bor:
		return scalar{i: x.i | y.i}
	case Bxor:
		return scalar{i: x.i ^ y.i}
	}
	panic("no scalar op " + o.Name)
}

// reference computes the expected inout for count elements of type h.
func reference(o *Op, h int32, in, inout []byte, count int) []byte {
	d := descOf(h)
	out := append([]byte(nil), inout...)
	switch o {
	case NoOp:
		return out
	case Replace:
		copy(out, in)
		return out
	}
	for e := 0; e < count; e++ {
		a, b, r := in[e*d.stride:], inout[e*d.stride:], out[e*d.stride:]
		switch {
		case d.pair:
			u, v := get(a, d.class, d.width), get(b, d.class, d.width)
			i, j := get(a[d.ioff:], d.iclass, d.iw), get(b[d.ioff:], d.iclass, d.iw)
			better := lt(d.class, d.width, v, u) // u > v
			if o == Minloc {
				better = lt(d.class, d.width, u, v)
			}
			switch {
			case better:
				put(r, d.class, d.width, u)
				put(r[d.ioff:], d.iclass, d.iw, i)
			case eq(d.class, u, v) && lt(d.iclass, d.iw, i, j):
				put(r[d.ioff:], d.iclass, d.iw, i)
			}
		case d.complex:
			w := d.width
			ar, ai := get(a, d.class, w), get(a[w:], d.class, w)
			br, bi := get(b, d.class, w), get(b[w:], d.class, w)
			var re, im float64
			if o == Sum {
				re, im = ar.f+br.f, ai.f+bi.f
			} else {
				re = round(d.class, ar.f*br.f) - round(d.class, ai.f*bi.f)
				im = round(d.class, ar.f*bi.f) + round(d.class, ai.f*br.f)
			}
			put(r, d.class, w, scalar{f: round(d.class, re)})
			put(r[w:], d.class, w, scalar{f: round(d.class, im)})
		default:
			put(r, d.class, d.width, refScalar(o, d.class, d.width, get(a, d.class, d.width), get(b, d.class, d.width)))
		}
	}
	return out
}

// fill writes count random elements of type h: full-range integers (so sums
// and products overflow and wrap), floats with the edge cases first, small
// integers where the reference computes in float64 (long double, binary128,
// complex products), 0/1 for booleans, and pairs with many ties.
func fill(rng *rand.Rand, h int32, buf []byte, count int, edges []float64) {
	d := descOf(h)
	rnd := func(b []byte, class, w int, e int) {
		switch class {
		case cSigned, cUnsigned:
			if d.pair {
				put(b, class, w, scalar{i: uint64(rng.Intn(5) - 2)})
				return
			}
			put(b, class, w, scalar{i: rng.Uint64()})
		case cBool:
			put(b, class, w, scalar{i: uint64(rng.Intn(2))})
		case cF32, cF64:
			switch {
			case d.pair:
				put(b, class, w, scalar{f: float64(rng.Intn(5) - 2)})
			case d.complex:
				put(b, class, w, scalar{f: float64(rng.Intn(200) - 100)})
			case e < len(edges):
				put(b, class, w, scalar{f: round(class, edges[e])})
			default:
				put(b, class, w, scalar{f: round(class, rng.NormFloat64()*math.Pow(10, float64(rng.Intn(20)-10)))})
			}
		case cF80, cF128:
			v := float64(rng.Intn(200) - 100)
			if d.pair {
				v = float64(rng.Intn(5) - 2)
			}
			put(b, class, w, scalar{f: v})
		}
	}
	for e := 0; e < count; e++ {
		b := buf[e*d.stride:]
		rnd(b, d.class, d.width, e)
		if d.complex {
			rnd(b[d.width:], d.class, d.width, len(edges))
		}
		if d.pair {
			rnd(b[d.ioff:], d.iclass, d.iw, e)
		}
	}
}

// allOps is every predefined op (a function: the ops are made in init).
func allOps() []*Op {
	return []*Op{Max, Min, Sum, Prod, Land, Band, Lor, Bor, Lxor, Bxor, Minloc, Maxloc, Replace, NoOp}
}

// TestEveryOpEveryType checks each predefined op on each predefined type:
// MPI_ERR_OP exactly where the standard forbids the pair (for reductions, and
// for accumulates, which add REPLACE and NO_OP), otherwise the result against
// the reference, on counts that take the Go kernels and counts that take the
// C kernels.
func TestEveryOpEveryType(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	inEdges := []float64{math.Inf(1), math.Copysign(0, -1), 0, 1e308, -1e308, 5e-324, math.MaxFloat64, 3e38, -2}
	ioEdges := []float64{1, 0, math.Copysign(0, -1), 1e308, 10, 0.5, -math.MaxFloat64, 3e38, math.Inf(-1)}
	for _, dt := range datatype.PredefinedTypes() {
		for _, o := range allOps() {
			want := allowed(o, dt.Handle)
			wantAcc := want || (o == Replace || o == NoOp) && dt.Size > 0
			class := func(ok bool) int {
				if ok {
					return 0
				}
				return abi.ErrOp
			}
			require.Equal(t, class(want), o.Check(dt), "reduction: %s on %s", o.Name, dt.Name)
			require.Equal(t, class(wantAcc), o.CheckAccumulate(dt), "accumulate: %s on %s", o.Name, dt.Name)
			if !wantAcc {
				continue
			}
			for _, count := range []int{1, 3, 17, 1000} {
				n := count * dt.Extent
				in, io := make([]byte, n), make([]byte, n)
				fill(rng, dt.Handle, in, count, inEdges)
				fill(rng, dt.Handle, io, count, ioEdges)
				want := reference(o, dt.Handle, in, io, count)
				o.Apply(unsafe.Pointer(&in[0]), unsafe.Pointer(&io[0]), count, dt)
				d := descOf(dt.Handle)
				for e := 0; e < count; e++ {
					// Compare the data bytes only: long double padding is
					// left as it was.
					for _, r := range dataRanges(d) {
						lo, hi := e*d.stride+r[0], e*d.stride+r[1]
						require.Equal(t, want[lo:hi], io[lo:hi], "%s on %s, count %d, element %d", o.Name, dt.Name, count, e)
					}
				}
			}
		}
	}
}

// dataRanges lists the byte ranges of one element that hold data.
func dataRanges(d desc) [][2]int {
	vw := d.width
	if d.class == cF80 {
		vw = 10
	}
	switch {
	case d.class == cNone:
		return [][2]int{{0, d.stride}}
	case d.pair:
		return [][2]int{{0, vw}, {d.ioff, d.ioff + d.iw}}
	case d.complex:
		return [][2]int{{0, vw}, {d.width, d.width + vw}}
	}
	return [][2]int{{0, vw}}
}

func TestOverflowWrapsAndTies(t *testing.T) {
	i32 := datatype.Predefined(abi.Int)
	for _, n := range []int{1, 500} { // Go and C kernels
		a, b := make([]int32, n), make([]int32, n)
		for i := range a {
			a[i], b[i] = math.MaxInt32, 1
		}
		Sum.Apply(unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n, i32)
		require.Equal(t, int32(math.MinInt32), b[n-1])
		for i := range a {
			a[i], b[i] = 65536, 65536
		}
		Prod.Apply(unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n, i32)
		require.Equal(t, int32(0), b[n-1])
	}
	// MAXLOC/MINLOC: equal values keep the smaller index, whichever side has it.
	type di struct {
		v float64
		i int32
	}
	dt := datatype.Predefined(abi.DoubleInt)
	for _, n := range []int{2, 100} {
		in, io := make([]di, n), make([]di, n)
		for k := 0; k < n; k += 2 {
			in[k], io[k] = di{7, 9}, di{7, 3}
			in[k+1], io[k+1] = di{7, 2}, di{7, 5}
		}
		Maxloc.Apply(unsafe.Pointer(&in[0]), unsafe.Pointer(&io[0]), n, dt)
		require.Equal(t, di{7, 3}, io[n-2])
		require.Equal(t, di{7, 2}, io[n-1])
		io[0], io[1] = di{8, 9}, di{-1, 9}
		Minloc.Apply(unsafe.Pointer(&in[0]), unsafe.Pointer(&io[0]), 2, dt)
		require.Equal(t, di{7, 9}, io[0])
		require.Equal(t, di{-1, 9}, io[1])
	}
}

// committer returns a function that checks a constructor's error and
// commits its type.
func committer(t *testing.T) func(*datatype.Type, error) *datatype.Type {
	return func(dt *datatype.Type, err error) *datatype.Type {
		t.Helper()
		require.NoError(t, err)
		dt.Commit()
		return dt
	}
}

// TestDerivedTypes reduces derived types made of one predefined type:
// contiguous ones in place, strided ones through packing (only the data
// positions of inout change), pairs with padding in both forms, and mixed
// types rejected.
func TestDerivedTypes(t *testing.T) {
	commit := committer(t)
	dbl := datatype.Predefined(abi.Double)
	four := commit(datatype.Contiguous(4, dbl))
	require.True(t, four.Contig)
	require.Equal(t, 0, Sum.Check(four))
	require.Equal(t, abi.ErrOp, Band.Check(four))
	for _, count := range []int{1, 100} { // Go and C kernels
		a, b := make([]float64, 4*count), make([]float64, 4*count)
		for i := range a {
			a[i], b[i] = float64(i), 1
		}
		Sum.Apply(unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), count, four)
		for i := range b {
			require.Equal(t, float64(i+1), b[i])
		}
	}

	// Vector: 3 blocks of 2 ints, stride 4; the gaps must stay untouched.
	i32 := datatype.Predefined(abi.Int)
	vec := commit(datatype.Vector(3, 2, 4, i32))
	require.False(t, vec.Contig)
	const count = 5
	ext := vec.Extent / 4
	a, b := make([]int32, count*ext+4), make([]int32, count*ext+4)
	for i := range a {
		a[i], b[i] = int32(i), -1
	}
	for _, o := range []*Op{Max, Replace} {
		c := append([]int32(nil), b...)
		o.Apply(unsafe.Pointer(&a[0]), unsafe.Pointer(&c[0]), count, vec)
		for i := range c {
			inData := i < count*ext && i%ext < 10 && i%ext%4 < 2
			want := int32(-1)
			if inData {
				want = a[i]
			}
			require.Equal(t, want, c[i], "%s, int %d", o.Name, i)
		}
	}

	// MPI_DOUBLE_INT (12 bytes of data in 16): in memory, packed, in a
	// contiguous derived type (non-contiguous because of the padding).
	type di struct {
		v float64
		i int32
	}
	dint := datatype.Predefined(abi.DoubleInt)
	in, io := []di{{1, 5}, {2, 5}, {3, 5}}, []di{{1, 4}, {3, 1}, {3, 6}}
	three := commit(datatype.Contiguous(3, dint))
	require.Equal(t, 0, Maxloc.Check(three))
	got := append([]di(nil), io...)
	Maxloc.Apply(unsafe.Pointer(&in[0]), unsafe.Pointer(&got[0]), 1, three)
	require.Equal(t, []di{{1, 4}, {3, 1}, {3, 5}}, got)
	pack := func(xs []di) []byte {
		out := make([]byte, 0, 12*len(xs))
		for _, x := range xs {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x.v))
			out = binary.LittleEndian.AppendUint32(out, uint32(x.i))
		}
		return out
	}
	pin, pio := pack(in), pack(io)
	Maxloc.ApplyPacked(unsafe.Pointer(&pin[0]), unsafe.Pointer(&pio[0]), 3, dint)
	require.Equal(t, pack([]di{{1, 4}, {3, 1}, {3, 5}}), pio)
	Minloc.ApplyPacked(unsafe.Pointer(&pin[0]), unsafe.Pointer(&pio[0]), 3, dint)
	require.Equal(t, pack([]di{{1, 4}, {2, 5}, {3, 5}}), pio)

	// A struct of an int and a double mixes types: only REPLACE and NO_OP.
	mixed := commit(datatype.Struct([]int{1, 1}, []int64{0, 8}, []*datatype.Type{i32, dbl}))
	require.Equal(t, abi.ErrOp, Sum.Check(mixed))
	require.Equal(t, abi.ErrOp, Replace.Check(mixed))
	require.Equal(t, abi.ErrOp, Replace.CheckAccumulate(mixed))
	require.Equal(t, 0, Replace.CheckAccumulate(vec))
	require.Equal(t, 0, NoOp.CheckAccumulate(three))
	require.Equal(t, abi.ErrType, Sum.Check(nil))
	require.Equal(t, abi.ErrType, Sum.CheckAccumulate(nil))
}

func TestLookupHandles(t *testing.T) {
	for i, o := range allOps() {
		_ = i
		require.Same(t, o, Lookup(o.Handle))
		require.True(t, o.Predefined())
		require.True(t, o.Commute)
	}
	require.Equal(t, int32(0x58000003), Sum.Handle)
	require.Equal(t, "MPI_SUM", Sum.Name)
	for _, h := range []int32{abi.OpNull, 0x58000000, 0x5800000f, abi.Double, abi.CommWorld, 0, -1,
		abi.MakeHandle(abi.KindDirect, abi.ObjOp, 1<<20)} {
		require.Nil(t, Lookup(h), "handle %#x", uint32(h))
	}
}

func TestUserOps(t *testing.T) {
	// Non-commutative: inout = in - inout (MPI order: in op inout).
	var seenDT int32
	sub := NewUser(func(in, inout unsafe.Pointer, count int, dt int32) {
		seenDT = dt
		a, b := unsafe.Slice((*int32)(in), count), unsafe.Slice((*int32)(inout), count)
		for i := range b {
			b[i] = a[i] - b[i]
		}
	}, false)
	require.False(t, sub.Commute)
	require.False(t, sub.Predefined())
	require.Equal(t, uint32(abi.KindDirect), abi.HandleKind(sub.Handle))
	require.Equal(t, uint32(abi.ObjOp), abi.HandleObj(sub.Handle))
	require.Same(t, sub, Lookup(sub.Handle))
	i32 := datatype.Predefined(abi.Int)
	require.Equal(t, 0, sub.Check(i32))
	require.Equal(t, abi.ErrOp, sub.CheckAccumulate(i32), "accumulates take predefined ops only")
	a, b := []int32{10, 20}, []int32{1, 2}
	sub.Apply(unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), 2, i32)
	require.Equal(t, []int32{9, 18}, b)
	require.Equal(t, abi.Int, seenDT)

	other := NewUser(func(in, inout unsafe.Pointer, count int, dt int32) {}, true)
	require.NotEqual(t, sub.Handle, other.Handle)
	require.Equal(t, 0, Free(sub))
	require.Nil(t, Lookup(sub.Handle))
	require.Equal(t, abi.ErrOp, Free(sub), "double free")
	require.Same(t, other, Lookup(other.Handle))
	again := NewUser(func(in, inout unsafe.Pointer, count int, dt int32) {}, true)
	require.Equal(t, sub.Handle, again.Handle, "freed handles are reused")
	require.Equal(t, 0, Free(again))
	require.Equal(t, 0, Free(other))
	require.Equal(t, abi.ErrOp, Free(Sum))
	require.Equal(t, abi.ErrOp, Free(nil))
}

// TestApplyDoesNotAllocate: reductions of predefined types, and repeated
// strided ones (staging buffers are reused), allocate nothing.
func TestApplyDoesNotAllocate(t *testing.T) {
	dt := datatype.Predefined(abi.Double)
	x, y := 1.0, 2.0
	allocs := testing.AllocsPerRun(100, func() {
		Sum.Apply(unsafe.Pointer(&x), unsafe.Pointer(&y), 1, dt)
		Maxloc.Check(dt)
	})
	require.Zero(t, allocs)
	vec, err := datatype.Vector(4, 1, 2, datatype.Predefined(abi.Int))
	require.NoError(t, err)
	vec.Commit()
	a, b := make([]int32, 64), make([]int32, 64)
	allocs = testing.AllocsPerRun(100, func() {
		Max.Apply(unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), 8, vec)
	})
	if raceOn {
		// The race detector's sync.Pool drops items at random: at most the
		// two staging buffers (a slice header and its array each) are made again.
		require.LessOrEqual(t, allocs, 4.0)
		return
	}
	require.Zero(t, allocs)
}

func Example_tier() {
	fmt.Println(Tier >= 0)
	// Output: true
}

// TestUserOpsConcurrent: creating, looking up and freeing user ops from
// several goroutines at once (MPI_THREAD_MULTIPLE) keeps every live handle
// resolving to its own op (run with -race).
func TestUserOpsConcurrent(t *testing.T) {
	done := make(chan error)
	for g := 0; g < 4; g++ {
		go func() {
			for i := 0; i < 500; i++ {
				o := NewUser(func(in, inout unsafe.Pointer, count int, dt int32) {}, i%2 == 0)
				if Lookup(o.Handle) != o {
					done <- fmt.Errorf("handle %#x does not resolve to its op", uint32(o.Handle))
					return
				}
				Lookup(Sum.Handle)
				if Free(o) != 0 {
					done <- fmt.Errorf("free of %#x failed", uint32(o.Handle))
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		require.NoError(t, <-done)
	}
}

// TestFastPathMatchesCheck: the C fast path of MPI_Reduce_local accepts
// exactly the (predefined op, builtin type) pairs Check accepts, minus
// REPLACE/NO_OP and types without a C kernel, and computes the same result.
func TestFastPathMatchesCheck(t *testing.T) {
	buf := make([]byte, 64)
	for _, dt := range datatype.PredefinedTypes() {
		for _, o := range allOps() {
			a, b := make([]byte, 64), make([]byte, 64)
			for i := range a {
				a[i], b[i] = byte(i%2), byte(i%3%2)
			}
			want := append([]byte(nil), b...)
			got := reduceBuiltin(o.Handle, dt.Handle, unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), 1)
			builtin := abi.HandleKind(dt.Handle) == abi.KindBuiltin
			if builtin && o.Check(dt) == 0 {
				require.Equal(t, 0, got, "%s on %s must take the C path", o.Name, dt.Name)
				o.Apply(unsafe.Pointer(&a[0]), unsafe.Pointer(&want[0]), 1, dt)
				require.Equal(t, want, b, "%s on %s", o.Name, dt.Name)
			} else {
				require.Equal(t, -1, got, "%s on %s must go to Go", o.Name, dt.Name)
				require.Equal(t, want, b, "%s on %s changed data", o.Name, dt.Name)
			}
		}
	}
	// Forged handles: right index, wrong size bits; not a datatype; op NULL.
	p := unsafe.Pointer(&buf[0])
	require.Equal(t, -1, reduceBuiltin(abi.OpSum, abi.Int^0x0100, p, unsafe.Pointer(&buf[8]), 1))
	require.Equal(t, -1, reduceBuiltin(abi.OpSum, abi.CommWorld, p, unsafe.Pointer(&buf[8]), 1))
	require.Equal(t, -1, reduceBuiltin(abi.OpNull, abi.Int, p, unsafe.Pointer(&buf[8]), 1))
	require.Equal(t, -1, reduceBuiltin(0, 0, p, unsafe.Pointer(&buf[8]), 1))
}

// TestThreeOperandKernels: out = a op b gives what the two-operand kernel
// leaves in b, for every valid C pair, every tier this CPU runs, and a
// count that leaves a remainder after the vector loop; a and b untouched.
// out starts as b, so elements where b wins (max, min...) match whatever
// the kernel does; the others do not.
func TestThreeOperandKernels(t *testing.T) {
	defer setTier(Tier)
	const count = 37
	for tier := 0; tier <= Tier; tier++ {
		setTier(tier)
		for _, dt := range datatype.PredefinedTypes() {
			for _, o := range allOps() {
				n := count * dt.Extent
				if n == 0 {
					continue
				}
				a, b, out := make([]byte, n), make([]byte, n), make([]byte, n)
				for i := range a {
					a[i], b[i] = byte(i*7+1), byte(i*13+5)
				}
				copy(out, b) // padding (long double) is not data: both kernels leave it
				a0, b0 := append([]byte(nil), a...), append([]byte(nil), b...)
				got := reduce3Builtin(o.Handle, dt.Handle, unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]),
					unsafe.Pointer(&out[0]), count)
				want := append([]byte(nil), b...)
				if reduceBuiltin(o.Handle, dt.Handle, unsafe.Pointer(&a[0]), unsafe.Pointer(&want[0]), count) != 0 {
					require.Equal(t, -1, got, "%s on %s", o.Name, dt.Name)
					continue
				}
				require.Equal(t, 0, got, "%s on %s", o.Name, dt.Name)
				require.Equal(t, want, out, "tier %d: %s on %s", tier, o.Name, dt.Name)
				require.Equal(t, a0, a, "%s on %s changed a", o.Name, dt.Name)
				require.Equal(t, b0, b, "%s on %s changed b", o.Name, dt.Name)
			}
		}
	}
}

// TestApplyInto: out = a op b equals b after Apply(a, b) for predefined
// and contiguous types above the Go kernels' size; user ops, REPLACE and
// small counts are declined and leave out alone.
func TestApplyInto(t *testing.T) {
	four, err := datatype.Contiguous(4, datatype.Predefined(abi.Double))
	require.NoError(t, err)
	four.Commit()
	for _, c := range []struct {
		dt    *datatype.Type
		o     *Op
		count int
		ok    bool
	}{
		{datatype.Predefined(abi.Double), Sum, 1000, true},
		{datatype.Predefined(abi.Int), Max, 1001, true},
		{four, Prod, 300, true},
		{datatype.Predefined(abi.Double), Sum, 8, false}, // the Go kernels' size
		{datatype.Predefined(abi.Double), Replace, 1000, false},
	} {
		n := c.count * c.dt.Size
		a, b, out := make([]byte, n), make([]byte, n), make([]byte, n)
		for i := range a {
			a[i], b[i], out[i] = byte(i*3+1), byte(i*5+2), 0xee
		}
		want := append([]byte(nil), b...)
		got := c.o.ApplyInto(unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), unsafe.Pointer(&out[0]), c.count, c.dt)
		require.Equal(t, c.ok, got, "%s on %s x%d", c.o.Name, c.dt.Name, c.count)
		if !c.ok {
			for _, x := range out {
				require.Equal(t, byte(0xee), x, "declined, yet out was written")
			}
			continue
		}
		c.o.Apply(unsafe.Pointer(&a[0]), unsafe.Pointer(&want[0]), c.count, c.dt)
		require.Equal(t, want, out, "%s on %s", c.o.Name, c.dt.Name)
	}
	user := NewUser(func(in, inout unsafe.Pointer, n int, _ int32) {}, true)
	x := make([]byte, 8000)
	require.False(t, user.ApplyInto(unsafe.Pointer(&x[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&x[0]), 1000,
		datatype.Predefined(abi.Double)))
}
