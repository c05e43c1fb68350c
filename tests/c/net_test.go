package ctests

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The network transport (btl/ofi over libfabric) on one machine:
// GOMPI_NODE_SPLIT makes ranks count as different nodes, so their traffic
// crosses libfabric's tcp provider while shared memory serves ranks of one
// "node". TestCNet runs point-to-point programs with every rank on a node
// of its own, and collectives and point-to-point with two ranks per node
// (shared memory and network mixed, the node-local shared-memory
// collectives only on communicators inside a node). The one-sided programs
// run on two nodes of one rank (np=2) and two of two (np=4: targets reached
// by shared memory and by active messages at once); those built on
// MPI_Win_shared_query of every rank (rma_shared, rma_zero, osc_locks) are
// node-local by nature and not run here.
var netModes = []struct {
	name  string
	env   []string
	files *regexp.Regexp
	np    func([]int) int
}{
	{"split=rank", []string{"GOMPI_NODE_SPLIT=rank"}, regexp.MustCompile(
		`^p2p_(pingpong|probe|modes|wildcard|order|sendrecv|unexpected|truncate|persistent|status|cancel|cancel_send|multi|irecv_queue|irecv_ready|procnull)$|^net_(rndv|idle|fast)$`), upTo4},
	// Reads split into odd-sized chunks, few in flight (btl/ofi's pump).
	{"split=rank/chunked", []string{"GOMPI_NODE_SPLIT=rank", "GOMPI_OFI_READ_CHUNK=100003", "GOMPI_OFI_READS=3"},
		regexp.MustCompile(`^net_rndv$`), upTo4},
	{"split=2", []string{"GOMPI_NODE_SPLIT=2"}, regexp.MustCompile(
		`^(coll_(default|alg[1-5]|derived|nonblocking|persistent|inter|neighbor|truncate)|p2p_(pingpong|wildcard|soak)|part_basic)$`), upTo4},
	{"rma/split=rank", []string{"GOMPI_NODE_SPLIT=rank"}, rmaNet, exactly(2)},
	{"rma/split=2", []string{"GOMPI_NODE_SPLIT=2"}, rmaNet, exactly(4)},
}

// rmaNet is the one-sided programs run across nodes.
var rmaNet = regexp.MustCompile(`^(rma_(fence|lock|lock8|lockall_flush|pscw|requests|atomics|dynamic|errors|attrs)|osc_(smoke|errors))$`)

// exactly runs a program at np when its spec allows np, else not at all.
func exactly(np int) func([]int) int {
	return func(nps []int) int {
		for _, n := range nps {
			if n == np {
				return np
			}
		}
		return 0
	}
}

// upTo4 is the largest process count of at most 4 (two "nodes" of two).
func upTo4(nps []int) int {
	best := 0
	for _, n := range nps {
		if n <= 4 {
			best = max(best, n)
		}
	}
	return best
}

// requireNetwork checks that libfabric opens an endpoint here: a job of two
// "nodes" starts. Under CI=true a missing provider is a failure.
func requireNetwork(t *testing.T, root string) {
	t.Helper()
	bin := gompicc(t, root, filepath.Join(root, "tests", "c", "env_basic.c"), "env_basic")
	j := job{argv: []string{filepath.Join(root, "build/bin/gompirun"), "-n", "2", "-x", "GOMPI_NODE_SPLIT=rank",
		"-x", "GOMPI_TEST_NP=2", bin}, timeout: goSideTimeout(60 * time.Second), binary: bin}
	r := run(j)
	if r.exitCode == 0 && r.err == nil {
		return
	}
	why := fmt.Sprintf("no network transport: exit %d %s", r.exitCode, strings.TrimSpace(r.stderr))
	if os.Getenv("CI") == "true" {
		t.Fatalf("prerequisite missing under CI=true: %s", why)
	}
	t.Skipf("skipped: %s", why)
}

func TestCNet(t *testing.T) {
	root := ensureBuild(t)
	requireNetwork(t, root)
	files, err := filepath.Glob(filepath.Join(root, "tests", "c", "*.c"))
	require.NoError(t, err)
	for _, m := range netModes {
		t.Run(m.name, func(t *testing.T) {
			n := 0
			for _, file := range files {
				name := strings.TrimSuffix(filepath.Base(file), ".c")
				if !m.files.MatchString(name) {
					continue
				}
				s, err := parseSpecFile(file)
				require.NoError(t, err)
				np := m.np(s.nps)
				if np < 2 {
					continue
				}
				n++
				t.Run(fmt.Sprintf("%s/np=%d", name, np), func(t *testing.T) {
					bin := gompicc(t, root, file, name)
					ms := *s
					ms.env = append(append([]string{}, s.env...), m.env...)
					runSpec(t, root, bin, &ms, np)
				})
			}
			require.NotZero(t, n, "no test program matches %s", m.files)
		})
	}
}
