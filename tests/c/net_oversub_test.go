package ctests

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Nodes split out of one machine share its CPUs: with more of them than
// CPUs (SLURM_CPUS_ON_NODE=1 says one here) the ranks must judge themselves
// oversubscribed although each node holds one rank, or their waits spin as
// if each had a core (10-40x slower network collectives, issue 25). The
// collective choices GOMPI_COLL_VERBOSE prints carry the verdict.
func TestCNetOversubscribed(t *testing.T) {
	root := ensureBuild(t)
	requireNetwork(t, root)
	src := filepath.Join(root, "tests", "c", "coll_derived.c")
	bin := gompicc(t, root, src, "coll_derived")
	j := job{argv: []string{filepath.Join(root, "build/bin/gompirun"), "-n", "2", "-x", "GOMPI_NODE_SPLIT=rank",
		"-x", "SLURM_CPUS_ON_NODE=1", "-x", "GOMPI_COLL_VERBOSE=1", "-x", "GOMPI_TEST_NP=2", bin},
		timeout: goSideTimeout(120 * time.Second), binary: bin}
	r := run(j)
	if r.err != nil || r.exitCode != 0 {
		t.Fatalf("exit %d (%v): %s", r.exitCode, r.err, r.stderr)
	}
	if !strings.Contains(r.stderr, "oversubscribed=true") || strings.Contains(r.stderr, "oversubscribed=false") {
		t.Fatalf("2 ranks split into nodes on 1 CPU did not judge themselves oversubscribed:\n%s", r.stderr)
	}
}
