package datatype

import "gompi/abi"

// Elements is what MPI_Get_elements reports for a message of the given
// bytes: the number of basic elements, or abi.Undefined when the bytes end
// inside a basic element. Pair types count as two basic elements each.
func (t *Type) Elements(bytes int64) int64 {
	if t.Size == 0 {
		return 0
	}
	whole, rem := bytes/int64(t.Size), bytes%int64(t.Size)
	if t.Builtin && t.pairFirst == 0 {
		if rem != 0 {
			return abi.Undefined
		}
		return whole
	}
	n := whole * t.Elems
	if rem == 0 {
		return n
	}
	k, ok := countElems(t.typed, rem)
	if !ok {
		return abi.Undefined
	}
	return n + k
}

// countElems counts the basic elements in the first rem bytes of the data
// of nodes (rem less than their size); false when rem splits an element.
func countElems(nodes []node, rem int64) (int64, bool) {
	var n int64
	for i := range nodes {
		x := &nodes[i]
		if total := x.Size * x.Count; rem >= total {
			n += x.N * x.Count
			rem -= total
			if rem == 0 {
				return n, true
			}
			continue
		}
		full := rem / x.Size
		n += full * x.N
		rem -= full * x.Size
		if rem == 0 {
			return n, true
		}
		if x.leaf() {
			es := int64(x.Elem.Size)
			if rem%es != 0 {
				return 0, false
			}
			return n + rem/es, true
		}
		k, ok := countElems(x.Kids, rem)
		return n + k, ok
	}
	return n, rem == 0
}

// ElementBytes inverts Elements: the bytes that hold n basic elements
// (MPI_Status_set_elements).
func (t *Type) ElementBytes(n int64) int64 {
	if t.Builtin && t.pairFirst == 0 {
		return n * int64(t.Size)
	}
	if t.Elems == 0 {
		return 0
	}
	return n/t.Elems*int64(t.Size) + elemBytes(t.typed, n%t.Elems)
}

func elemBytes(nodes []node, r int64) int64 {
	var b int64
	for i := range nodes {
		x := &nodes[i]
		if r == 0 {
			return b
		}
		if all := x.N * x.Count; r >= all {
			b += x.Size * x.Count
			r -= all
			continue
		}
		full := r / x.N
		b += full * x.Size
		r -= full * x.N
		if x.leaf() {
			return b + r*int64(x.Elem.Size)
		}
		return b + elemBytes(x.Kids, r)
	}
	return b
}
