package mpi

import "testing"

// Ranks of other nodes on the same kernel count: they share its CPUs.
func TestKernelRanks(t *testing.T) {
	ranks := func(per []int) func(int) int { return func(n int) int { return per[n] } }
	boots := func(ids ...string) func(int) (string, bool) {
		return func(n int) (string, bool) {
			if ids[n] == "" {
				return "", false
			}
			return ids[n], true
		}
	}
	cases := []struct {
		name string
		me   int
		boot func(int) (string, bool)
		per  []int
		want int
	}{
		{"split into nodes on one machine", 1, boots("k", "k", "k"), []int{1, 1, 1}, 3},
		{"three namespaces x two ranks", 0, boots("k", "k", "k"), []int{2, 2, 2}, 6},
		{"separate machines", 0, boots("a", "b", "c"), []int{2, 2, 2}, 2},
		{"two machines, two namespaces each", 2, boots("a", "a", "b", "b"), []int{1, 2, 3, 4}, 7},
		{"a peer's id unknown", 0, boots("k", "", "k"), []int{2, 5, 1}, 3},
		{"own id unknown", 1, boots("k", "", "k"), []int{2, 5, 1}, 5},
	}
	for _, c := range cases {
		if got := kernelRanks(c.me, len(c.per), c.boot, ranks(c.per)); got != c.want {
			t.Errorf("%s: %d ranks on this kernel, want %d", c.name, got, c.want)
		}
	}
}
