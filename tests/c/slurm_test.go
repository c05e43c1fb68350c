package ctests

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"gompi/internal/slurmtest"
	"gompi/internal/testtime"

	"github.com/stretchr/testify/require"
)

// slurmPrograms run under `srun --mpi=pmi2 -n 4` with the expectations of
// their own directives: hello, a ring, collectives, one-sided.
var slurmPrograms = []string{"env_basic", "p2p_sendrecv", "coll_default", "rma_fence"}

// TestSlurm starts a one-node Slurm cluster of its own (slurmctld and slurmd
// in a temporary directory, auth/none, no accounting, no cgroups), runs C
// test programs with srun --mpi=pmi2 and --mpi=pmix on 4 oversubscribed
// tasks, and stops the daemons, leaving nothing running. gompi must speak
// Slurm's PMI-2, and PMIx through the system's libpmix.
func TestSlurm(t *testing.T) {
	root := ensureBuild(t)
	sl := startSlurm(t)
	pmiinfo := filepath.Join(t.TempDir(), "pmiinfo")
	build := exec.Command("go", "build", "-o", pmiinfo, "./tests/c/testdata/pmiinfo")
	build.Dir = root
	out, err := build.CombinedOutput()
	require.NoError(t, err, "build pmiinfo: %s", out)
	// srun without a PMI (--mpi=none, many clusters' default) would start
	// N singletons: every task refuses to start, saying what to use.
	t.Run("none", func(t *testing.T) {
		file := filepath.Join(root, "tests/c/env_basic.c")
		bin := gompicc(t, root, file, "env_basic")
		sl.runSpec(t, "none", bin, &spec{timeout: 30 * time.Second, exit: "nonzero",
			stderrMatch: []string{`task 1 of 2 without a PMI: run srun --mpi=pmi2 or --mpi=pmix`}}, 2)
	})
	for _, mpi := range []string{"pmi2", "pmix"} {
		t.Run(mpi, func(t *testing.T) {
			if mpi == "pmix" {
				out, _ := exec.Command("srun", "--mpi=list").CombinedOutput()
				if !strings.Contains(string(out), "pmix") {
					slurmUnavailable(t, "this Slurm has no mpi/pmix plugin: %s", slurmtest.LastLine(out))
				}
			}
			// What the process manager says, through gompi's PMI client:
			// PMI-2 has Slurm's PMI_process_mapping, PMIx does not.
			t.Run("pmiinfo", func(t *testing.T) {
				mapping := `\[0 0 0 0\]`
				if mpi == "pmix" {
					mapping = "none"
				}
				sl.runSpec(t, mpi, pmiinfo, &spec{timeout: 30 * time.Second, exit: "0", stdoutPerRank: []string{
					`(?m)^rank {rank} of 4 protocol ` + mpi + ` mapping ` + mapping + ` universe 4 appnum 0 kvs ok$`}}, 4)
			})
			for _, name := range slurmPrograms {
				t.Run(name, func(t *testing.T) {
					file := filepath.Join(root, "tests/c", name+".c")
					s, err := parseSpecFile(file)
					require.NoError(t, err)
					require.Contains(t, s.nps, 4, "%s must run on 4 ranks", name)
					bin := gompicc(t, root, file, name)
					sl.runSpec(t, mpi, bin, s, 4)
				})
			}
			// MPI_Abort ends the whole step through the PMI's abort: srun
			// exits non-zero at once and no rank is left.
			t.Run("abort", func(t *testing.T) {
				file := filepath.Join(root, "tests/c/abort_one_rank.c")
				bin := gompicc(t, root, file, "abort_one_rank")
				s := &spec{timeout: 30 * time.Second, exit: "nonzero", maxTime: 20 * time.Second,
					stderrMatch: []string{`MPI_Abort\(MPI_COMM_WORLD, 7\) called by rank {last}\b`}}
				sl.runSpec(t, mpi, bin, s, 3)
			})
		})
	}
}

