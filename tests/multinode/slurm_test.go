package multinode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/internal/slurmtest"
	"gompi/internal/testtime"
)

// TestSlurmAcrossHosts runs a Slurm cluster of its own across the rig:
// slurmctld in the root namespace on the rig's bridge, one slurmd per rig
// namespace (its NodeName is the namespace's hostname n1..n3), auth/none.
// srun starts 6 tasks on 3 nodes (2 per node). Under --mpi=pmi2 and
// --mpi=pmix: the PMI exchange and Slurm's process mapping, hello with a
// ring and allreduce, MPI_Abort ending every node's tasks. Under PMI-2
// also: Slurm's placement against gompi's nodes (block and cyclic) with
// traffic of every size between every pair (shared memory inside a node,
// btl/ofi between nodes), and the node-aware collectives over 3 real
// nodes. Every daemon and task is gone at the end.
func TestSlurmAcrossHosts(t *testing.T) {
	root := ensureBuild(t)
	requireRig(t)
	sl := startRigSlurm(t)
	pmiinfo := program(t, root, "tests/c/testdata/pmiinfo")
	hello := program(t, root, "tests/multinode/testdata/hello.c")
	nodes := program(t, root, "tests/multinode/testdata/slurm_nodes.c")
	hier := program(t, root, "tests/c/coll_hier3.c")
	abort := program(t, root, "tests/c/abort_one_rank.c")

	block := []int{0, 0, 1, 1, 2, 2}
	cyclic := []int{0, 1, 2, 0, 1, 2}
	for _, mpi := range []string{"pmi2", "pmix"} {
		t.Run(mpi, func(t *testing.T) {
			if mpi == "pmix" {
				out, _ := exec.Command("srun", "--mpi=list").CombinedOutput()
				if !strings.Contains(string(out), "pmix") {
					slurmUnavailable(t, "this Slurm has no mpi/pmix plugin: %s", firstLine(out))
				}
			}
			// PMI-2 carries Slurm's PMI_process_mapping (block:
			// "(vector,(0,3,2))", cyclic: "(vector,(0,3,1))"), PMIx does not.
			maps := map[string]string{"block": "[0 0 1 1 2 2]", "cyclic": "[0 1 2 0 1 2]"}
			if mpi == "pmix" {
				maps = map[string]string{"block": "none"}
			}
			for dist, mapping := range maps {
				t.Run("pmiinfo_"+dist, func(t *testing.T) {
					r := sl.srun(t, mpi, dist, nil, pmiinfo)
					require.Equal(t, 0, r.code, "%s", r)
					for rank := range 6 {
						assert.Contains(t, r.stdout, fmt.Sprintf("rank %d of 6 protocol %s mapping %s universe 6 appnum 0 kvs ok\n",
							rank, mpi, mapping), "%s", r)
					}
				})
			}
			t.Run("hello", func(t *testing.T) {
				r := sl.srun(t, mpi, "block", nil, hello)
				require.Equal(t, 0, r.code, "%s", r)
				assert.Empty(t, r.stderr)
				assert.NotContains(t, r.stdout, "TEST-FAIL")
				assert.Contains(t, r.stdout, "ring and allreduce done on 6 ranks")
				for rank, n := range block {
					assert.Contains(t, r.stdout, fmt.Sprintf("hello rank %d of 6 on n%d\n", rank, n+1), "%s", r)
				}
			})
			// The placement is Slurm's and the traffic gompi's, whichever
			// PMI: checked once, under PMI-2.
			dists := map[string][]int{"block": block, "cyclic": cyclic}
			if mpi == "pmix" {
				dists = nil
			}
			for dist, place := range dists {
				t.Run("nodes_"+dist, func(t *testing.T) {
					r := sl.srun(t, mpi, dist, nil, nodes)
					require.Equal(t, 0, r.code, "%s", r)
					assert.Empty(t, r.stderr)
					for rank, n := range place {
						local := 0
						for _, o := range place[:rank] {
							if o == n {
								local++
							}
						}
						assert.Contains(t, r.stdout, fmt.Sprintf("rank %d of 6 on n%d node %d local %d of 2: ok\n",
							rank, n+1, n, local), "%s", r)
					}
				})
			}
			// MPI_Abort on n3 ends the step on every node through the
			// PMI's abort: srun fails, naming the rank, before the others
			// wake from their 20 s sleep, and no task is left anywhere.
			t.Run("abort", func(t *testing.T) {
				r := sl.srun(t, mpi, "block", nil, abort)
				assert.NotEqual(t, 0, r.code, "%s", r)
				assert.Regexp(t, `MPI_Abort\(MPI_COMM_WORLD, 7\) called by rank 5\b`, r.stderr)
				assert.NotContains(t, r.stderr, "TEST-FAIL")
				noTaskLeft(t, abort)
			})
			if mpi == "pmi2" { // the collectives do not depend on the PMI
				t.Run("coll_hier", func(t *testing.T) {
					r := sl.srun(t, mpi, "block", []string{"GOMPI_COLL_VERBOSE=1"}, hier)
					require.Equal(t, 0, r.code, "%s", r)
					assert.NotContains(t, r.stderr, "TEST-FAIL")
					assert.Contains(t, r.stderr, "hierarchical over 3 nodes")
					// Slurm gave each node one CPU for its two tasks
					// (SLURM_CPUS_ON_NODE=1 under --overcommit): gompi
					// takes its ranks for oversubscribed, although the
					// machine has 2 CPUs.
					assert.Contains(t, r.stderr, "oversubscribed=true")
					assert.NotContains(t, r.stderr, "oversubscribed=false")
				})
			}
		})
	}
}

