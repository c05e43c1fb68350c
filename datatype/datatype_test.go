package datatype

import (
	"bytes"
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"gompi/abi"
)

func must(t *Type, err error) *Type {
	if err != nil {
		panic(err)
	}
	return t
}

func TestLayoutsStayCompact(t *testing.T) {
	i := Predefined(abi.Int)
	v := must(Vector(1000000, 1, 2, i))
	v.Commit()
	require.Equal(t, 1, v.Runs(), "a vector is one node whatever its count")
	require.False(t, v.Contig)

	// Contiguous derived types take the predefined path.
	c := must(Contiguous(10, must(Contiguous(3, i))))
	c.Commit()
	require.True(t, c.Contig)
	s := must(Struct([]int{1, 2}, []int64{0, 4}, []*Type{i, i}))
	s.Commit()
	require.True(t, s.Contig, "struct of touching ints is one run")
	// Mixed element types merge into one run once committed.
	m := must(Struct([]int{1, 1}, []int64{0, 4}, []*Type{i, Predefined(abi.Float)}))
	m.Commit()
	require.True(t, m.Contig)
	require.Nil(t, m.Base, "mixed types have no base")
	require.Equal(t, i, c.Base)
	// A vector whose blocks touch is contiguous.
	w := must(Vector(4, 2, 2, i))
	w.Commit()
	require.True(t, w.Contig)
	// Resized with a gap is not.
	r := must(Resized(i, 0, 8))
	r.Commit()
	require.False(t, r.Contig)
	// A struct of pair type keeps its padding out.
	require.False(t, Predefined(abi.ShortInt).Contig)
	require.True(t, Predefined(abi.FloatInt).Contig)
}

func TestReduceShape(t *testing.T) {
	d := Predefined(abi.Double)
	v := must(Vector(3, 2, 5, d))
	base, n, ok := v.ReduceShape()
	require.True(t, ok)
	require.Equal(t, d, base)
	require.Equal(t, 6, n)
	di := Predefined(abi.DoubleInt)
	base, n, ok = must(Contiguous(4, di)).ReduceShape()
	require.True(t, ok)
	require.Equal(t, di, base)
	require.Equal(t, 4, n)
	_, _, ok = must(Struct([]int{1, 1}, []int64{0, 8}, []*Type{d, Predefined(abi.Int)})).ReduceShape()
	require.False(t, ok)
}

func TestRegistryReferences(t *testing.T) {
	before := Live()
	i := Predefined(abi.Int)
	a := must(Contiguous(2, i))
	h := Register(a)
	require.Equal(t, uint32(abi.KindIndirect), abi.HandleKind(h))
	require.Equal(t, uint32(abi.ObjDatatype), abi.HandleObj(h))
	require.Same(t, a, Lookup(h))
	require.Same(t, i, Lookup(abi.Int))
	require.Same(t, Predefined(abi.DoubleInt), Lookup(abi.DoubleInt))
	require.Nil(t, Lookup(abi.DatatypeNull))

	b := must(Vector(2, 1, 2, a)) // holds a
	Register(b)
	a.Release() // the user frees a: b still needs it
	require.Same(t, a, Lookup(h), "a type in use by another stays registered")
	b.Release()
	require.Nil(t, Lookup(h), "freed once nothing refers to it")
	require.Equal(t, before, Live())
	i.Release() // predefined types ignore references
	require.Same(t, i, Lookup(abi.Int))
}

func TestElementsOfPairsAndPartials(t *testing.T) {
	di := Predefined(abi.DoubleInt)
	require.Equal(t, int64(2), di.Elements(12))
	require.Equal(t, int64(1), di.Elements(8))
	require.Equal(t, int64(abi.Undefined), di.Elements(4))
	require.Equal(t, int64(5), di.Elements(12*2+8))
	v := must(Contiguous(2, di))
	require.Equal(t, int64(3), v.Elements(20))
	require.Equal(t, int64(abi.Undefined), v.Elements(10))
	require.Equal(t, int64(20), v.ElementBytes(3))
	two := Predefined(abi.TwoInt)
	require.Equal(t, int64(3), two.Elements(12))
	require.Equal(t, int64(0), must(Contiguous(0, two)).Elements(0))
}

