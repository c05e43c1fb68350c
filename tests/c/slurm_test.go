package ctests

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

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
					slurmUnavailable(t, "this Slurm has no mpi/pmix plugin: %s", lastLine(out))
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
type slurm struct {
	dir  string
	conf string
}

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

// slurmBinaries are the Slurm programs the test uses.
var slurmBinaries = []string{"slurmctld", "slurmd", "srun", "sinfo", "scancel", "squeue"}

func haveSlurm() bool {
	for _, b := range slurmBinaries {
		if _, err := exec.LookPath(b); err != nil {
			return false
		}
	}
	return true
}

// freePort asks the kernel for an unused TCP port (the daemons bind it a
// moment later; another helper's cluster may run on this machine).
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func startSlurm(t *testing.T) *slurm {
	t.Helper()
	if os.Geteuid() != 0 {
		slurmUnavailable(t, "slurmd must run as root")
	}
	if !haveSlurm() {
		cmd := exec.Command("apt-get", "install", "-y", "-qq", "slurm-wlm")
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil || !haveSlurm() {
			slurmUnavailable(t, "cannot install slurm-wlm: %v %s", err, lastLine(out))
		}
	}
	// An enclosing Slurm job's variables would point srun at its cluster.
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "SLURM_") || strings.HasPrefix(k, "PMI_") || strings.HasPrefix(k, "PMIX_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	host, err := os.Hostname()
	require.NoError(t, err)
	host, _, _ = strings.Cut(host, ".")
	dir := t.TempDir()
	for _, d := range []string{"state", "spool"} {
		require.NoError(t, os.Mkdir(filepath.Join(dir, d), 0o755))
	}
	sl := &slurm{dir: dir, conf: filepath.Join(dir, "slurm.conf")}
	conf := fmt.Sprintf(`ClusterName=gompi%d
SlurmctldHost=%[2]s(127.0.0.1)
SlurmctldPort=%d
SlurmdPort=%d
AuthType=auth/none
CredType=cred/none
MpiDefault=pmi2
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmUser=root
SlurmdUser=root
SlurmdParameters=config_overrides
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/spool
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmctldLogFile=%[5]s/slurmctld.log
SlurmdLogFile=%[5]s/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
KillWait=5
NodeName=%[2]s NodeAddr=127.0.0.1 CPUs=%[6]d State=UNKNOWN
PartitionName=gompi Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
`, os.Getpid(), host, freePort(t), freePort(t), dir, runtime.NumCPU())
	require.NoError(t, os.WriteFile(sl.conf, []byte(conf), 0o644))
	t.Setenv("SLURM_CONF", sl.conf)

	// Both daemons stay in the foreground (-D) as our children, so the
	// test knows them and ends them; -c starts from an empty state.
	ctld := sl.daemon(t, "slurmctld", "-D", "-c", "-f", sl.conf)
	d := sl.daemon(t, "slurmd", "-D", "-f", sl.conf)
	t.Cleanup(func() { sl.stop(t, ctld, d) })

	deadline := time.Now().Add(testtime.D(60 * time.Second))
	for {
		out, err := exec.Command("sinfo", "-h", "-N", "-o", "%t").CombinedOutput()
		state := strings.TrimSpace(string(out))
		if err == nil && state == "idle" {
			break
		}
		if time.Now().After(deadline) {
			slurmUnavailable(t, "the node did not become idle (sinfo: %q %v); slurmctld: %s; slurmd: %s",
				state, err, sl.logTail("slurmctld.log"), sl.logTail("slurmd.log"))
		}
		for _, p := range []*daemon{ctld, d} {
			if p.exited() {
				slurmUnavailable(t, "%s exited: %s", p.name, sl.logTail(p.name+".log"))
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return sl
}

// daemon is a Slurm daemon we started; done closes when it exits.
type daemon struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
}

func (d *daemon) exited() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

func (sl *slurm) daemon(t *testing.T, name string, args ...string) *daemon {
	t.Helper()
	path, _ := exec.LookPath(name)
	cmd := exec.Command(path, args...)
	cmd.Env = os.Environ()
	cmd.Dir = sl.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		slurmUnavailable(t, "start %s: %v", name, err)
	}
	d := &daemon{name: name, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(d.done) }()
	return d
}

// stop cancels what is still queued or running, ends both daemons and
// waits until no slurmstepd of this cluster is left.
func (sl *slurm) stop(t *testing.T, daemons ...*daemon) {
	exec.Command("scancel", "--full", "--quiet", "--user", "root").Run()
	deadline := time.Now().Add(testtime.D(20 * time.Second))
	for time.Now().Before(deadline) {
		out, err := exec.Command("squeue", "-h").Output()
		if err != nil || strings.TrimSpace(string(out)) == "" {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	for i := len(daemons) - 1; i >= 0; i-- {
		d := daemons[i]
		d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(testtime.D(10 * time.Second)):
			t.Errorf("%s did not stop on SIGTERM; killed", d.name)
			syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
			<-d.done
		}
	}
	// slurmstepd daemonizes: find those whose spool is ours.
	end := time.Now().Add(testtime.D(10 * time.Second))
	for {
		left := stepds(sl.dir)
		if len(left) == 0 {
			return
		}
		if time.Now().After(end) {
			t.Errorf("slurmstepd processes left: %v", left)
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
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

func (sl *slurm) logTail(name string) string {
	b, _ := os.ReadFile(filepath.Join(sl.dir, name))
	return lastLine(b)
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
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
