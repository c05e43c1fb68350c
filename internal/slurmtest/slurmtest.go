// Package slurmtest starts a throw-away Slurm cluster for tests: the
// slurm.conf, the daemons as the test's children, and their orderly end
// with nothing left running. The one-node test (tests/c) and the cluster
// across the network-namespace rig (tests/multinode) share it.
package slurmtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gompi/internal/testtime"
)

// Install installs slurm-wlm when one of tools is missing and returns an
// error naming what is still missing.
func Install(tools ...string) error {
	missing := func() string {
		for _, b := range tools {
			if _, err := exec.LookPath(b); err != nil {
				return b
			}
		}
		return ""
	}
	tool := missing()
	if tool == "" {
		return nil
	}
	cmd := exec.Command("apt-get", "install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=300", "slurm-wlm")
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	out, err := cmd.CombinedOutput()
	if still := missing(); err != nil || still != "" {
		return fmt.Errorf("%s not found, and apt-get install slurm-wlm: %v %s", tool, err, LastLine(out))
	}
	return nil
}

// ClearEnv drops an enclosing Slurm job's variables, which would point
// srun at its cluster.
func ClearEnv(t *testing.T) {
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "SLURM_") || strings.HasPrefix(k, "PMI_") || strings.HasPrefix(k, "PMIX_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
}

// FreePort asks the kernel for an unused TCP port (the daemons bind it a
// moment later; another test's cluster may run on this machine).
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Conf is what differs between the test clusters' slurm.conf files.
type Conf struct {
	Cluster   string // ClusterName prefix; the pid is appended
	CtldHost  string // SlurmctldHost's name
	CtldAddr  string // and address
	PerNode   bool   // spool, TmpFS, pid and log file per node (%n): nodes on one file system
	Nodes     string // NodeName lines
	Partition string
}

// Cluster is a running test cluster in Dir.
type Cluster struct {
	Dir, ConfFile string
	Daemons       []*Daemon // slurmctld first
}

// New writes dir/slurm.conf for c with fresh ports, makes the state and
// spool directories and sets SLURM_CONF for the test.
func New(t *testing.T, dir string, c Conf) (*Cluster, error) {
	ctldPort, err := FreePort()
	if err != nil {
		return nil, err
	}
	dPort, err := FreePort()
	if err != nil {
		return nil, err
	}
	dirs := []string{"state", "spool"}
	n := ""
	if c.PerNode {
		n = "-%n"
		dirs = dirs[:1]
	}
	for _, d := range dirs {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ClusterName=%s%d\nSlurmctldHost=%s(%s)\nSlurmctldPort=%d\nSlurmdPort=%d\n",
		c.Cluster, os.Getpid(), c.CtldHost, c.CtldAddr, ctldPort, dPort)
	b.WriteString(`AuthType=auth/none
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
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
KillWait=5
`)
	fmt.Fprintf(&b, "StateSaveLocation=%[1]s/state\nSlurmdSpoolDir=%[1]s/spool%[2]s\nSlurmctldPidFile=%[1]s/slurmctld.pid\n"+
		"SlurmdPidFile=%[1]s/slurmd%[2]s.pid\nSlurmctldLogFile=%[1]s/slurmctld.log\nSlurmdLogFile=%[1]s/slurmd%[2]s.log\n", dir, n)
	if c.PerNode {
		fmt.Fprintf(&b, "TmpFS=%s/tmp-%%n\n", dir)
	}
	fmt.Fprintf(&b, "%sPartitionName=%s Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE\n",
		c.Nodes, c.Partition)
	cl := &Cluster{Dir: dir, ConfFile: filepath.Join(dir, "slurm.conf")}
	if err := os.WriteFile(cl.ConfFile, []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	t.Setenv("SLURM_CONF", cl.ConfFile)
	return cl, nil
}

// Daemon is a Slurm daemon the test started; done closes when it exits.
type Daemon struct {
	Name string
	cmd  *exec.Cmd
	done chan struct{}
}

// Exited tells whether the daemon has ended.
func (d *Daemon) Exited() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

// Start runs argv in the cluster's directory, in a process group of its
// own, as a daemon of the cluster named name.
func (cl *Cluster) Start(name string, argv ...string) (*Daemon, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = cl.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %v", name, err)
	}
	d := &Daemon{Name: name, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(d.done) }()
	cl.Daemons = append(cl.Daemons, d)
	return d, nil
}

// Stop cancels what is queued or running, ends the daemons in reverse order
// of start and waits until leftovers (what the cluster may leave behind:
// slurmstepd daemonizes out of slurmd's reach) finds nothing, killing what
// is still there after a while. what names the leftovers in the error.
func (cl *Cluster) Stop(t *testing.T, what string, leftovers func() []int) {
	exec.Command("scancel", "--full", "--quiet", "--user", "root").Run()
	deadline := time.Now().Add(testtime.D(20 * time.Second))
	for time.Now().Before(deadline) {
		out, err := exec.Command("squeue", "-h").Output()
		if err != nil || strings.TrimSpace(string(out)) == "" {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	for i := len(cl.Daemons) - 1; i >= 0; i-- {
		d := cl.Daemons[i]
		d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(testtime.D(10 * time.Second)):
			t.Errorf("%s did not stop on SIGTERM; killed", d.Name)
			syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
			<-d.done
		}
	}
	end := time.Now().Add(testtime.D(10 * time.Second))
	for {
		left := leftovers()
		if len(left) == 0 {
			return
		}
		if time.Now().After(end) {
			t.Errorf("%s left: %v", what, left)
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// LogTail is the last line of the cluster's log file name.
func (cl *Cluster) LogTail(name string) string {
	b, _ := os.ReadFile(filepath.Join(cl.Dir, name))
	return LastLine(b)
}

// LastLine is b's last non-empty line.
func LastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}
