package io

import "testing"

func TestContiguous(t *testing.T) {
	v := Contiguous(100, 4)
	if got := v.ByteOffset(8); got != 108 {
		t.Fatalf("ByteOffset = %d", got)
	}
	segs := v.Segments(nil, 4, 40)
	if len(segs) != 1 || segs[0] != (Block{104, 40}) {
		t.Fatalf("segs = %v", segs)
	}
}

// A vector filetype: 2 ints every 4 ints, as rank 1 of a 2-way interleave.
func TestStrided(t *testing.T) {
	v, err := NewView(0, 4, []Block{{8, 8}}, 16)
	if err != nil {
		t.Fatal(err)
	}
	segs := v.Segments(nil, 4, 16)
	want := []Block{{12, 4}, {24, 8}, {40, 4}}
	if len(segs) != len(want) {
		t.Fatalf("segs = %v", segs)
	}
	for i := range want {
		if segs[i] != want[i] {
			t.Fatalf("segs = %v, want %v", segs, want)
		}
	}
	if got := v.ByteOffset(8); got != 24 {
		t.Fatalf("ByteOffset(8) = %d", got)
	}
}

func TestMultiBlockMerge(t *testing.T) {
	// runs at 0..4 and 4..8 of a 16-byte extent: touching runs merge in segments
	v, err := NewView(10, 1, []Block{{0, 4}, {4, 4}, {12, 2}}, 16)
	if err != nil {
		t.Fatal(err)
	}
	segs := v.Segments(nil, 0, 20)
	want := []Block{{10, 8}, {22, 2}, {26, 8}, {38, 2}}
	for i := range want {
		if segs[i] != want[i] {
			t.Fatalf("segs = %v, want %v", segs, want)
		}
	}
}

func TestBadFiletype(t *testing.T) {
	if _, err := NewView(0, 1, []Block{{8, 4}, {0, 4}}, 16); err == nil {
		t.Fatal("backwards runs accepted")
	}
}

func TestSieve(t *testing.T) {
	if Sieve([]Block{{0, 4}}, 1<<20) {
		t.Fatal("one segment sieved")
	}
	if !Sieve([]Block{{0, 4}, {8, 4}, {16, 4}}, 1<<20) {
		t.Fatal("dense segments not sieved")
	}
	if Sieve([]Block{{0, 4}, {1 << 30, 4}}, 1<<20) {
		t.Fatal("span over the limit sieved")
	}
}

func TestDataBefore(t *testing.T) {
	v, _ := NewView(0, 4, []Block{{8, 8}}, 16)
	for off, want := range map[int64]int64{0: 0, 8: 0, 12: 4, 16: 8, 32: 16, 44: 20} {
		if got := v.DataBefore(off); got != want {
			t.Errorf("DataBefore(%d) = %d, want %d", off, got, want)
		}
	}
}

func TestContiguousTilesOneSegment(t *testing.T) {
	v := Contiguous(8, 1)
	segs := v.Segments(nil, 3, 1<<20)
	if len(segs) != 1 || segs[0] != (Block{11, 1 << 20}) {
		t.Fatalf("segs = %v", segs)
	}
	w, _ := NewView(0, 4, []Block{{4, 4}}, 4) // a resized type whose run fills its extent, shifted
	if segs := w.Segments(nil, 8, 8); len(segs) != 1 || segs[0] != (Block{12, 8}) {
		t.Fatalf("shifted segs = %v", segs)
	}
}
