package mpi

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"gompi/abi"
	"gompi/hitopo"
)

func TestResourceColor(t *testing.T) {
	a := hitopo.Loc{Node: 0, Package: 0, NUMA: 0, L3: 0, Core: 3, CPU: 3}
	b := hitopo.Loc{Node: 0, Package: 1, NUMA: 1, L3: 8, Core: 3, CPU: 11}
	other := hitopo.Loc{Node: 1, Package: 0, NUMA: 0, L3: 0, Core: 3, CPU: 3}
	for _, res := range []string{"mpi_shared_memory", "Machine"} {
		assert.Equal(t, ResourceColor(res, a), ResourceColor(res, b), res)
		assert.NotEqual(t, ResourceColor(res, a), ResourceColor(res, other), res)
	}
	for _, res := range []string{"Package", "socket", "NUMANode", "L3Cache", "Core", "PU"} {
		assert.NotEqual(t, ResourceColor(res, a), ResourceColor(res, b), res)
		assert.NotEqual(t, ResourceColor(res, a), ResourceColor(res, other), res)
		assert.GreaterOrEqual(t, ResourceColor(res, a), 0, res)
	}
	same := a
	same.CPU = 2
	assert.Equal(t, ResourceColor("Core", a), ResourceColor("Core", same))
	assert.NotEqual(t, ResourceColor("PU", a), ResourceColor("PU", same))

	unbound := a
	unbound.CPU = hitopo.Unknown
	assert.Equal(t, abi.Undefined, ResourceColor("PU", unbound))
	assert.Equal(t, abi.Undefined, ResourceColor("gpu", a))
	assert.Equal(t, abi.Undefined, ResourceColor("", a))
	assert.Equal(t, abi.Undefined, ResourceColor("mpi_shared_memory", hitopo.UnknownLoc))
}
