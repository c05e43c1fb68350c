package datatype

import (
	"testing"

	"gompi/abi"
)

func TestBlocks(t *testing.T) {
	i := Predefined(abi.Int)
	v, err := Vector(3, 2, 5, i)
	if err != nil {
		t.Fatal(err)
	}
	v.Commit()
	got := v.Blocks()
	want := []Block{{0, 8}, {20, 8}, {40, 8}}
	if len(got) != len(want) {
		t.Fatalf("Blocks = %v, want %v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("Blocks = %v, want %v", got, want)
		}
	}
	s, err := Subarray([]int{4, 6}, []int{2, 3}, []int{1, 2}, abi.OrderC, i)
	if err != nil {
		t.Fatal(err)
	}
	s.Commit()
	got = s.Blocks()
	want = []Block{{32, 12}, {56, 12}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("subarray Blocks = %v, want %v", got, want)
	}
	if b := i.Blocks(); len(b) != 1 || b[0] != (Block{0, 4}) {
		t.Fatalf("int Blocks = %v", b)
	}
}
