package launcher

import (
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLaunchFanout(t *testing.T) {
	assert.Equal(t, fanoutDefault, launchFanout(nil))
	assert.Equal(t, 2, launchFanout(envList{"GOMPI_LAUNCH_FANOUT=2"}))
	assert.Equal(t, fanoutDefault, launchFanout(envList{"GOMPI_LAUNCH_FANOUT=0"}))
	assert.Equal(t, fanoutDefault, launchFanout(envList{"GOMPI_LAUNCH_FANOUT=x"}))
}

func TestLaunchTreeFlat(t *testing.T) {
	tr := launchTree{n: 3, fanout: 8}
	for i := 0; i < 3; i++ {
		assert.Equal(t, -1, tr.parent(i))
		assert.Empty(t, tr.children(i))
		assert.Equal(t, i, tr.toward(-1, i))
		assert.Equal(t, []int{i}, tr.subtree(i))
	}
	assert.Equal(t, []int{0, 1, 2}, tr.children(-1))
}

func TestLaunchTreeChain(t *testing.T) {
	tr := launchTree{n: 3, fanout: 1} // head -> 0 -> 1 -> 2
	assert.Equal(t, []int{-1, 0, 1}, []int{tr.parent(0), tr.parent(1), tr.parent(2)})
	assert.Equal(t, []int{0}, tr.children(-1))
	assert.Equal(t, []int{2}, tr.children(1))
	assert.Empty(t, tr.children(2))
	assert.Equal(t, 0, tr.toward(-1, 2))
	assert.Equal(t, 1, tr.toward(0, 2))
	assert.Equal(t, -1, tr.toward(1, 0), "above is not below")
	assert.Equal(t, -1, tr.toward(2, 2))
	assert.Equal(t, []int{1, 2}, tr.subtree(1))
	assert.True(t, tr.within(0, 2))
	assert.False(t, tr.within(2, 1))
}

func TestLaunchTreeBinary(t *testing.T) {
	tr := launchTree{n: 7, fanout: 2}
	// head: 0 1; 0: 2 3; 1: 4 5; 2: 6
	want := []int{-1, -1, 0, 0, 1, 1, 2}
	for i, p := range want {
		assert.Equal(t, p, tr.parent(i), "parent of %d", i)
		if p >= 0 {
			assert.Contains(t, tr.children(p), i)
		}
	}
	assert.Equal(t, []int{0, 1}, tr.children(-1))
	assert.Equal(t, []int{6}, tr.children(2))
	assert.Equal(t, []int{0, 2, 3, 6}, tr.subtree(0))
	assert.Equal(t, 2, tr.toward(0, 6))
	assert.Equal(t, -1, tr.toward(1, 6))
	assert.Equal(t, -1, tr.toward(-1, 7), "no such host")
	assert.False(t, tr.within(1, -1))

	// 3 hosts with fanout 2: the rig's tree (n1, n2 under the head, n3 under n1).
	tr = launchTree{n: 3, fanout: 2}
	assert.Equal(t, []int{-1, -1, 0}, []int{tr.parent(0), tr.parent(1), tr.parent(2)})
}

// Every host has exactly one way up, and a fanout's worth of children at most.
func TestLaunchTreeShape(t *testing.T) {
	for _, f := range []int{1, 2, 3, 8} {
		for n := 1; n <= 40; n++ {
			tr := launchTree{n: n, fanout: f}
			seen := map[int]bool{}
			for _, r := range tr.children(-1) {
				for _, h := range tr.subtree(r) {
					assert.False(t, seen[h], "f=%d n=%d host %d twice", f, n, h)
					seen[h] = true
					assert.Equal(t, r, tr.toward(-1, h))
				}
			}
			assert.Len(t, seen, n, "f=%d n=%d", f, n)
			for i := -1; i < n; i++ {
				assert.LessOrEqual(t, len(tr.children(i)), f)
			}
		}
	}
}

func TestDaemonAddrs(t *testing.T) {
	a := daemonAddrs(&net.TCPAddr{IP: net.IPv4(10, 9, 8, 7), Port: 5}, 99)
	assert.Equal(t, "10.9.8.7:99", a[0], "where the parent was reached from, first")
	assert.Equal(t, "127.0.0.1:99", a[len(a)-1])
	a = daemonAddrs(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 5}, 99)
	assert.Equal(t, 1, strings.Count(strings.Join(a, ","), "127.0.0.1:99"))
}
