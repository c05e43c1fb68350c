package datatype

import (
	"gompi/abi"
	"testing"
	"unsafe"
)

// Blocks must visit exactly the bytes Pack reads, in the same order.
func TestBlocksMatchPack(t *testing.T) {
	dbl := Predefined(abi.Double)
	vec, err := Vector(3, 2, 4, dbl)
	if err != nil {
		t.Fatal(err)
	}
	vec.Commit()
	src := make([]byte, 4*vec.Extent)
	for i := range src {
		src[i] = byte(i)
	}
	packed := make([]byte, 2*vec.Size)
	vec.Pack(packed, unsafe.Pointer(&src[0]), 2, 0)
	var got []byte
	vec.Blocks(2, func(off, n int64) bool {
		got = append(got, src[off:off+n]...)
		return true
	})
	if string(got) != string(packed) {
		t.Fatalf("blocks gave %v, pack %v", got, packed)
	}
}
