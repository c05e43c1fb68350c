package launcher

// Integration tests: build gompirun and a PMI test rank, run real jobs.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/internal/testtime"
)

var (
	binDir    string // holds gompirun, gompitune and pmiprog
	gompirun  string
	gompitune string
	pmiprog   string
)

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gompirun-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = filepath.Join(dir, "bin")
	gompirun = filepath.Join(binDir, "gompirun")
	pmiprog = filepath.Join(binDir, "pmiprog")
	gompitune = filepath.Join(binDir, "gompitune")
	for _, b := range [][2]string{{gompirun, "../cmd/gompirun"}, {pmiprog, "./testdata/pmiprog"}, {gompitune, "../cmd/gompitune"}} {
		out, err := exec.Command(goTool(), "build", "-o", b[0], b[1]).CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", b[1], err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
	elapsed        time.Duration
	ended          time.Time
}

// jobTimeout bounds every gompirun run of these tests: far beyond what any
// of them needs, so that reaching it means a hang, not a busy machine.
var jobTimeout = testtime.D(120 * time.Second)

// prompt bounds how long a job may take to end once its end is decided (a
// rank died, --timeout passed): the alternative is a hang until jobTimeout.
var prompt = testtime.D(10 * time.Second)

func runWith(t *testing.T, stdin io.Reader, env []string, bin string, args ...string) result {
	t.Helper()
	return runFor(t, jobTimeout, stdin, env, bin, args...)
}

// runFor is runWith with its own deadline.
func runFor(t *testing.T, deadline time.Duration, stdin io.Reader, env []string, bin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &out, &errb, stdin
	cmd.Env = append(os.Environ(), env...)
	start := time.Now()
	err := cmd.Run()
	res := result{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start), ended: time.Now()}
	require.NoError(t, ctx.Err(), "gompirun %q did not finish; stderr:\n%s", args, res.stderr)
	if ee, ok := err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return res
}

func run(t *testing.T, args ...string) result {
	t.Helper()
	return runWith(t, nil, nil, gompirun, args...)
}

// alive tells whether pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return false
	}
	return b[i+2] != 'Z' && b[i+2] != 'X'
}

// ints collects the numbers after key= in output.
func ints(t *testing.T, out, key string) []int {
	t.Helper()
	var r []int
	for _, m := range regexp.MustCompile(`\b`+key+`=(\d+)`).FindAllStringSubmatch(out, -1) {
		n, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		r = append(r, n)
	}
	return r
}

func assertAllGone(t *testing.T, pids []int) {
	t.Helper()
	// The kernel finishes SIGKILLed processes asynchronously; allow a moment.
	assert.Eventually(t, func() bool {
		for _, p := range pids {
			if alive(p) {
				return false
			}
		}
		return true
	}, prompt, 10*time.Millisecond, "processes survived the job: %v", pids)
}

func TestHelpAndUsage(t *testing.T) {
	r := run(t, "--help")
	assert.Equal(t, 0, r.code)
	assert.Contains(t, r.stdout, "usage: gompirun")
	r = run(t)
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "no program to run")
	r = run(t, "-n", "2", "/no/such/program")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "gompirun: cannot run /no/such/program")
}

func TestProgramInCurrentDirectory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "myprog"), []byte("#!/bin/sh\necho here $PMI_RANK\n"), 0o755))
	ctx, cancel := context.WithTimeout(context.Background(), jobTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, gompirun, "-n", "1", "myprog")
	cmd.Dir = dir
	out, err := cmd.Output()
	require.NoError(t, err)
	assert.Equal(t, "here 0\n", string(out))
}

func TestPlainProgram(t *testing.T) {
	r := run(t, "-n", "2", "hostname")
	assert.Equal(t, 0, r.code, r.stderr)
	host, _ := os.Hostname()
	assert.Equal(t, host+"\n"+host+"\n", r.stdout)
	assert.Empty(t, r.stderr)
}

