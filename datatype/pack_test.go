package datatype

import (
	"fmt"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"gompi/abi"
)

// The reference model: a type is its typemap written out entry by entry
// (displacement and size of each basic element, in order) with its bounds,
// computed straight from the standard's definitions.
type ent struct{ disp, size int64 }

type ref struct {
	ents   []ent
	lb, ub int64
	align  int64
	desc   string
}

func (r *ref) extent() int64 { return r.ub - r.lb }

// copies lays out the given child copies (displacements) in order.
func refOf(desc string, child *ref, shifts []int64) *ref {
	out := &ref{desc: desc, align: child.align}
	first := true
	for _, s := range shifts {
		for _, e := range child.ents {
			out.ents = append(out.ents, ent{e.disp + s, e.size})
		}
		lo, hi := s+child.lb, s+child.ub
		if first {
			out.lb, out.ub, first = lo, hi, false
		} else {
			out.lb, out.ub = min(out.lb, lo), max(out.ub, hi)
		}
	}
	return out
}

type gen struct {
	r      *rand.Rand
	basics []int32 // predefined types at the leaves (default: basics)
}

var basics = []int32{abi.Int, abi.Double, abi.Char, abi.Short, abi.DoubleInt, abi.ShortInt, abi.LongDouble}

func (g *gen) basic() (*Type, *ref) {
	b := g.basics
	if b == nil {
		b = basics
	}
	h := b[g.r.Intn(len(b))]
	t := Predefined(h)
	r := &ref{desc: t.Name, lb: 0, ub: int64(t.Extent), align: int64(t.align)}
	if m, ok := pairMembers[h]; ok {
		for _, e := range m {
			r.ents = append(r.ents, ent{e.off, int64(Predefined(e.h).Size)})
		}
	} else {
		r.ents = []ent{{0, int64(t.Size)}}
	}
	return t, r
}

func (g *gen) n(lo, hi int) int { return lo + g.r.Intn(hi-lo+1) }

// make builds a random type tree depth levels deep, with its reference.
func (g *gen) make(depth int) (*Type, *ref) {
	if depth == 0 {
		return g.basic()
	}
	old, or := g.make(depth - 1)
	e := or.extent()
	var t *Type
	var err error
	var r *ref
	switch k := g.r.Intn(12); k {
	case 0:
		n := g.n(0, 3)
		var sh []int64
		for i := 0; i < n; i++ {
			sh = append(sh, int64(i)*e)
		}
		t, err = Contiguous(n, old)
		r = refOf(fmt.Sprintf("contig(%d,%s)", n, or.desc), or, sh)
	case 1, 2:
		cnt, bl, st := g.n(0, 3), g.n(0, 3), g.n(-4, 5)
		var sh []int64
		for i := 0; i < cnt; i++ {
			for j := 0; j < bl; j++ {
				sh = append(sh, int64(i*st)*e+int64(j)*e)
			}
		}
		if k == 1 {
			t, err = Vector(cnt, bl, st, old)
			r = refOf(fmt.Sprintf("vector(%d,%d,%d,%s)", cnt, bl, st, or.desc), or, sh)
		} else {
			hs := int64(st)*e + int64(g.n(-3, 3))
			sh = sh[:0]
			for i := 0; i < cnt; i++ {
				for j := 0; j < bl; j++ {
					sh = append(sh, int64(i)*hs+int64(j)*e)
				}
			}
			t, err = Hvector(cnt, bl, hs, old)
			r = refOf(fmt.Sprintf("hvector(%d,%d,%d,%s)", cnt, bl, hs, or.desc), or, sh)
		}
	case 3, 4:
		cnt := g.n(0, 4)
		bls, ds := make([]int, cnt), make([]int, cnt)
		hd := make([]int64, cnt)
		var sh []int64
		for i := range bls {
			bls[i], ds[i] = g.n(0, 3), g.n(-3, 8)
			hd[i] = int64(ds[i])*e + int64(g.n(-2, 2))
			if k == 3 {
				hd[i] = int64(ds[i]) * e
			}
			for j := 0; j < bls[i]; j++ {
				sh = append(sh, hd[i]+int64(j)*e)
			}
		}
		if k == 3 {
			t, err = Indexed(bls, ds, old)
		} else {
			t, err = Hindexed(bls, hd, old)
		}
		r = refOf(fmt.Sprintf("indexed%d(%v,%v,%s)", k, bls, hd, or.desc), or, sh)
	case 5, 6:
		cnt, bl := g.n(0, 4), g.n(0, 3)
		ds, hd := make([]int, cnt), make([]int64, cnt)
		var sh []int64
		for i := range ds {
			ds[i] = g.n(-3, 8)
			hd[i] = int64(ds[i]) * e
			if k == 6 {
				hd[i] += int64(g.n(-2, 2))
			}
			for j := 0; j < bl; j++ {
				sh = append(sh, hd[i]+int64(j)*e)
			}
		}
		if k == 5 {
			t, err = IndexedBlock(bl, ds, old)
		} else {
			t, err = HindexedBlock(bl, hd, old)
		}
		r = refOf(fmt.Sprintf("iblock%d(%d,%v,%s)", k, bl, hd, or.desc), or, sh)
	case 7, 8:
		// A struct of the old type and one or two fresh types.
		types := []*Type{old}
		refs := []*ref{or}
		for i := g.n(0, 2); i > 0; i-- {
			nt, nr := g.make(g.r.Intn(depth))
			types, refs = append(types, nt), append(refs, nr)
		}
		g.r.Shuffle(len(types), func(i, j int) { types[i], types[j] = types[j], types[i]; refs[i], refs[j] = refs[j], refs[i] })
		bls, ds := make([]int, len(types)), make([]int64, len(types))
		r = &ref{desc: "struct(", align: 1}
		first := true
		for i := range types {
			bls[i], ds[i] = g.n(0, 2), int64(g.n(-8, 40))
			var sh []int64
			for j := 0; j < bls[i]; j++ {
				sh = append(sh, ds[i]+int64(j)*refs[i].extent())
			}
			c := refOf("", refs[i], sh)
			r.ents = append(r.ents, c.ents...)
			r.align = max(r.align, refs[i].align)
			r.desc += fmt.Sprintf("%d@%d %s,", bls[i], ds[i], refs[i].desc)
			if len(sh) == 0 {
				continue
			}
			if first {
				r.lb, r.ub, first = c.lb, c.ub, false
			} else {
				r.lb, r.ub = min(r.lb, c.lb), max(r.ub, c.ub)
			}
		}
		if ext := r.ub - r.lb; ext%r.align != 0 {
			r.ub += r.align - ((ext%r.align)+r.align)%r.align
		}
		r.desc += ")"
		t, err = Struct(bls, ds, types)
	case 9:
		lb, ext := int64(g.n(-8, 8)), int64(g.n(1, 40))
		t, err = Resized(old, lb, ext)
		r = &ref{ents: or.ents, lb: lb, ub: lb + ext, align: or.align, desc: fmt.Sprintf("resized(%d,%d,%s)", lb, ext, or.desc)}
	case 10:
		t, err = Dup(old)
		r = &ref{ents: or.ents, lb: or.lb, ub: or.ub, align: or.align, desc: "dup(" + or.desc + ")"}
	case 11:
		nd := g.n(1, 3)
		sizes, subs, starts := make([]int, nd), make([]int, nd), make([]int, nd)
		for i := range sizes {
			sizes[i] = g.n(1, 4)
			subs[i] = g.n(0, sizes[i])
			starts[i] = g.n(0, sizes[i]-subs[i])
		}
		order := abi.OrderC
		if g.r.Intn(2) == 0 {
			order = abi.OrderFortran
		}
		t, err = Subarray(sizes, subs, starts, order, old)
		r = refSubarray(sizes, subs, starts, order, or)
	}
	if err != nil {
		panic(err)
	}
	return t, r
}

