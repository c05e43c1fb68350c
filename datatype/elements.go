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
	if t.pairFirst == 0 {
		if rem != 0 {
			return abi.Undefined
		}
		return whole
	}
	switch rem {
	case 0:
		return 2 * whole
	case int64(t.pairFirst):
		return 2*whole + 1
	}
	return abi.Undefined
}

// ElementBytes inverts Elements: the bytes that hold n basic elements
// (MPI_Status_set_elements).
func (t *Type) ElementBytes(n int64) int64 {
	if t.pairFirst == 0 {
		return n * int64(t.Size)
	}
	return n/2*int64(t.Size) + n%2*int64(t.pairFirst)
}
