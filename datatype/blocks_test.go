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
func TestBlockList(t *testing.T) {
	i := Predefined(abi.Int)
	v, err := Vector(3, 2, 5, i)
	if err != nil {
		t.Fatal(err)
	}
	v.Commit()
	got := v.BlockList()
	want := []Block{{0, 8}, {20, 8}, {40, 8}}
	if len(got) != len(want) {
		t.Fatalf("BlockList = %v, want %v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("BlockList = %v, want %v", got, want)
		}
	}
	s, err := Subarray([]int{4, 6}, []int{2, 3}, []int{1, 2}, abi.OrderC, i)
	if err != nil {
		t.Fatal(err)
	}
	s.Commit()
	got = s.BlockList()
	want = []Block{{32, 12}, {56, 12}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("subarray BlockList = %v, want %v", got, want)
	}
	if b := i.BlockList(); len(b) != 1 || b[0] != (Block{0, 4}) {
		t.Fatalf("int BlockList = %v", b)
	}
}
