package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeSysfs writes a topology tree: cpu -> (package, core).
func fakeSysfs(t *testing.T, topo map[int][2]int) string {
	root := t.TempDir()
	for cpu, pc := range topo {
		dir := filepath.Join(root, fmt.Sprintf("cpu%d", cpu), "topology")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "physical_package_id"), []byte(fmt.Sprintf("%d\n", pc[0])), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "core_id"), []byte(fmt.Sprintf("%d\n", pc[1])), 0o644))
	}
	return root
}

func TestOrderCPUsSpreadsOverCores(t *testing.T) {
	// 2 packages x 2 cores x 2 threads, Linux-style numbering: siblings are
	// cpu n and n+4.
	topo := map[int][2]int{
		0: {0, 0}, 1: {0, 1}, 2: {1, 0}, 3: {1, 1},
		4: {0, 0}, 5: {0, 1}, 6: {1, 0}, 7: {1, 1},
	}
	root := fakeSysfs(t, topo)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, OrderCPUs([]int{0, 1, 2, 3, 4, 5, 6, 7}, root))

	// Adjacent sibling numbering (cpu 2k, 2k+1 share a core).
	topo = map[int][2]int{0: {0, 0}, 1: {0, 0}, 2: {0, 1}, 3: {0, 1}}
	root = fakeSysfs(t, topo)
	assert.Equal(t, []int{0, 2, 1, 3}, OrderCPUs([]int{0, 1, 2, 3}, root))
	// Only the allowed CPUs count: cpu 1 is the first allowed thread of core 0.
	assert.Equal(t, []int{1, 2, 3}, OrderCPUs([]int{1, 2, 3}, root))
}

func TestOrderCPUsWithoutSysfs(t *testing.T) {
	assert.Equal(t, []int{3, 5, 9}, OrderCPUs([]int{3, 5, 9}, t.TempDir()))
}

func TestPlanBinding(t *testing.T) {
	cpus := []int{0, 2, 1, 3}
	b, err := PlanBinding(BindAuto, 3, cpus)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 2, 1}, b)
	b, err = PlanBinding(BindAuto, 5, cpus)
	require.NoError(t, err)
	assert.Nil(t, b, "oversubscribed: no binding by default")
	b, err = PlanBinding(BindNone, 2, cpus)
	require.NoError(t, err)
	assert.Nil(t, b)
	b, err = PlanBinding(BindCore, 4, cpus)
	require.NoError(t, err)
	assert.Equal(t, cpus, b)
	_, err = PlanBinding(BindCore, 5, cpus)
	assert.Error(t, err)
	_, err = PlanBinding("socket", 1, cpus)
	assert.Error(t, err)
}

func TestAllowedCPUs(t *testing.T) {
	cpus, err := AllowedCPUs()
	require.NoError(t, err)
	assert.NotEmpty(t, cpus)
	for i := 1; i < len(cpus); i++ {
		assert.Less(t, cpus[i-1], cpus[i])
	}
}