// refSubarray enumerates the sub-block in memory order of the array.
func refSubarray(sizes, subs, starts []int, order int, or *ref) *ref {
	nd := len(sizes)
	idx := make([]int, nd)
	var sh []int64
	total := 1
	for _, s := range subs {
		total *= s
	}
	for c := 0; c < total; c++ {
		// idx counts in the array's order: the last dimension fastest for C.
		rem := c
		for k := 0; k < nd; k++ {
			d := nd - 1 - k
			if order == abi.OrderFortran {
				d = k
			}
			idx[d] = starts[d] + rem%subs[d]
			rem /= subs[d]
		}
		off, mul := int64(0), int64(1)
		for k := 0; k < nd; k++ {
			d := nd - 1 - k
			if order == abi.OrderFortran {
				d = k
			}
			off += int64(idx[d]) * mul
			mul *= int64(sizes[d])
		}
		sh = append(sh, off*or.extent())
	}
	r := refOf("subarray", or, sh)
	n := int64(1)
	for _, s := range sizes {
		n *= int64(s)
	}
	r.lb, r.ub = 0, n*or.extent()
	return r
}

// memory is a buffer that covers every byte count copies of r touch.
type memory struct {
	buf    []byte
	origin int64
}

func cover(r *ref, count int) memory {
	lo, hi := int64(0), int64(1)
	for c := 0; c < count; c++ {
		for _, e := range r.ents {
			d := int64(c)*r.extent() + e.disp
			lo, hi = min(lo, d), max(hi, d+e.size)
		}
	}
	return memory{buf: make([]byte, hi-lo+16), origin: -lo + 8}
}

func (m memory) at(off int64) unsafe.Pointer {
	return unsafe.Pointer(&m.buf[m.origin+off])
}

func refPack(r *ref, m memory, count int) []byte {
	var out []byte
	for c := 0; c < count; c++ {
		for _, e := range r.ents {
			d := m.origin + int64(c)*r.extent() + e.disp
			out = append(out, m.buf[d:d+e.size]...)
		}
	}
	return out
}