func TestPMIJob(t *testing.T) {
	cpus, err := AllowedCPUs()
	require.NoError(t, err)
	for _, n := range []int{1, 2, 4} {
		r := run(t, "-n", strconv.Itoa(n), pmiprog, "ok")
		require.Equal(t, 0, r.code, r.stderr)
		for i := 0; i < n; i++ {
			// The universe: the CPUs gompirun may use, at least the job.
			assert.Contains(t, r.stdout, fmt.Sprintf("rank %d got hello-from-%d universe=%d appnum=0\n", i, (i+1)%n, max(n, len(cpus))))
		}
		assert.Empty(t, r.stderr)
	}
}

func TestOversubscribed(t *testing.T) {
	cpus, err := AllowedCPUs()
	require.NoError(t, err)
	n := len(cpus) + 3
	r := run(t, "-n", strconv.Itoa(n), pmiprog, "ok")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, n, strings.Count(r.stdout, " got hello-from-"))
}

func TestExitCodes(t *testing.T) {
	r := run(t, "-n", "3", "sh", "-c", "exit 0")
	assert.Equal(t, 0, r.code)

	// A plain program failing ends the job at once.
	r = run(t, "-n", "2", "sh", "-c", `if [ "$PMI_RANK" = 1 ]; then exit 3; fi; exec sleep 600`)
	assert.Equal(t, 3, r.code)
	assert.Regexp(t, `gompirun: rank 1 \(pid \d+\) exited with code 3; terminating job`, r.stderr)
	assert.Less(t, r.elapsed, prompt)

	// An MPI rank failing before finalize.
	r = run(t, "-n", "3", pmiprog, "exit", "2", "4")
	assert.Equal(t, 4, r.code)
	assert.Regexp(t, `rank 2 \(pid \d+\) exited with code 4 before calling MPI_Finalize; terminating job`, r.stderr)

	// After finalize a non-zero code does not kill the others, but is the status.
	r = run(t, "-n", "3", pmiprog, "finalize-exit", "0", "5")
	assert.Equal(t, 5, r.code)
	assert.Contains(t, r.stdout, "rank 1 finished")
	assert.Contains(t, r.stdout, "rank 2 finished")
	assert.Regexp(t, `rank 0 \(pid \d+\) exited with code 5 after MPI_Finalize`, r.stderr)
}

func TestExitWithoutFinalize(t *testing.T) {
	r := run(t, "-n", "2", pmiprog, "nofinalize", "1")
	assert.Equal(t, 1, r.code)
	assert.Regexp(t, `gompirun: rank 1 \(pid \d+\) exited without calling MPI_Finalize; terminating job`, r.stderr)
	assertAllGone(t, ints(t, r.stdout, "pid"))
}

func TestAbort(t *testing.T) {
	r := run(t, "-n", "3", pmiprog, "abort", "1", "3", "input file missing")
	assert.Equal(t, 3, r.code)
	assert.Regexp(t, `gompirun: rank 1 \(pid \d+\) called MPI_Abort with code 3: input file missing; terminating job`, r.stderr)
	assert.Equal(t, 1, strings.Count(r.stderr, "gompirun:"), "one message: %s", r.stderr)
	assertAllGone(t, ints(t, r.stdout, "pid"))

	r = run(t, "-n", "2", pmiprog, "abort", "0", "0", "zero")
	assert.Equal(t, 1, r.code, "abort with code 0 still fails the job")
}

// A rank breaking the PMI protocol (barrier_in twice) ends the job at once
// with a message naming it, instead of hanging until a timeout.
func TestPMIViolationEndsJob(t *testing.T) {
	r := run(t, "-n", "2", pmiprog, "barrier2", "1")
	assert.Equal(t, 1, r.code)
	assert.Regexp(t, `gompirun: rank 1 \(pid \d+\) broke the PMI protocol: cmd=barrier_in while waiting in a barrier`, r.stderr)
	assert.Less(t, r.elapsed, prompt)
}