// TestHydraPMI2 runs a program under MPICH's Hydra speaking PMI-2 (forced
// with GOMPI_PMI=2; Hydra serves both versions): a second PMI-2 server
// beside Slurm's.
func TestHydraPMI2(t *testing.T) {
	root := ensureBuild(t)
	requireMPICH(t)
	for _, name := range []string{"env_basic", "coll_default"} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(root, "tests/c", name+".c")
			s, err := parseSpecFile(file)
			require.NoError(t, err)
			bin := gompicc(t, root, file, name)
			j := job{argv: []string{"mpiexec.mpich", "-n", "3", bin},
				env: []string{"GOMPI_TEST_NP=3", "GOMPI_PMI=2"}, timeout: goSideTimeout(s.timeout), binary: bin}
			start := time.Now()
			r := run(j)
			checkRun(t, j, r, start, checkExpect(s, 3, r))
		})
	}
}

// slurm is a running test cluster.
type slurm struct{ *slurmtest.Cluster }

// slurmUnavailable fails the test under CI=true and skips it otherwise,
// with a one-line reason either way.
func slurmUnavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := "Slurm test cluster: " + fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

func startSlurm(t *testing.T) *slurm {
	t.Helper()
	if os.Geteuid() != 0 {
		slurmUnavailable(t, "slurmd must run as root")
	}
	if err := slurmtest.Install("slurmctld", "slurmd", "srun", "sinfo", "scancel", "squeue"); err != nil {
		slurmUnavailable(t, "%v", err)
	}
	slurmtest.ClearEnv(t)
	host, err := os.Hostname()
	require.NoError(t, err)
	host, _, _ = strings.Cut(host, ".")
	cl, err := slurmtest.New(t, t.TempDir(), slurmtest.Conf{Cluster: "gompi", CtldHost: host, CtldAddr: "127.0.0.1",
		Nodes:     fmt.Sprintf("NodeName=%s NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN\n", host, runtime.NumCPU()),
		Partition: "gompi"})
	require.NoError(t, err)
	sl := &slurm{cl}

	// Both daemons stay in the foreground (-D) as our children, so the
	// test knows them and ends them; -c starts from an empty state.
	for _, argv := range [][]string{{"slurmctld", "-D", "-c", "-f", cl.ConfFile}, {"slurmd", "-D", "-f", cl.ConfFile}} {
		if _, err := cl.Start(argv[0], argv...); err != nil {
			slurmUnavailable(t, "%v", err)
		}
	}
	// slurmstepd daemonizes: those whose spool is ours are left behind.
	t.Cleanup(func() { cl.Stop(t, "slurmstepd processes", func() []int { return stepds(cl.Dir) }) })

	deadline := time.Now().Add(testtime.D(60 * time.Second))
	for {
		out, err := exec.Command("sinfo", "-h", "-N", "-o", "%t").CombinedOutput()
		state := strings.TrimSpace(string(out))
		if err == nil && state == "idle" {
			break
		}
		if time.Now().After(deadline) {
			slurmUnavailable(t, "the node did not become idle (sinfo: %q %v); slurmctld: %s; slurmd: %s",
				state, err, cl.LogTail("slurmctld.log"), cl.LogTail("slurmd.log"))
		}
		for _, p := range cl.Daemons {
			if p.Exited() {
				slurmUnavailable(t, "%s exited: %s", p.Name, cl.LogTail(p.Name+".log"))
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return sl
}

// stepds lists slurmstepd processes started for the cluster in dir (their
// working directory or open files mention it; a stepd of another cluster
// does not).
func stepds(dir string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		if strings.TrimSpace(string(comm)) != "slurmstepd" || zombie(pid) {
			continue
		}
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		for _, fd := range fds {
			target, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
			if strings.HasPrefix(target, dir) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// runSpec runs bin on np tasks under srun --mpi=<mpi> and checks s.
func (sl *slurm) runSpec(t *testing.T, mpi, bin string, s *spec, np int) {
	t.Helper()
	argv := []string{"srun", "--mpi=" + mpi, "-n", strconv.Itoa(np), "--overcommit",
		"--kill-on-bad-exit=1", "--quiet", bin}
	for _, a := range s.args {
		argv = append(argv, expand(a, np, 0))
	}
	env := []string{fmt.Sprintf("GOMPI_TEST_NP=%d", np)}
	for _, kv := range s.env {
		env = append(env, expand(kv, np, 0))
	}
	j := job{argv: argv, env: env, timeout: goSideTimeout(s.timeout), binary: bin}
	start := time.Now()
	r := run(j)
	if r.timedOut {
		exec.Command("scancel", "--full", "--quiet", "--user", "root").Run()
	}
	checkRun(t, j, r, start, checkExpect(s, np, r))
}