func refUnpack(r *ref, m memory, count int, packed []byte) {
	pos := int64(0)
	for c := 0; c < count; c++ {
		for _, e := range r.ents {
			if pos >= int64(len(packed)) {
				return
			}
			d := m.origin + int64(c)*r.extent() + e.disp
			n := min(e.size, int64(len(packed))-pos)
			copy(m.buf[d:d+n], packed[pos:pos+n])
			pos += n
		}
	}
}

func refElements(r *ref, count int, bytes int64) int64 {
	var n, pos int64
	for c := 0; c < count+1; c++ {
		for _, e := range r.ents {
			if pos == bytes {
				return n
			}
			if pos+e.size > bytes {
				return abi.Undefined
			}
			pos += e.size
			n++
		}
	}
	return n
}

func TestPackMatchesReference(t *testing.T) {
	g := &gen{r: rand.New(rand.NewSource(1))}
	for iter := 0; iter < 20000; iter++ {
		depth := 3 + g.r.Intn(2)
		ty, r := g.make(depth)
		var size, tlo, thi int64
		for i, e := range r.ents {
			size += e.size
			if i == 0 {
				tlo, thi = e.disp, e.disp+e.size
			}
			tlo, thi = min(tlo, e.disp), max(thi, e.disp+e.size)
		}
		require.Equal(t, size, int64(ty.Size), "size of %s", r.desc)
		require.Equal(t, r.lb, int64(ty.LB), "lb of %s", r.desc)
		require.Equal(t, r.extent(), int64(ty.Extent), "extent of %s", r.desc)
		if size > 0 {
			require.Equal(t, tlo, int64(ty.TrueLB), "true lb of %s", r.desc)
			require.Equal(t, thi-tlo, int64(ty.TrueExtent), "true extent of %s", r.desc)
		}
		require.Equal(t, int64(len(r.ents)), ty.Elems, "elements of %s", r.desc)
		if iter%2 == 0 {
			ty.Commit()
		}
		count := g.n(1, 3)
		m := cover(r, count)
		g.r.Read(m.buf)
		want := refPack(r, m, count)
		got := make([]byte, len(want)+5)
		require.Equal(t, len(want), ty.Pack(got, m.at(0), count, 0), "pack length of %s", r.desc)
		require.Equal(t, string(want), string(got[:len(want)]), "pack of %s x%d", r.desc, count)
		// Partial packs resume anywhere in the stream.
		if len(want) > 0 {
			skip := g.r.Intn(len(want))
			l := g.r.Intn(len(want) - skip + 1)
			part := make([]byte, l)
			require.Equal(t, l, ty.Pack(part, m.at(0), count, int64(skip)))
			require.Equal(t, string(want[skip:skip+l]), string(part), "pack [%d,+%d) of %s", skip, l, r.desc)
		}
		// Unpack of the whole stream and of a prefix (a short receive).
		for _, l := range []int{len(want), g.r.Intn(len(want) + 1)} {
			m1, m2 := cover(r, count), cover(r, count)
			require.Equal(t, l, ty.Unpack(m1.at(0), count, want[:l], 0))
			refUnpack(r, m2, count, want[:l])
			require.Equal(t, m2.buf, m1.buf, "unpack of %d bytes of %s", l, r.desc)
			require.Equal(t, refElements(r, count, int64(l)), ty.Elements(int64(l)), "elements in %d bytes of %s", l, r.desc)
		}
		// Unpack in two pieces, as fragments arrive.
		if len(want) > 1 {
			cut := g.r.Intn(len(want))
			m1, m2 := cover(r, count), cover(r, count)
			ty.Unpack(m1.at(0), count, want[:cut], 0)
			ty.Unpack(m1.at(0), count, want[cut:], int64(cut))
			refUnpack(r, m2, count, want)
			require.Equal(t, m2.buf, m1.buf, "two-piece unpack of %s", r.desc)
		}
		// ElementBytes inverts Elements on element boundaries.
		if n := ty.Elems * int64(count); n > 0 {
			k := g.r.Int63n(n + 1)
			require.Equal(t, k, ty.Elements(ty.ElementBytes(k)), "element bytes of %d in %s", k, r.desc)
		}
	}
}

// External32 round trips over random type trees (no long double: its six
// padding bytes are not data in external32).
func TestExternal32Trees(t *testing.T) {
	g := &gen{r: rand.New(rand.NewSource(9)), basics: []int32{abi.Int, abi.Double, abi.Char, abi.Short, abi.DoubleInt, abi.ShortInt, abi.Float}}
	for iter := 0; iter < 3000; iter++ {
		ty, r := g.make(3)
		ty.Commit()
		count := g.n(1, 3)
		m := cover(r, count)
		g.r.Read(m.buf)
		ext := make([]byte, ty.ExternalSize(count))
		require.Equal(t, len(ext), ty.PackExternal(ext, m.at(0), count), r.desc)
		m2 := cover(r, count)
		require.Equal(t, len(ext), ty.UnpackExternal(m2.at(0), count, ext), r.desc)
		require.Equal(t, refPack(r, m, count), refPack(r, m2, count), "external32 round trip of %s", r.desc)
	}
}