func TestKilledRankEndsJob(t *testing.T) {
	r := run(t, "-n", "3", pmiprog, "child", "1")
	assert.Equal(t, 128+9, r.code)
	assert.Regexp(t, `gompirun: rank 1 \(pid \d+\) killed by signal 9 \(SIGKILL: killed\); terminating job`, r.stderr)
	m := regexp.MustCompile(`dying at (\d+)`).FindStringSubmatch(r.stdout)
	require.NotNil(t, m, r.stdout)
	ns, _ := strconv.ParseInt(m[1], 10, 64)
	took := r.ended.Sub(time.Unix(0, ns))
	assert.Less(t, took, prompt, "job ended %v after the rank died", took)

	pids := append(ints(t, r.stdout, "pid"), ints(t, r.stdout, "child")...)
	assert.Len(t, pids, 6, r.stdout)
	assertAllGone(t, pids)
}

func TestShmFilesRemoved(t *testing.T) {
	for _, args := range [][]string{{"shm"}, {"shm", "0"}} {
		r := run(t, append([]string{"-n", "2", pmiprog}, args...)...)
		files := regexp.MustCompile(`shm=(\S+)`).FindAllStringSubmatch(r.stdout, -1)
		require.Len(t, files, 2, r.stdout)
		for _, f := range files {
			assert.True(t, strings.HasPrefix(f[1], "/dev/shm/gompi-"))
			_, err := os.Stat(f[1])
			assert.True(t, os.IsNotExist(err), "%s left behind (%v)", f[1], args)
		}
		if len(args) == 1 {
			assert.Equal(t, 0, r.code, r.stderr)
		} else {
			assert.Equal(t, 137, r.code)
		}
	}
}

func TestTimeout(t *testing.T) {
	r := run(t, "--timeout", "0.5", "-n", "2", "sleep", "600")
	assert.Equal(t, 124, r.code)
	assert.Contains(t, r.stderr, "gompirun: job exceeded --timeout of 500ms; terminating job")
	assert.Less(t, r.elapsed, prompt)

	r = run(t, "--timeout", strconv.Itoa(testtime.Seconds(60)), "-n", "2", "true")
	assert.Equal(t, 0, r.code)
}

func TestStdinGoesToRankZero(t *testing.T) {
	in := strings.NewReader("line one\nline two\n")
	r := runWith(t, in, nil, gompirun, "-n", "3", "--tag-output", "sh", "-c", `cat; echo "done $PMI_RANK"`)
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "[1,0]<stdout>:line one\n[1,0]<stdout>:line two\n")
	assert.Equal(t, 1, strings.Count(r.stdout, "line one"))
	for i := 0; i < 3; i++ {
		assert.Contains(t, r.stdout, fmt.Sprintf("[1,%d]<stdout>:done %d\n", i, i))
	}
}

