// Package ctests runs the C test programs of tests/c against the built
// libgompi: it builds the tree if needed, compiles each program with gompicc
// once per test run, runs it under gompirun for every process count its
// directives ask for, and checks exit status, output, time and leftovers.
package ctests

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"gompi/internal/repo"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// workDir holds the compiled programs of this test run; its random name makes
// every binary path unique, which the leak checks rely on.
var workDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gompi-ctests-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "ctests:", err)
		os.Exit(2)
	}
	workDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
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
)

// buildOutputs are what the tests need from `make build`.
var buildOutputs = []string{"build/lib/libgompi.so", "build/include/mpi.h", "build/bin/gompirun", "build/bin/gompicc", "build/lib/libgompi-prof.so"}

// ensureBuild runs `make build` once per test run if an output is missing; a
// failed build fails the test (never skips it) and returns the repo root.
func ensureBuild(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
	buildOnce.Do(func() {
		var missing []string
		for _, p := range buildOutputs {
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				missing = append(missing, p)
			}
		}
		if len(missing) == 0 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "make", "-C", root, "build")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("make build (needed for %s): %v\n%s", strings.Join(missing, ", "), err, tail(out, 8000))
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return root
}

type compiled struct {
	path string
	err  error
}

var (
	compileMu    sync.Mutex
	compileCache = map[string]compiled{}
)

// compile builds src with the compiler command cc (argv prefix) into
// workDir/name, once per test run; later calls return the cached result.
func compile(t *testing.T, name, src string, cc ...string) string {
	t.Helper()
	compileMu.Lock()
	defer compileMu.Unlock()
	key := strings.Join(cc, " ") + "\x00" + src + "\x00" + name
	c, ok := compileCache[key]
	if !ok {
		c.path = filepath.Join(workDir, name)
		// Flags after the source, so libraries given as flags (-ltool) come after
		// the object that needs them.
		args := append(append([]string{src}, cc[1:]...), "-o", c.path)
		out, err := exec.Command(cc[0], args...).CombinedOutput()
		if err != nil {
			c.err = fmt.Errorf("%s %s: %v\n%s", cc[0], strings.Join(args, " "), err, out)
		}
		compileCache[key] = c
	}
	if c.err != nil {
		t.Fatal(c.err)
	}
	return c.path
}

// gompicc compiles a test program with gompi's wrapper and the strict flags
// every test program must pass.
func gompicc(t *testing.T, root, src, name string, extra ...string) string {
	t.Helper()
	cc := append([]string{filepath.Join(root, "build/bin/gompicc"), "-O2", "-Wall", "-Werror"}, extra...)
	return compile(t, name, src, cc...)
}

// job is one launch of a parallel program.
type job struct {
	argv    []string      // launcher command line
	env     []string      // added to this process's environment
	timeout time.Duration // Go-side limit; the process group is killed after it
	binary  string        // the program the ranks run, for the leak checks
}

type result struct {
	stdout, stderr string
	exitCode       int // -1 when killed by a signal
	elapsed        time.Duration
	timedOut       bool
	pgid           int   // the launcher's process group, 0 if it never started
	err            error // a failure to start or wait, not a non-zero exit
}

// run starts the launcher in its own process group and kills the group if the
// Go-side timeout passes, so a hang always ends as a failure.
func run(j job) result {
	ctx, cancel := context.WithTimeout(context.Background(), j.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, j.argv[0], j.argv[1:]...)
	cmd.Env = append(os.Environ(), j.env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// Ranks that outlive the launcher keep the output pipes open; don't wait for them.
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{elapsed: time.Since(start), timedOut: ctx.Err() != nil}
	if cmd.Process != nil {
		r.pgid = cmd.Process.Pid
	}
	r.stdout, r.stderr = stdout.String(), stderr.String()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		r.exitCode = 0
	case errors.As(err, &exitErr):
		r.exitCode = exitErr.ExitCode()
	default:
		r.exitCode = -1
		r.err = err
	}
	return r
}

// describe formats a run for a failure message.
func (r result) describe(argv []string) string {
	return fmt.Sprintf("command: %s\nexit: %d after %.2fs (Go-side timeout hit: %v)\n--- stdout ---\n%s--- stderr ---\n%s",
		strings.Join(argv, " "), r.exitCode, r.elapsed.Seconds(), r.timedOut,
		tail([]byte(r.stdout), 6000), tail([]byte(r.stderr), 6000))
}

// tail keeps the last n bytes of b, which is where a failure usually shows.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = append([]byte("[...]\n"), b[len(b)-n:]...)
	}
	s := string(b)
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// failMarker is what check.h prints for a failed self-check.
const failMarker = "TEST-FAIL"

// checkRun reports the given problems with a run together with those that
// hold for every run (it finished before the Go-side timeout, no self-check
// failed) in one failure message, then checks that the job left nothing
// behind.
func checkRun(t *testing.T, j job, r result, start time.Time, problems []string) {
	t.Helper()
	if r.err != nil {
		problems = append(problems, fmt.Sprintf("launch failed: %v", r.err))
	}
	if r.timedOut {
		problems = append(problems, fmt.Sprintf("no end within the Go-side timeout of %v; process group killed", j.timeout))
	}
	if strings.Contains(r.stdout, failMarker) || strings.Contains(r.stderr, failMarker) {
		problems = append(problems, "the program reported failed checks ("+failMarker+")")
	}
	if len(problems) > 0 {
		t.Errorf("%s\n%s", strings.Join(problems, "\n"), r.describe(j.argv))
	}
	checkNoLeaks(t, j.binary, r.stderr, start)
	if r.pgid > 0 {
		// Whatever is left in the launcher's group was started by us: end it.
		syscall.Kill(-r.pgid, syscall.SIGKILL)
	}
}