// Every predefined type with an external32 form round-trips, and the
// external form is big-endian in the standard's size.
func TestExternal32RoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, p := range PredefinedTypes() {
		if p.Size == 0 || p.Handle == abi.LongDouble || p.Handle == abi.CLongDoubleComplex || p.Handle == abi.CxxLongDoubleComplex ||
			p.Handle == abi.LongDoubleInt || p.Handle == abi.LongInt {
			continue
		}
		for _, l := range p.typed {
			_, has := ext32[l.Elem.Handle]
			require.True(t, has, "%s has no external32 form", l.Elem.Name)
		}
		e, ok := ext32[p.Handle]
		src := make([]byte, 3*p.Extent)
		r.Read(src)
		if ok && e.kind == kInt && e.size < p.Size {
			// Values must fit the external size to survive: sign-extend.
			for k := 0; k < 3; k++ {
				b := src[k*p.Size : (k+1)*p.Size]
				fill := byte(0)
				if b[e.size-1]&0x80 != 0 {
					fill = 0xff
				}
				for j := e.size; j < p.Size; j++ {
					b[j] = fill
				}
			}
		}
		if ok && e.kind == kUint && e.size < p.Size {
			for k := 0; k < 3; k++ {
				clear(src[k*p.Size+e.size : (k+1)*p.Size])
			}
		}
		n := p.ExternalSize(3)
		buf := make([]byte, n)
		require.Equal(t, int(n), p.PackExternal(buf, unsafe.Pointer(&src[0]), 3), p.Name)
		back := make([]byte, len(src))
		require.Equal(t, int(n), p.UnpackExternal(unsafe.Pointer(&back[0]), 3, buf), p.Name)
		if p.Size != p.Extent || len(p.typed) > 1 { // padding is not data: compare the data only
			packedA, packedB := make([]byte, 3*p.Size), make([]byte, 3*p.Size)
			p.Pack(packedA, unsafe.Pointer(&src[0]), 3, 0)
			p.Pack(packedB, unsafe.Pointer(&back[0]), 3, 0)
			require.Equal(t, packedA, packedB, p.Name)
			continue
		}
		require.Equal(t, src, back, p.Name)
	}
	// Known values.
	x := []int32{1, -2}
	buf := make([]byte, 8)
	Predefined(abi.Int).PackExternal(buf, unsafe.Pointer(&x[0]), 2)
	require.Equal(t, []byte{0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe}, buf)
	l := int64(-3)
	Predefined(abi.Long).PackExternal(buf[:4], unsafe.Pointer(&l), 1)
	require.Equal(t, []byte{0xff, 0xff, 0xff, 0xfd}, buf[:4])
	var back int64
	Predefined(abi.Long).UnpackExternal(unsafe.Pointer(&back), 1, buf[:4])
	require.Equal(t, int64(-3), back)
	f := math.Float64bits(1.0)
	Predefined(abi.Double).PackExternal(buf, unsafe.Pointer(&f), 1)
	require.Equal(t, []byte{0x3f, 0xf0, 0, 0, 0, 0, 0, 0}, buf)
}