func TestTagOutput(t *testing.T) {
	r := run(t, "-n", "2", "--tag-output", "sh", "-c", `echo "out $PMI_RANK"; echo "err $PMI_RANK" >&2; printf tail`)
	assert.Equal(t, 0, r.code)
	assert.ElementsMatch(t, []string{"[1,0]<stdout>:out 0", "[1,1]<stdout>:out 1", "[1,0]<stdout>:tail", "[1,1]<stdout>:tail"},
		strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n"))
	assert.ElementsMatch(t, []string{"[1,0]<stderr>:err 0", "[1,1]<stderr>:err 1"},
		strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n"))
}

func TestLinesStayWhole(t *testing.T) {
	const count, length = 300, 3000
	r := run(t, "-n", "3", pmiprog, "lines", strconv.Itoa(count), strconv.Itoa(length))
	require.Equal(t, 0, r.code, r.stderr)
	seen := map[int]int{}
	for _, l := range strings.Split(r.stdout, "\n") {
		if !strings.HasPrefix(l, "<") {
			continue
		}
		rank := int(l[1] - '0')
		want := fmt.Sprintf("<%d:%s:%d>", rank, strings.Repeat(string(l[1]), length), rank)
		require.Equal(t, want, l, "a line was split or mixed")
		seen[rank]++
	}
	assert.Equal(t, map[int]int{0: count, 1: count, 2: count}, seen)
}

func TestEnvForwarding(t *testing.T) {
	r := runWith(t, nil, []string{"GOMPI_T_FROM_PARENT=parent", "PMI_PORT=elsewhere:1"}, gompirun,
		"-n", "2", "-x", "GOMPI_T_SET=a b", "-x", "GOMPI_T_FROM_PARENT", "--tag-output",
		"sh", "-c", `echo "set=$GOMPI_T_SET parent=$GOMPI_T_FROM_PARENT port=$PMI_PORT rank=$PMI_RANK size=$PMI_SIZE fd=$PMI_FD local=$GOMPI_LOCAL_RANK/$GOMPI_LOCAL_SIZE job=$GOMPI_JOBID"`)
	require.Equal(t, 0, r.code, r.stderr)
	jobs := regexp.MustCompile(`job=(\S+)`).FindAllStringSubmatch(r.stdout, -1)
	require.Len(t, jobs, 2)
	assert.Equal(t, jobs[0][1], jobs[1][1], "one job id for all ranks")
	assert.NotEmpty(t, jobs[0][1])
	for i := 0; i < 2; i++ {
		assert.Contains(t, r.stdout, fmt.Sprintf("[1,%d]<stdout>:set=a b parent=parent port= rank=%d size=2 fd=3 local=%d/2 job=", i, i, i))
	}
	r = run(t, "-x", "GOMPI_T_SURELY_UNSET", "true")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "GOMPI_T_SURELY_UNSET")
}

func cpusAllowedList(t *testing.T) string {
	b, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	m := regexp.MustCompile(`Cpus_allowed_list:\s*(\S+)`).FindSubmatch(b)
	require.NotNil(t, m)
	return string(m[1])
}

func TestBinding(t *testing.T) {
	cpus, err := AllowedCPUs()
	require.NoError(t, err)
	n := min(len(cpus), 4)
	show := `echo "rank=$PMI_RANK list=$(grep Cpus_allowed_list /proc/self/status | cut -f2) bound=$GOMPI_BOUND_CPU"`
	lineRe := regexp.MustCompile(`rank=(\d+) list=(\S+) bound=(\S*)`)

	// Default with N <= CPUs: each rank alone on its own CPU.
	r := run(t, "-n", strconv.Itoa(n), "sh", "-c", show)
	require.Equal(t, 0, r.code, r.stderr)
	used := map[string]bool{}
	lines := lineRe.FindAllStringSubmatch(r.stdout, -1)
	require.Len(t, lines, n, r.stdout)
	for _, m := range lines {
		assert.Equal(t, m[3], m[2], "rank %s: affinity %s, GOMPI_BOUND_CPU %s", m[1], m[2], m[3])
		assert.False(t, used[m[2]], "CPU %s used twice", m[2])
		used[m[2]] = true
	}

	// Oversubscribed, or --bind-to none: the launcher's whole mask, no hint.
	mine := cpusAllowedList(t)
	for _, args := range [][]string{{"-n", strconv.Itoa(len(cpus) + 1)}, {"-n", "2", "--bind-to", "none"}} {
		r = run(t, append(args, "sh", "-c", show)...)
		require.Equal(t, 0, r.code, r.stderr)
		for _, m := range lineRe.FindAllStringSubmatch(r.stdout, -1) {
			assert.Equal(t, mine, m[2])
			assert.Equal(t, "", m[3])
		}
	}

	r = run(t, "-n", strconv.Itoa(len(cpus)+1), "--bind-to", "core", "true")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "--bind-to core")

	// A Go program (many threads) started pinned stays pinned in every thread.
	r = run(t, "-n", "1", "--bind-to", "core", "--report-bindings", pmiprog, "ok")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `rank 0 \(pid \d+\) bound to CPU \d+`, r.stderr)
}

