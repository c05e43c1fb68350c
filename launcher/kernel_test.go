package launcher

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKernelShares(t *testing.T) {
	ds := []*hostDaemon{
		{idx: 0, kernel: "k1", ranks: []int{0, 1}},
		{idx: 1, kernel: "k2", ranks: []int{2}},
		{idx: 2, kernel: "k1", ranks: []int{3, 4, 5}},
		{idx: 3, kernel: "", ranks: []int{6}},
	}
	got := kernelShares(ds)
	assert.Equal(t, [][2]int{{5, 0}, {0, 0}, {5, 2}, {0, 0}}, got,
		"hosts on one kernel share its CPUs; alone or unknown: their own")
	assert.NotEmpty(t, BootID(), "Linux has a boot id")
}