// x87 extended values convert exactly to IEEE quad and back.
func TestLongDoubleQuad(t *testing.T) {
	ld := Predefined(abi.LongDouble)
	cases := [][16]byte{}
	one := [16]byte{}
	one[7] = 0x80               // mantissa 1.0 (integer bit)
	one[8], one[9] = 0xff, 0x3f // exponent 0x3fff
	cases = append(cases, one)
	neg := one
	neg[9] |= 0x80
	cases = append(cases, neg)
	var zero [16]byte
	cases = append(cases, zero)
	r := rand.New(rand.NewSource(5))
	for k := 0; k < 100; k++ {
		var v [16]byte
		r.Read(v[:10])
		v[7] |= 0x80 // normal numbers carry the integer bit
		if v[8] == 0 && v[9]&0x7f == 0 {
			v[8] = 1
		}
		cases = append(cases, v)
	}
	for _, c := range cases {
		var q [16]byte
		ld.PackExternal(q[:], unsafe.Pointer(&c), 1)
		var back [16]byte
		ld.UnpackExternal(unsafe.Pointer(&back), 1, q[:])
		require.True(t, bytes.Equal(c[:10], back[:10]), "%x -> %x -> %x", c, q, back)
	}
	var q [16]byte
	ld.PackExternal(q[:], unsafe.Pointer(&one), 1)
	require.Equal(t, [16]byte{0x3f, 0xff}, q, "1.0L is 3fff0000... in binary128")
}

// The darrays of all ranks partition the global array.
func TestDarrayPartitions(t *testing.T) {
	i := Predefined(abi.Int)
	for _, tc := range []struct {
		gs, dist, darg, ps []int
		order              int
	}{
		{[]int{10}, []int{abi.DistributeBlock}, []int{abi.DistributeDfltDarg}, []int{3}, abi.OrderC},
		{[]int{10}, []int{abi.DistributeCyclic}, []int{3}, []int{3}, abi.OrderC},
		{[]int{7, 9}, []int{abi.DistributeCyclic, abi.DistributeBlock}, []int{2, abi.DistributeDfltDarg}, []int{2, 3}, abi.OrderC},
		{[]int{7, 9}, []int{abi.DistributeBlock, abi.DistributeCyclic}, []int{4, abi.DistributeDfltDarg}, []int{2, 2}, abi.OrderFortran},
		{[]int{4, 5, 6}, []int{abi.DistributeNone, abi.DistributeCyclic, abi.DistributeBlock}, []int{abi.DistributeDfltDarg, 1, 2}, []int{1, 2, 3}, abi.OrderC},
	} {
		size, total := 1, 1
		for k := range tc.gs {
			size *= tc.ps[k]
			total *= tc.gs[k]
		}
		seen := make([]int, total)
		for rank := 0; rank < size; rank++ {
			d := must(Darray(size, rank, tc.gs, tc.dist, tc.darg, tc.ps, tc.order, i))
			d.Commit()
			require.Equal(t, 0, d.LB)
			require.Equal(t, 4*total, d.Extent)
			mem := make([]int32, total)
			for k := range mem {
				mem[k] = int32(k)
			}
			out := make([]int32, d.Size/4)
			if len(out) == 0 {
				continue
			}
			d.Pack(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), d.Size), unsafe.Pointer(&mem[0]), 1, 0)
			for k, v := range out {
				seen[v]++
				if k > 0 {
					require.Less(t, out[k-1], v, "darray elements come in memory order")
				}
			}
		}
		for k, n := range seen {
			require.Equal(t, 1, n, "element %d of %v owned %d times", k, tc.gs, n)
		}
	}
}

func TestF90AndMatchSize(t *testing.T) {
	a := must(F90(abi.CombinerF90Real, 6, 30))
	b := must(F90(abi.CombinerF90Real, 6, 30))
	require.Same(t, a, b)
	require.Equal(t, 4, a.Size)
	require.True(t, a.Named)
	require.Same(t, a, Lookup(a.Handle))
	c := must(F90(abi.CombinerF90Complex, 10, abi.Undefined))
	require.Equal(t, 16, c.Size)
	n, _, _, comb := c.Envelope()
	require.Equal(t, 2, n)
	require.Equal(t, abi.CombinerF90Complex, comb)
	_, err := F90(abi.CombinerF90Integer, abi.Undefined, 40)
	require.Error(t, err)
	m := must(MatchSize(abi.TypeclassInteger, 8))
	require.Equal(t, abi.Integer8, m.Handle)
}