func TestSignalForwarding(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), jobTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, gompirun, "-n", "2", "--tag-output", pmiprog, "sigterm")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	errb := &lockedBuf{} // read while the job still writes
	cmd.Stderr = errb
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(stdout)
	var got []string
	ready := 0
	for ready < 2 && sc.Scan() {
		got = append(got, sc.Text())
		if strings.HasSuffix(sc.Text(), ":ready") {
			ready++
		}
	}
	require.Equal(t, 2, ready, "ranks not ready: %q %s", got, errb.String())
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	err = cmd.Wait()
	require.NoError(t, ctx.Err())
	assert.NoError(t, err, "ranks handled SIGTERM and finalized: %s", errb.String())
	assert.Contains(t, got, "[1,0]<stdout>:rank 0 got SIGTERM")
	assert.Contains(t, got, "[1,1]<stdout>:rank 1 got SIGTERM")

	// Ranks that do not handle the signal die of it, which ends the job.
	// The signal goes once both ranks run (a fixed wait may be too short
	// on a busy machine).
	cmd = exec.CommandContext(ctx, gompirun, "-n", "2", "sh", "-c", "echo up; exec sleep 600")
	stdout, err = cmd.StdoutPipe()
	require.NoError(t, err)
	errb = &lockedBuf{}
	cmd.Stderr = errb
	require.NoError(t, cmd.Start())
	sc = bufio.NewScanner(stdout)
	for up := 0; up < 2; up++ {
		require.True(t, sc.Scan(), "ranks not up: %s", errb.String())
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	for sc.Scan() {
	}
	err = cmd.Wait()
	require.NoError(t, ctx.Err())
	ee, ok := err.(*exec.ExitError)
	require.True(t, ok, "%v", err)
	assert.Equal(t, 128+2, ee.ExitCode())
	assert.Contains(t, errb.String(), "killed by signal 2 (SIGINT: interrupt)")
}

// TestMPICHProgram runs a program built with MPICH's own library under
// gompirun: MPICH's PMI-1 client against our server.
func TestMPICHProgram(t *testing.T) {
	mpicc, err := exec.LookPath("mpicc.mpich")
	require.NoError(t, err, "MPICH is a test dependency (make peers)")
	dir := t.TempDir()
	src := filepath.Join(dir, "hello.c")
	require.NoError(t, os.WriteFile(src, []byte(`#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int rank, size, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d sum %d\n", rank, size, sum);
    fflush(stdout);
    if (argc > 1 && rank == atoi(argv[1])) MPI_Abort(MPI_COMM_WORLD, 7);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
`), 0o644))
	exe := filepath.Join(dir, "hello")
	out, err := exec.Command(mpicc, "-o", exe, src).CombinedOutput()
	require.NoError(t, err, "%s", out)

	r := run(t, "-n", "3", exe)
	require.Equal(t, 0, r.code, r.stderr)
	for i := 0; i < 3; i++ {
		assert.Contains(t, r.stdout, fmt.Sprintf("rank %d of 3 sum 3\n", i))
	}
	r = run(t, "-n", "3", exe, "2")
	assert.Equal(t, 7, r.code)
	assert.Regexp(t, `gompirun: rank 2 \(pid \d+\) called MPI_Abort with code 7`, r.stderr)
}

