package ctests

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The C fast paths twin Go code (capi/fastpath.h with pml and shmring,
// capi/shmcoll.h with shmcoll): with them on, most small messages and
// collectives of the test programs never reach the Go half. TestCModes runs
// the point-to-point programs again with the C fast path off and the
// collective programs with the shared-memory collectives off, so both halves
// of every twin stay tested, and on virtual nodes (node-aware collectives).
// One process count each keeps the extra time
// small: point-to-point at its smallest count of 2 or more (the fast path's
// case), collectives at their largest.
var cModes = []struct {
	name  string
	env   string
	files *regexp.Regexp
	np    func([]int) int
}{
	{"fastpath=0", "GOMPI_FASTPATH=0", regexp.MustCompile(`^p2p_`), smallestMulti},
	{"shmcoll=0", "GOMPI_SHM_COLL=0", regexp.MustCompile(`^coll_`), largest},
	// the collective programs on virtual nodes: node-aware schedules
	// (coll/hier.go), by block and with a node's ranks not consecutive;
	// not coll_hier*, which set their own
	{"fakenodes=2", "GOMPI_COLL_FAKE_NODES=2", regexp.MustCompile(`^coll_([^h]|h[^i])`), largest},
	{"fakenodes=3cyclic", "GOMPI_COLL_FAKE_NODES=3 GOMPI_COLL_FAKE_CYCLIC=1", regexp.MustCompile(`^coll_([^h]|h[^i])`), largest},
}

func smallestMulti(nps []int) int {
	best := nps[0]
	for _, n := range nps {
		if n >= 2 && (best < 2 || n < best) {
			best = n
		}
	}
	return best
}

func largest(nps []int) int {
	best := nps[0]
	for _, n := range nps {
		best = max(best, n)
	}
	return best
}

func TestCModes(t *testing.T) {
	root := ensureBuild(t)
	files, err := filepath.Glob(filepath.Join(root, "tests", "c", "*.c"))
	require.NoError(t, err)
	for _, m := range cModes {
		t.Run(m.name, func(t *testing.T) {
			n := 0
			for _, file := range files {
				name := strings.TrimSuffix(filepath.Base(file), ".c")
				if !m.files.MatchString(name) {
					continue
				}
				n++
				s, err := parseSpecFile(file)
				require.NoError(t, err)
				np := m.np(s.nps)
				t.Run(fmt.Sprintf("%s/np=%d", name, np), func(t *testing.T) {
					bin := gompicc(t, root, file, name)
					ms := *s
					ms.env = append(append([]string{}, s.env...), strings.Fields(m.env)...)
					runSpec(t, root, bin, &ms, np)
				})
			}
			require.NotZero(t, n, "no test program matches %s", m.files)
		})
	}
}
