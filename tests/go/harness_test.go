// Package gotests runs the Go test programs of tests/go/progs: each is a
// main package written against gompi/mpi, built with `go build` once per
// test run and run under build/bin/gompirun (`make build` runs first when it
// is missing) for every process count, each run under a timeout.
package gotests

import (
	"bytes"
	"context"
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

// Deadlines of a job, scaled to the machine (testtime): far beyond what any
// program here needs, so that reaching one means a hang.
var (
	jobTimeout  = testtime.Seconds(60)         // seconds: gompirun --timeout
	killTimeout = testtime.D(90 * time.Second) // the harness kills gompirun's process group after this
)

// workDir holds the programs built by this test run.
var workDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gompi-gotests-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotests:", err)
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

// gompirun returns build/bin/gompirun, running `make build` once when it is
// missing; a failed build fails the test, never skips it.
func gompirun(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
	bin := filepath.Join(root, "build", "bin", "gompirun")
	buildOnce.Do(func() {
		if _, err := os.Stat(bin); err == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "make", "-C", root, "build").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("make build (for %s): %v\n%s", bin, err, tail(out, 8000))
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bin
}

var (
	progMu    sync.Mutex
	progCache = map[string]error{}
)

// program builds tests/go/progs/name once per test run and returns its path.
func program(t *testing.T, name string) string {
	t.Helper()
	root := repoRoot(t)
	out := filepath.Join(workDir, name)
	progMu.Lock()
	defer progMu.Unlock()
	err, done := progCache[name]
	if !done {
		cmd := exec.Command(goTool(), "build", "-o", out, "./tests/go/progs/"+name)
		cmd.Dir = root
		if b, e := cmd.CombinedOutput(); e != nil {
			err = fmt.Errorf("go build ./tests/go/progs/%s: %v\n%s", name, e, b)
		}
		progCache[name] = err
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(os.Getenv("GOROOT"), "bin", "go")
}

type result struct {
	stdout, stderr string
	code           int
	elapsed        time.Duration
}

// run starts `gompirun -n np --timeout jobTimeout [-x env]... prog args...`. gompirun
// ends a hung job itself; should it hang too, its whole process group is
// killed and the test fails.
func run(t *testing.T, np int, env []string, prog string, args ...string) result {
	t.Helper()
	argv := []string{"-n", strconv.Itoa(np), "--timeout", strconv.Itoa(jobTimeout)}
	for _, e := range env {
		argv = append(argv, "-x", e)
	}
	argv = append(append(argv, prog), args...)
	ctx, cancel := context.WithTimeout(context.Background(), killTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, gompirun(t), argv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	res := result{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("gompirun %s hung: killed after %v\nstdout:\n%s\nstderr:\n%s", strings.Join(argv, " "), killTimeout, tail(out.Bytes(), 4000), tail(errb.Bytes(), 4000))
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("gompirun %s: %v", strings.Join(argv, " "), err)
	}
	return res
}

func tail(b []byte, n int) string {
	if len(b) > n {
		return "..." + string(b[len(b)-n:])
	}
	return string(b)
}
