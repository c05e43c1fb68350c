package ctests

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gompi/internal/testtime"

	"github.com/stretchr/testify/require"
)

// goSideGrace is how much longer than the launcher's own --timeout the Go
// side waits before it kills the process group itself.
const goSideGrace = 20 * time.Second

// launcherTimeout is the gompirun --timeout argument for a job a spec gives
// d: d scaled to the machine (testtime), in whole seconds.
func launcherTimeout(d time.Duration) string {
	return strconv.Itoa(int(math.Ceil(testtime.D(d).Seconds())))
}

// goSideTimeout is the Go side's limit for a job whose launcher has d.
func goSideTimeout(d time.Duration) time.Duration {
	return testtime.D(d + goSideGrace)
}

// TestC runs every tests/c/*.c under gompirun, one subtest per process count,
// one after another (ranks are already oversubscribed on small machines).
func TestC(t *testing.T) {
	root := ensureBuild(t)
	files, err := filepath.Glob(filepath.Join(root, "tests", "c", "*.c"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no C test programs found")
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".c")
		t.Run(name, func(t *testing.T) {
			s, err := parseSpecFile(file)
			require.NoError(t, err)
			for _, np := range s.nps {
				t.Run(fmt.Sprintf("np=%d", np), func(t *testing.T) {
					bin := gompicc(t, root, file, name)
					runSpec(t, root, bin, s, np)
				})
			}
		})
	}
}

// runSpec launches bin on np ranks as s describes and checks the outcome.
func runSpec(t *testing.T, root, bin string, s *spec, np int) {
	argv := []string{filepath.Join(root, "build/bin/gompirun"), "-n", strconv.Itoa(np),
		"--timeout", launcherTimeout(s.timeout),
		"-x", fmt.Sprintf("GOMPI_TEST_NP=%d", np)}
	for _, kv := range s.env {
		argv = append(argv, "-x", expand(kv, np, 0))
	}
	argv = append(argv, bin)
	for _, a := range s.args {
		argv = append(argv, expand(a, np, 0))
	}
	j := job{argv: argv, timeout: goSideTimeout(s.timeout), binary: bin}
	start := time.Now()
	r := run(j)
	checkRun(t, j, r, start, checkExpect(s, np, r))
}

// checkExpect lists how a run on np ranks differs from the expectations of s.
func checkExpect(s *spec, np int, r result) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	switch s.exit {
	case "nonzero":
		if r.exitCode == 0 {
			fail("exit status 0, want non-zero")
		}
	default:
		if want, _ := strconv.Atoi(s.exit); r.exitCode != want {
			fail("exit status %d, want %d", r.exitCode, want)
		}
	}
	// A job expected to succeed must be silent on stderr unless told otherwise.
	if s.exit == "0" && len(s.stderrMatch) == 0 && r.stderr != "" {
		fail("unexpected output on stderr")
	}
	matchAll := func(stream, text string, patterns []string, want bool) {
		for _, p := range patterns {
			re := regexp.MustCompile(expand(p, np, 0))
			if re.MatchString(text) != want {
				verb := "does not match"
				if !want {
					verb = "matches"
				}
				fail("%s %s %q", stream, verb, re)
			}
		}
	}
	matchAll("stderr", r.stderr, s.stderrMatch, true)
	matchAll("stderr", r.stderr, s.stderrNot, false)
	matchAll("stdout", r.stdout, s.stdoutMatch, true)
	matchAll("stdout", r.stdout, s.stdoutNot, false)
	for _, p := range s.stdoutPerRank {
		for rank := 0; rank < np; rank++ {
			if re := regexp.MustCompile(expand(p, np, rank)); !re.MatchString(r.stdout) {
				fail("stdout does not match %q (rank %d)", re, rank)
			}
		}
	}
	// maxtime says a job ends promptly instead of running into its timeout;
	// it scales with the machine as the timeout does.
	if max := testtime.D(s.maxTime); s.maxTime > 0 && r.elapsed >= max {
		fail("took %.2fs, want less than %v", r.elapsed.Seconds(), max)
	}
	return problems
}

func TestDirectives(t *testing.T) {
	s, err := parseSpec(`//go:build ignore

/* gompi-test: np=1,4 timeout=30 */
/* A plain comment
 * over two lines. */
/* gompi-expect: exit=nonzero stderr=~"rank {last}\b" stderr!~"say \"hi\"" maxtime=2.5 */
/* gompi-expect: stdout-per-rank=~"^rank {rank} of {np}$" */
/* gompi-args: -v  two */
/* gompi-env: A=1 B=x=y */
#include <mpi.h>
/* gompi-args: ignored after code */
`)
	require.NoError(t, err)
	require.Equal(t, []int{1, 4}, s.nps)
	require.Equal(t, 30*time.Second, s.timeout)
	require.Equal(t, "nonzero", s.exit)
	require.Equal(t, []string{`rank {last}\b`}, s.stderrMatch)
	require.Equal(t, []string{`say "hi"`}, s.stderrNot)
	require.Equal(t, []string{`^rank {rank} of {np}$`}, s.stdoutPerRank)
	require.Equal(t, 2500*time.Millisecond, s.maxTime)
	require.Equal(t, []string{"-v", "two"}, s.args)
	require.Equal(t, []string{"A=1", "B=x=y"}, s.env)
	require.Equal(t, `rank 3\b`, expand(s.stderrMatch[0], 4, 0))

	s, err = parseSpec("/* gompi-test: np=2 */\nint main;\n")
	require.NoError(t, err)
	require.Equal(t, defaultTimeout, s.timeout)
	require.Equal(t, "0", s.exit)

	for _, bad := range []string{
		"int main;\n",                   // no gompi-test
		"/* gompi-test: timeout=3 */\n", // no np
		"/* gompi-test: np=0 */\n",      // bad count
		"/* gompi-test: np=1 */\n/* gompi-expect: exit=maybe */\n",
		"/* gompi-test: np=1 */\n/* gompi-expect: stderr=~\"(\" */\n",
		"/* gompi-test: np=1 */\n/* gompi-expect: stdout=\"x\" */\n",
		"/* gompi-test: np=1 */\n/* gompi-typo: x */\n",
		"/* gompi-test: np=1\n*/\n",
	} {
		_, err := parseSpec(bad)
		require.Error(t, err, "%q", bad)
	}
}
