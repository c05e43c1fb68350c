package datatype

import (
	"testing"

	"gompi/abi"
)

func TestInFileScalesElementDisplacements(t *testing.T) {
	long := Predefined(abi.Long) // 8 bytes native, 4 in external32
	v, _ := Vector(3, 1, 2, long)
	v.Commit()
	f, err := InFile(v, External32Size)
	if err != nil {
		t.Fatal(err)
	}
	got := f.BlockList()
	want := []Block{{0, 4}, {8, 4}, {16, 4}}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || f.Extent != 20 {
		t.Fatalf("vector in external32: %v extent %d, want %v extent 20", got, f.Extent, want)
	}
	h, _ := Hvector(2, 1, 16, long) // byte strides stay
	r, _ := Resized(h, 0, 40)
	r.Commit()
	f, err = InFile(r, External32Size)
	if err != nil {
		t.Fatal(err)
	}
	got = f.BlockList()
	if len(got) != 2 || got[1] != (Block{16, 4}) || f.Extent != 40 {
		t.Fatalf("hvector in external32: %v extent %d", got, f.Extent)
	}
	sa, _ := Subarray([]int{4, 4}, []int{2, 2}, []int{1, 1}, abi.OrderC, Predefined(abi.Double))
	sa.Commit()
	f, _ = InFile(sa, func(*Type) int64 { return 2 })
	got = f.BlockList()
	if len(got) != 2 || got[0] != (Block{10, 4}) || got[1] != (Block{18, 4}) || f.Extent != 32 {
		t.Fatalf("subarray with 2-byte elements: %v extent %d", got, f.Extent)
	}
	if _, err := InFile(Predefined(abi.TwoInt), External32Size); err == nil {
		t.Fatal("MPI_2INT has no external32 size here, yet no error")
	}
}
