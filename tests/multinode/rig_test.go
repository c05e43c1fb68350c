// Package multinode runs gompirun across hosts on one machine: a rig of
// three network namespaces (scripts/netns-rig.sh), each a "host" n1..n3 with
// a hostname of its own, entered through the rig's launch agent.
package multinode

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"gompi/internal/repo"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gompi/internal/testtime"
)

// rigHosts is the number of namespaces ("hosts") of the rig.
const rigHosts = 3

var (
	workDir string
	rigMu   sync.Mutex
	rigUp   bool
	rigErr  error
	rigName string // namespace prefix, unique per test run
	rigLock *os.File
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gompi-multinode-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "multinode:", err)
		os.Exit(2)
	}
	workDir = dir
	code := m.Run()
	rigDown()
	os.RemoveAll(dir)
	os.Exit(code)
}

// requireRig sets the rig up once per test run. When the machine cannot
// have one (not root, no ip(8), namespaces not allowed) the test is skipped
// with one line why, and fails under CI=true.
func requireRig(t *testing.T) {
	t.Helper()
	rigMu.Lock()
	defer rigMu.Unlock()
	if !rigUp && rigErr == nil {
		rigErr = rigSetUp(repoRoot(t))
		rigUp = rigErr == nil
	}
	if rigErr != nil {
		msg := "no multi-host rig: " + rigErr.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

func rigSetUp(root string) error {
	if os.Geteuid() != 0 {
		return errors.New("needs root for network namespaces")
	}
	for _, tool := range []string{"ip", "unshare"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s not found", tool)
		}
	}
	// One rig at a time on this machine: they all use 10.77.0.0/24.
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "gompi-netns-rig.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return err
	}
	rigLock = f
	removeStaleRigs(root)
	var b [2]byte
	rand.Read(b[:])
	rigName = "gmh" + hex.EncodeToString(b[:])
	out, err := exec.Command(rigScript(root), "up", rigName, strconv.Itoa(rigHosts)).CombinedOutput()
	if err != nil {
		exec.Command(rigScript(root), "down", rigName, strconv.Itoa(rigHosts)).Run()
		rigLock.Close()
		return fmt.Errorf("netns-rig.sh up: %v: %s", err, firstLine(out))
	}
	return nil
}

// removeStaleRigs takes down rigs of earlier runs that were killed before
// their clean-up (holding the lock, no other run is live): two bridges with
// the same address would misroute the replies.
func removeStaleRigs(root string) {
	out, _ := exec.Command("ip", "-br", "link", "show", "type", "bridge").Output()
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "gmh") || !strings.HasSuffix(f[0], "br") {
			continue
		}
		exec.Command(rigScript(root), "down", strings.TrimSuffix(f[0], "br"), strconv.Itoa(rigHosts)).Run()
	}
}

func rigDown() {
	if !rigUp {
		return
	}
	root, _ := repo.Root() // found already when the rig came up
	exec.Command(rigScript(root), "down", rigName, strconv.Itoa(rigHosts)).Run()
	rigLock.Close()
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}

func rigScript(root string) string { return filepath.Join(root, "scripts/netns-rig.sh") }

// agent is the --launch-agent value entering the rig's namespaces.
func agent(root string) string { return rigScript(root) + " agent" }

// rigPids lists the live (not zombie) processes in namespace i of the rig.
func rigPids(i int) []int {
	out, _ := exec.Command("ip", "netns", "pids", rigName+strconv.Itoa(i)).Output()
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// alive: the process exists and is no zombie (an orphan's zombie may wait
// for an init that does not reap; it holds nothing).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// repoRoot is the directory holding gompi's go.mod, found upwards from here.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

var (
	buildOnce sync.Once
	buildErr  error
	builtMu   sync.Mutex
	built     = map[string]string{}
)

// ensureBuild runs `make build` once if gompirun or gompicc is missing.
func ensureBuild(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
	buildOnce.Do(func() {
		for _, p := range []string{"build/bin/gompirun", "build/bin/gompicc", "build/lib/libgompi.so"} {
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				if out, err := exec.Command("make", "-C", root, "build").CombinedOutput(); err != nil {
					buildErr = fmt.Errorf("make build: %v\n%s", err, out)
				}
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return root
}

// program builds a test program once per run: a .c file with gompicc, a
// directory with go build.
func program(t *testing.T, root, src string) string {
	t.Helper()
	builtMu.Lock()
	defer builtMu.Unlock()
	if p, ok := built[src]; ok {
		return p
	}
	name := strings.TrimSuffix(filepath.Base(src), ".c")
	out := filepath.Join(workDir, name)
	var cmd *exec.Cmd
	if strings.HasSuffix(src, ".c") {
		cmd = exec.Command(filepath.Join(root, "build/bin/gompicc"), "-O2", "-Wall", "-Werror", "-o", out, filepath.Join(root, src))
	} else {
		cmd = exec.Command("go", "build", "-o", out, "./"+src)
		cmd.Dir = root
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, b)
	}
	built[src] = out
	return out
}

// result of one gompirun.
type result struct {
	stdout, stderr string
	code           int
	elapsed        time.Duration
	pid            int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d after %.2fs\n--- stdout ---\n%s--- stderr ---\n%s", r.code, r.elapsed.Seconds(), r.stdout, r.stderr)
}

// gompirun runs the launcher with args; hostname "" gives every rig host its
// own name (n1..n3), else all share it (one node to gompi). during, if not
// nil, runs once ready holds for the job's stdout so far.
func gompirun(t *testing.T, root, hostname, stdin string, args []string, ready func(*syncBuffer) bool, during func(out *syncBuffer, pid int)) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.D(90*time.Second))
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(root, "build/bin/gompirun"), args...)
	cmd.Env = append(os.Environ(), "GOMPI_RIG_PREFIX="+rigName, "GOMPI_RIG_HOSTNAME="+hostname)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if during != nil {
		deadline := time.Now().Add(testtime.D(60 * time.Second))
		for !ready(&stdout) {
			if time.Now().After(deadline) {
				t.Errorf("the job was not ready within a minute; output so far:\n%s", stdout.String())
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		during(&stdout, cmd.Process.Pid)
	}
	err := cmd.Wait()
	r := result{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start), pid: cmd.Process.Pid}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("gompirun: %v\n%s", err, r)
	}
	if ctx.Err() != nil {
		t.Fatalf("gompirun did not end within the Go-side timeout\n%s", r)
	}
	return r
}

// checkClean: nothing of the job is left: no process in the rig, none
// running prog, no shared-memory file of the job.
func checkClean(t *testing.T, r result, prog string) {
	t.Helper()
	// The job's end is asynchronous on the hosts only until gompirun returns;
	// allow the kernel a moment to finish killing.
	deadline := time.Now().Add(testtime.D(3 * time.Second))
	for {
		var left []string
		if rigUp {
			for i := 1; i <= rigHosts; i++ {
				for _, pid := range rigPids(i) {
					left = append(left, fmt.Sprintf("pid %d in namespace %d", pid, i))
				}
			}
		}
		if prog != "" {
			out, _ := exec.Command("pgrep", "-f", prog).Output()
			for _, f := range strings.Fields(string(out)) {
				if pid, _ := strconv.Atoi(f); alive(pid) {
					left = append(left, "pid "+f+" running "+prog)
				}
			}
		}
		shm, _ := filepath.Glob(fmt.Sprintf("/dev/shm/gompi-%dx*", r.pid))
		left = append(left, shm...)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("left behind: %s", strings.Join(left, ", "))
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
