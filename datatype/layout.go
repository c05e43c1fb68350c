package datatype

import "gompi/abi"

// node is one step of a compiled layout: Count copies, Stride bytes apart,
// the first at Off, each either one contiguous run of Len bytes (a leaf:
// Kids == nil) or the sequence Kids. Nesting gives repetition without
// expanding it, so a vector of a million elements is one node.
type node struct {
	Off, Stride, Count int64
	Len                int64 // leaf: bytes of one run
	Elem               *Type // typed leaf: the basic type of the run's elements
	Kids               []node
	Size               int64 // data bytes in one copy
	N                  int64 // basic elements in one copy (typed layouts)
}

func (n *node) leaf() bool { return n.Kids == nil }

// leafNode is a run of l bytes of basic type e at off.
func leafNode(off, l int64, e *Type) node {
	n := node{Off: off, Count: 1, Len: l, Elem: e, Size: l}
	if e != nil && e.Size > 0 {
		n.N = l / int64(e.Size)
	}
	return n
}

// repeat lays out count copies of the sequence kids, stride bytes apart,
// starting at off, folding the cases that need no extra level: one copy, a
// single run repeated, a regular run pattern continued, runs that touch.
// typed keeps runs of different element types apart.
func repeat(off, count, stride int64, kids []node, typed bool) []node {
	if count <= 0 || len(kids) == 0 {
		return nil
	}
	if count == 1 {
		out := make([]node, 0, len(kids))
		for _, k := range kids {
			k.Off += off
			out = appendNode(out, k, typed)
		}
		return out
	}
	if len(kids) == 1 {
		k := kids[0]
		switch {
		case k.Count == 1:
			k.Off += off
			k.Count, k.Stride = count, stride
			return []node{normal(k)}
		case k.Stride*k.Count == stride: // the copies continue k's own pattern
			k.Off += off
			k.Count *= count
			return []node{normal(k)}
		}
	}
	var size, n int64
	for _, k := range kids {
		size += k.Size * k.Count
		n += k.N * k.Count
	}
	return []node{{Off: off, Count: count, Stride: stride, Kids: kids, Size: size, N: n}}
}

// normal turns a leaf whose copies touch into one run.
func normal(n node) node {
	if n.leaf() && n.Count > 1 && n.Stride == n.Len {
		n.Len *= n.Count
		n.Size, n.N = n.Len, n.N*n.Count
		n.Count, n.Stride = 1, 0
	}
	return n
}

// appendNode adds n after list, merging it into the last node when the two
// are runs that continue each other.
func appendNode(list []node, n node, typed bool) []node {
	if k := len(list); k > 0 && n.leaf() && list[k-1].leaf() && (!typed || list[k-1].Elem == n.Elem) {
		p := &list[k-1]
		if p.Count == 1 && n.Count == 1 && p.Off+p.Len == n.Off {
			p.Len += n.Len
			p.Size, p.N = p.Len, p.N+n.N
			return list
		}
	}
	return append(list, n)
}

// untyped recompiles a typed layout ignoring element types, so runs of
// different types that touch become one copy.
func untyped(nodes []node) []node {
	var out []node
	for _, n := range nodes {
		if n.leaf() {
			n.Elem = nil
			out = appendNode(out, n, false)
			continue
		}
		for _, m := range repeat(n.Off, n.Count, n.Stride, untyped(n.Kids), false) {
			out = appendNode(out, m, false)
		}
	}
	return out
}

// pair members: offsets and types of the two basic elements of each pair type.
var pairMembers = map[int32][2]struct {
	off int64
	h   int32
}{
	abi.FloatInt:           {{0, abi.Float}, {4, abi.Int}},
	abi.DoubleInt:          {{0, abi.Double}, {8, abi.Int}},
	abi.LongInt:            {{0, abi.Long}, {8, abi.Int}},
	abi.ShortInt:           {{0, abi.Short}, {4, abi.Int}},
	abi.LongDoubleInt:      {{0, abi.LongDouble}, {16, abi.Int}},
	abi.TwoInt:             {{0, abi.Int}, {4, abi.Int}},
	abi.TwoInteger:         {{0, abi.Integer}, {4, abi.Integer}},
	abi.TwoReal:            {{0, abi.Real}, {4, abi.Real}},
	abi.TwoDoublePrecision: {{0, abi.DoublePrecision}, {8, abi.DoublePrecision}},
}

// initLayouts gives every predefined type its layout: one run of itself,
// two runs for pair types, nothing for the MPI_LB/MPI_UB markers.
func initLayouts() {
	for _, t := range PredefinedTypes() {
		if m, ok := pairMembers[t.Handle]; ok {
			var l []node
			align := 1
			for _, e := range m {
				et := Predefined(e.h)
				l = appendNode(l, leafNode(e.off, int64(et.Size), et), true)
				align = max(align, et.align)
			}
			t.typed, t.align = l, align
			t.TrueExtent = int(m[1].off) + Predefined(m[1].h).Size
		} else if t.Size > 0 {
			t.typed = []node{leafNode(0, int64(t.Size), t)}
		}
		t.fast = untyped(t.typed)
		t.Contig = t.Size == t.Extent && len(t.fast) == 1 && t.fast[0].Off == 0 && t.fast[0].Count == 1
	}
}

// naturalAlign is the C alignment of a predefined type of the given size.
func naturalAlign(h int32, size int) int {
	switch h {
	case abi.Complex, abi.DoubleComplex, abi.Complex8, abi.Complex16, abi.Complex32,
		abi.CFloatComplex, abi.CDoubleComplex, abi.CLongDoubleComplex,
		abi.CxxFloatComplex, abi.CxxDoubleComplex, abi.CxxLongDoubleComplex,
		abi.TwoInt, abi.TwoInteger, abi.TwoReal, abi.TwoDoublePrecision:
		size /= 2
	}
	return max(size, 1)
}