// TestClientUnderHydra runs our PMI client under MPICH's mpiexec.
func TestClientUnderHydra(t *testing.T) {
	hydra, err := exec.LookPath("mpiexec.hydra")
	require.NoError(t, err, "MPICH is a test dependency (make peers)")
	r := runWith(t, nil, nil, hydra, "-n", "3", pmiprog, "ok")
	require.Equal(t, 0, r.code, r.stderr)
	for i := 0; i < 3; i++ {
		assert.Contains(t, r.stdout, fmt.Sprintf("rank %d got hello-from-%d universe=3 appnum=0\n", i, (i+1)%3))
	}
}

// TestMPICHBinaryPreload checks --mpich-binary with a stand-in libgompi.so
// that reports which process loaded it: the ranks, never gompirun itself
// (also not the pinning re-exec).
func TestMPICHBinaryPreload(t *testing.T) {
	prefix := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(prefix, "bin"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(prefix, "lib"), 0o755))
	data, err := os.ReadFile(gompirun)
	require.NoError(t, err)
	self := filepath.Join(prefix, "bin", "gompirun")
	require.NoError(t, os.WriteFile(self, data, 0o755))
	src := filepath.Join(prefix, "fake.c")
	require.NoError(t, os.WriteFile(src, []byte(`#include <stdio.h>
__attribute__((constructor)) static void loaded(void) {
    char comm[64] = {0};
    FILE *f = fopen("/proc/self/comm", "r");
    if (f) { if (!fgets(comm, sizeof comm, f)) comm[0] = 0; fclose(f); }
    fprintf(stderr, "fakegompi loaded in %s", comm);
}
`), 0o644))
	lib := filepath.Join(prefix, "lib", "libgompi.so")
	out, err := exec.Command("gcc", "-shared", "-fPIC", "-o", lib, src).CombinedOutput()
	require.NoError(t, err, "%s", out)

	for _, bind := range []string{"core", "none"} {
		r := runWith(t, nil, []string{"LD_PRELOAD="}, self, "--mpich-binary", "-n", "2", "--bind-to", bind,
			"sh", "-c", `echo "preload=$LD_PRELOAD"`)
		require.Equal(t, 0, r.code, r.stderr)
		assert.Equal(t, strings.Repeat("preload="+lib+"\n", 2), r.stdout)
		assert.Equal(t, 2, strings.Count(r.stderr, "fakegompi loaded in sh"), r.stderr)
		assert.NotContains(t, r.stderr, "loaded in gompirun")
	}

	// Without the library next to gompirun, a clear error.
	require.NoError(t, os.Remove(lib))
	r := runWith(t, nil, nil, self, "--mpich-binary", "-n", "1", "true")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "libgompi.so not found")
}

// TestSpawn: a PMI spawn request starts a new job with its own KVS (the
// children's put/barrier/get work among themselves), the parent port and
// appnum in their environment, and the whole run ends cleanly.
func TestSpawn(t *testing.T) {
	r := run(t, "-n", "2", pmiprog, "spawn", "3", "ok")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "spawned 3\n")
	for i := 0; i < 3; i++ {
		assert.Contains(t, r.stdout, fmt.Sprintf("rank %d of 3: parent test-port appnum 0\n", i))
		assert.Contains(t, r.stdout, fmt.Sprintf("rank %d got hello-from-%d ", i, (i+1)%3))
	}
	assert.Empty(t, r.stderr)
}

// TestSpawnedDies: a spawned process that dies ends the whole job, named as
// a spawned job's rank.
func TestSpawnedDies(t *testing.T) {
	r := run(t, "-n", "2", pmiprog, "spawn", "2", "kill9", "1")
	assert.Equal(t, 128+9, r.code)
	assert.Regexp(t, `gompirun: spawned job 1 rank 1 \(pid \d+\) killed by signal 9`, r.stderr)
}

// TestSpawnMissingProgram: the spawning rank gets the error, the job goes on.
func TestSpawnMissingProgram(t *testing.T) {
	r := run(t, "-n", "1", pmiprog, "spawn-missing")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `spawn failed: .*gompi-no-such-program`, r.stdout)
}