// rigSlurm is a Slurm cluster across the rig's namespaces.
type rigSlurm struct{ *slurmtest.Cluster }

// slurmUnavailable fails the test under CI=true and skips it otherwise,
// with a one-line reason either way.
func slurmUnavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := "no Slurm cluster across the rig: " + fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// startRigSlurm writes one slurm.conf for the three nodes (their addresses
// on the rig's bridge, a spool, log and TmpFS per node through %n: the
// nodes share one file system, and Slurm's PMIx plugin makes its per-step
// directory under TmpFS), starts the daemons and waits until every node is
// idle. The clean-up stops them all.
func startRigSlurm(t *testing.T) *rigSlurm {
	t.Helper()
	if err := slurmtest.Install("slurmctld", "slurmd", "srun", "sinfo", "squeue", "scancel", "nsenter", "unshare"); err != nil {
		slurmUnavailable(t, "%v", err)
	}
	slurmtest.ClearEnv(t)
	host, err := os.Hostname()
	require.NoError(t, err)
	host, _, _ = strings.Cut(host, ".")
	dir := t.TempDir()
	var nodes strings.Builder
	for i := 1; i <= rigHosts; i++ {
		fmt.Fprintf(&nodes, "NodeName=n%d NodeAddr=10.77.0.%d CPUs=2 State=UNKNOWN\n", i, i)
		for _, d := range []string{"spool", "tmp"} {
			require.NoError(t, os.Mkdir(filepath.Join(dir, fmt.Sprintf("%s-n%d", d, i)), 0o755))
		}
	}
	cl, err := slurmtest.New(t, dir, slurmtest.Conf{Cluster: "gompirig", CtldHost: host, CtldAddr: "10.77.0.254",
		PerNode: true, Nodes: nodes.String(), Partition: "rig"})
	require.NoError(t, err)
	sl := &rigSlurm{cl}

	// Every daemon stays in the foreground (-D) as our child; -c: an empty
	// state. A slurmd enters its namespace with nsenter, not `ip netns
	// exec`: that one remounts /sys in a mount namespace of its own, which
	// hides /sys/fs/cgroup, and slurmd 22.05 will not start without its
	// cgroup plugin ("No filesystem mounted on /sys/fs/cgroup"). unshare
	// gives it the node's hostname, its tasks inherit it.
	start := func(name string, argv ...string) {
		if _, err := cl.Start(name, argv...); err != nil {
			slurmUnavailable(t, "%v", err)
		}
	}
	start("slurmctld", "slurmctld", "-D", "-c", "-f", cl.ConfFile)
	for i := 1; i <= rigHosts; i++ {
		start(fmt.Sprintf("slurmd-n%d", i), "nsenter", "--net=/run/netns/"+rigName+strconv.Itoa(i),
			"unshare", "--uts", "sh", "-c", `hostname "$0" && exec slurmd -D -f "$1"`, fmt.Sprintf("n%d", i), cl.ConfFile)
	}
	// slurmstepd daemonizes out of slurmd's reach: its tasks' end in the
	// rig's namespaces is what the clean-up waits for.
	t.Cleanup(func() {
		cl.Stop(t, "processes in the rig after Slurm stopped", func() []int {
			var left []int
			for i := 1; i <= rigHosts; i++ {
				left = append(left, rigPids(i)...)
			}
			return left
		})
	})

	deadline := time.Now().Add(testtime.D(60 * time.Second))
	for {
		out, err := exec.Command("sinfo", "-h", "-N", "-o", "%N %t").CombinedOutput()
		state := strings.TrimSpace(string(out))
		if err == nil && state == "n1 idle\nn2 idle\nn3 idle" {
			return sl
		}
		for _, d := range cl.Daemons {
			if d.Exited() {
				slurmUnavailable(t, "%s exited: %s", d.Name, cl.LogTail(d.Name+".log"))
			}
		}
		if time.Now().After(deadline) {
			slurmUnavailable(t, "the nodes did not become idle (sinfo: %q %v); slurmctld: %s", state, err, cl.LogTail("slurmctld.log"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// noTaskLeft: no process runs prog any more (the slurmds stay in the rig's
// namespaces until the test ends, so checkClean's empty rig does not hold).
func noTaskLeft(t *testing.T, prog string) {
	t.Helper()
	deadline := time.Now().Add(testtime.D(5 * time.Second))
	for {
		var left []string
		out, _ := exec.Command("pgrep", "-f", prog).Output()
		for _, f := range strings.Fields(string(out)) {
			if pid, _ := strconv.Atoi(f); alive(pid) {
				left = append(left, f)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("tasks left running %s: pids %s", prog, strings.Join(left, " "))
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// srun runs prog as 6 tasks on the 3 nodes with the given PMI and task
// distribution (block: 2 consecutive ranks per node, cyclic: round robin).
// --overcommit: the 6 tasks share the machine's 2 cores, so Slurm gives a
// node one CPU (SLURM_CPUS_ON_NODE) and gompi knows its ranks share it.
func (sl *rigSlurm) srun(t *testing.T, mpi, dist string, env []string, prog string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.D(90*time.Second))
	defer cancel()
	cmd := exec.CommandContext(ctx, "srun", "--mpi="+mpi, "-N", "3", "-n", "6", "-m", dist, "--overcommit",
		"--kill-on-bad-exit=1", "--quiet", prog)
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start), pid: -1}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		exec.Command("scancel", "--full", "--quiet", "--user", "root").Run()
		t.Fatalf("srun did not end within the Go-side timeout\n%s", r)
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("srun: %v\n%s", err, r)
	}
	return r
}
