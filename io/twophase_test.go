package io

import "testing"

func TestDomains(t *testing.T) {
	d := Domains(100, 10000, 3, 4096)
	want := []Block{{100, 3996}, {4096, 4096}, {8192, 1808}}
	if len(d) != len(want) || d[0] != want[0] || d[1] != want[1] || d[2] != want[2] {
		t.Fatalf("Domains = %v, want %v", d, want)
	}
	d = Domains(0, 10, 4, 1)
	var sum int64
	for i, b := range d {
		sum += b.Len
		if i > 0 && b.Off != d[i-1].Off+d[i-1].Len {
			t.Fatalf("gap in %v", d)
		}
	}
	if sum != 10 || len(d) != 4 {
		t.Fatalf("Domains(0,10,4) = %v", d)
	}
}

func TestSplit(t *testing.T) {
	doms := []Block{{0, 10}, {10, 10}}
	p := Split([]Block{{5, 10}, {18, 2}}, doms)
	if len(p[0]) != 1 || p[0][0] != (Piece{5, 5, 0}) {
		t.Fatalf("domain 0: %v", p[0])
	}
	want := []Piece{{10, 5, 5}, {18, 2, 10}}
	if len(p[1]) != 2 || p[1][0] != want[0] || p[1][1] != want[1] {
		t.Fatalf("domain 1: %v", p[1])
	}
}

func TestCovered(t *testing.T) {
	if !Covered([]Piece{{4, 4, 0}, {0, 4, 0}}, 0, 8) {
		t.Fatal("full cover not seen")
	}
	if Covered([]Piece{{0, 4, 0}, {5, 3, 0}}, 0, 8) {
		t.Fatal("gap not seen")
	}
}

func TestChunks(t *testing.T) {
	doms := []Block{{0, 10}, {10, 4}}
	c, r, d, n := Chunks(doms, 4)
	want := []Block{{0, 4}, {4, 4}, {8, 2}, {10, 4}}
	if n != 3 || len(c) != 4 {
		t.Fatalf("Chunks = %v rounds %d", c, n)
	}
	for i := range want {
		if c[i] != want[i] {
			t.Fatalf("chunk %d = %v, want %v", i, c[i], want[i])
		}
	}
	if r[2] != 2 || d[2] != 0 || r[3] != 0 || d[3] != 1 {
		t.Fatalf("rounds %v domains %v", r, d)
	}
	if _, _, _, n := Chunks(doms, 0); n != 1 {
		t.Fatalf("no limit: %d rounds", n)
	}
}
