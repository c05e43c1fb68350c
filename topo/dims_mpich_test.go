package topo

import (
	"slices"
	"testing"
)

// Regression for issue 23: MPI_Dims_create, preset entries included, gives
// what MPICH 4.0.2 gives (cases drawn at random, MPICH's answers recorded).
func TestDimsCreateMatchesMPICH(t *testing.T) {
	cases := []struct {
		n       int
		in, out []int
	}{
		{1244, []int{0, 0, 0, 0, 0, 0}, []int{311, 2, 2, 1, 1, 1}},
		{1145, []int{0, 0, 0, 0, 0}, []int{229, 5, 1, 1, 1}},
		{2801, []int{0, 0, 1, 0, 0}, []int{2801, 1, 1, 1, 1}},
		{2690, []int{0, 0, 0, 0, 0, 0}, []int{269, 5, 2, 1, 1, 1}},
		{4679, []int{0, 0, 0, 0, 0, 0}, []int{4679, 1, 1, 1, 1, 1}},
		{2272, []int{0, 0, 0, 0}, []int{71, 4, 4, 2}},
		{1037, []int{0, 0}, []int{61, 17}},
		{1225, []int{0, 0}, []int{35, 35}},
		{2928, []int{0, 1, 0}, []int{61, 1, 48}},
		{280, []int{2, 1, 0, 1, 0}, []int{2, 1, 14, 1, 10}},
		{3223, []int{0, 0, 0, 0, 0, 0}, []int{293, 11, 1, 1, 1, 1}},
		{504, []int{3, 0, 3, 0, 0}, []int{3, 7, 3, 4, 2}},
		{71, []int{0, 0, 0, 0, 0}, []int{71, 1, 1, 1, 1}},
		{943, []int{0, 0, 0, 0}, []int{41, 23, 1, 1}},
		{2874, []int{1, 0, 0, 0, 0}, []int{1, 479, 3, 2, 1}},
		{309, []int{0, 1}, []int{309, 1}},
		{349, []int{0, 0}, []int{349, 1}},
		{3386, []int{1, 1, 0, 0, 0}, []int{1, 1, 1693, 2, 1}},
		{1759, []int{0, 0, 0, 0}, []int{1759, 1, 1, 1}},
		{4810, []int{0, 0, 0, 2, 5}, []int{37, 13, 1, 2, 5}},
		{2718, []int{0, 0, 0, 0, 6}, []int{151, 3, 1, 1, 6}},
		{3748, []int{0, 0, 0}, []int{937, 2, 2}},
		{3444, []int{0, 1}, []int{3444, 1}},
		{2978, []int{2, 0, 0, 0, 0}, []int{2, 1489, 1, 1, 1}},
		{3601, []int{0, 0}, []int{277, 13}},
		{622, []int{0, 1, 0, 0}, []int{311, 1, 2, 1}},
		{3755, []int{0, 0, 0, 0, 0}, []int{751, 5, 1, 1, 1}},
		{4490, []int{0, 0, 0}, []int{449, 5, 2}},
		{1244, []int{0, 0, 0, 0, 0, 1}, []int{311, 2, 2, 1, 1, 1}},
		{648, []int{0, 0, 0}, []int{9, 9, 8}},
	}
	for _, c := range cases {
		d := slices.Clone(c.in)
		if err := DimsCreate(c.n, d); err != nil {
			t.Errorf("DimsCreate(%d, %v): %v", c.n, c.in, err)
			continue
		}
		if !slices.Equal(d, c.out) {
			t.Errorf("DimsCreate(%d, %v) = %v, MPICH gives %v", c.n, c.in, d, c.out)
		}
	}
}
