package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseHabits(t *testing.T) {
	cases := []struct {
		args []string
		want Options
	}{
		{[]string{"-N", "3", "p"}, Options{NP: 3, Habits: Habits{PerNode: 3}}},
		{[]string{"-ppn", "2", "-n", "4", "p"}, Options{NP: 4, Habits: Habits{PerNode: 2}}},
		{[]string{"--npernode=2", "p"}, Options{NP: 2, Habits: Habits{PerNode: 2}}},
		{[]string{"--oversubscribe", "--allow-run-as-root", "-genvall", "p"}, Options{NP: 1}},
		{[]string{"-wdir", "/tmp", "p"}, Options{NP: 1, Habits: Habits{Wdir: "/tmp"}}},
		{[]string{"--wdir=/x", "p"}, Options{NP: 1, Habits: Habits{Wdir: "/x"}}},
		{[]string{"-genv", "A", "1 2", "-env", "B=3", "-genvlist", "C,D", "-x", "E", "p"},
			Options{NP: 1, Env: []string{"A=1 2", "B=3", "C", "D", "E"}}},
		{[]string{"--output-filename", "out", "--merge-stderr-to-stdout", "--timestamp-output", "-q", "p"},
			Options{NP: 1, Habits: Habits{OutputDir: "out", MergeStderr: true, Timestamp: true, Quiet: true}}},
		{[]string{"--quiet", "--bind-to", "socket", "p"}, Options{NP: 1, BindTo: BindSocket, Habits: Habits{Quiet: true}}},
		{[]string{"--bind-to", "numa", "p"}, Options{NP: 1, BindTo: BindNUMA}},
	}
	for _, c := range cases {
		got, err := Parse(c.args)
		require.NoError(t, err, "%q", c.args)
		c.want.ExecBound, c.want.Prog, c.want.Args = -1, "p", []string{}
		assert.Equal(t, c.want, *got, "%q", c.args)
	}
	o, err := Parse([]string{"-n", "2", "--version", "p"})
	require.NoError(t, err)
	assert.True(t, o.Version)
	for _, bad := range [][]string{{"-N", "0", "p"}, {"-ppn", "x", "p"}, {"-genv", "1A", "v", "p"}, {"-genv", "A"},
		{"-genvlist", "A,,B", "p"}, {"--quiet=1", "p"}, {"--oversubscribe=yes", "p"}, {"-wdir", "", "p"},
		{"--output-filename", "", "p"}} {
		_, err := Parse(bad)
		assert.ErrorIs(t, err, ErrUsage, "%q", bad)
	}
}

// Every option the suggestion may name is one Parse knows.
func TestKnownOptionsParse(t *testing.T) {
	for _, k := range knownOptions {
		_, err := Parse([]string{k, "1", "1", "p"})
		if err != nil {
			assert.NotContains(t, err.Error(), "unknown option", k)
		}
	}
}

func TestUnknownOptionNamesClosest(t *testing.T) {
	for bad, want := range map[string]string{"--oversubscrbe": "--oversubscribe", "--bind_to": "--bind-to",
		"--tag-ouput": "--tag-output", "-wdr": "-wdir", "--verison": "--version", "--npernod": "--npernode"} {
		_, err := Parse([]string{bad, "p"})
		require.ErrorIs(t, err, ErrUsage)
		assert.Contains(t, err.Error(), "(closest: "+want+")", bad)
		assert.NotContains(t, err.Error(), "\n")
	}
}

func TestMPIEXECTimeout(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "MPIEXEC_TIMEOUT" {
				return v
			}
			return ""
		}
	}
	o, _ := Parse([]string{"p"})
	require.NoError(t, o.ApplyEnv(env("7")))
	assert.Equal(t, 7*time.Second, o.Timeout)
	o, _ = Parse([]string{"--timeout", "3", "p"})
	require.NoError(t, o.ApplyEnv(env("7")))
	assert.Equal(t, 3*time.Second, o.Timeout, "the option wins")
	o, _ = Parse([]string{"p"})
	assert.ErrorIs(t, o.ApplyEnv(env("soon")), ErrUsage)
	o, _ = Parse([]string{"--exec-bound", "0", "--", "p"})
	require.NoError(t, o.ApplyEnv(env("soon")), "the pinning re-exec ignores it")
}

func TestPlanBindingSets(t *testing.T) {
	root := t.TempDir()
	// CPUs 0-3 on socket 0 / node 0, 4-7 on socket 1 / node 1; cores 0..3 each.
	for c := 0; c < 8; c++ {
		d := filepath.Join(root, "cpu"+strconv.Itoa(c))
		require.NoError(t, os.MkdirAll(filepath.Join(d, "topology"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "topology", "physical_package_id"), []byte(strconv.Itoa(c/4)+"\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(d, "topology", "core_id"), []byte(strconv.Itoa(c%4)+"\n"), 0o644))
		require.NoError(t, os.MkdirAll(filepath.Join(d, "node"+strconv.Itoa(c/4)), 0o755))
	}
	cpus := []int{0, 1, 2, 3, 4, 5, 6, 7}
	ordered := OrderCPUs(cpus, root)
	for _, p := range []string{BindSocket, BindNUMA} {
		sets, err := PlanBindingSets(p, 10, ordered, root)
		require.NoError(t, err)
		require.Len(t, sets, 10)
		for r, s := range sets {
			dom := ordered[r%8] / 4
			assert.Equal(t, []int{4 * dom, 4*dom + 1, 4*dom + 2, 4*dom + 3}, s, "%s rank %d", p, r)
		}
	}
	sets, err := PlanBindingSets(BindCore, 2, ordered, root)
	require.NoError(t, err)
	assert.Equal(t, [][]int{{ordered[0]}, {ordered[1]}}, sets)
	sets, err = PlanBindingSets(BindNone, 2, ordered, root)
	require.NoError(t, err)
	assert.Nil(t, sets)
}

// The habits on real jobs, each seen by a program that prints what it sees.
func TestHabitsRun(t *testing.T) {
	show := `echo "rank=$PMI_RANK size=$PMI_SIZE pwd=$(pwd) a=$GOMPI_T_A b=$GOMPI_T_B c=$GOMPI_T_C list=$(grep Cpus_allowed_list /proc/self/status | cut -f2)"`

	// -N alone sizes the job; -genv and -env both forms; -genvlist copies.
	dir := t.TempDir()
	r := runWith(t, nil, []string{"GOMPI_T_C=from-here"}, gompirun, "-N", "3", "--oversubscribe", "--allow-run-as-root",
		"-wdir", dir, "-genv", "GOMPI_T_A", "x y", "-env", "GOMPI_T_B=2", "-genvlist", "GOMPI_T_C", "sh", "-c", show)
	require.Equal(t, 0, r.code, r.stderr)
	for i := 0; i < 3; i++ {
		assert.Contains(t, r.stdout, fmt.Sprintf("rank=%d size=3 pwd=%s a=x y b=2 c=from-here", i, dir))
	}

	// A relative program runs from -wdir.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hello.sh"), []byte("#!/bin/sh\necho hello from $(pwd)\n"), 0o755))
	r = run(t, "--wdir", dir, "./hello.sh")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "hello from "+dir+"\n", r.stdout)
	r = run(t, "-wdir", filepath.Join(dir, "missing"), "true")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "-wdir")

	// --bind-to socket: the whole socket of the rank's core.
	r = run(t, "-n", "2", "--bind-to", "socket", "--report-bindings", "sh", "-c", show)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `rank 0 \(pid \d+\) bound to CPUs \S+ \(socket\)`, r.stderr)
	assert.Len(t, regexp.MustCompile(`list=\S+`).FindAllString(r.stdout, -1), 2)
	r = run(t, "-n", "1", "--bind-to", "numa", "--report-bindings", "true")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "(numa)")

	// --output-filename: per-rank files, and still the terminal.
	out := t.TempDir()
	r = run(t, "-n", "2", "--output-filename", out, "sh", "-c", `echo "out $PMI_RANK"; echo "err $PMI_RANK" >&2`)
	require.Equal(t, 0, r.code, r.stderr)
	for i := 0; i < 2; i++ {
		b, err := os.ReadFile(filepath.Join(out, "1", "rank."+strconv.Itoa(i), "stdout"))
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("out %d\n", i), string(b))
		b, err = os.ReadFile(filepath.Join(out, "1", "rank."+strconv.Itoa(i), "stderr"))
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("err %d\n", i), string(b))
		assert.Contains(t, r.stdout, fmt.Sprintf("out %d\n", i))
	}

	// --merge-stderr-to-stdout: stderr lines on stdout, in the order written.
	r = run(t, "--merge-stderr-to-stdout", "sh", "-c", `echo one; echo two >&2; echo three`)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "one\ntwo\nthree\n", r.stdout)
	assert.Empty(t, r.stderr)

	// --timestamp-output, with and without tags.
	r = run(t, "--timestamp-output", "--tag-output", "sh", "-c", `echo a; echo b`)
	require.Equal(t, 0, r.code, r.stderr)
	stamp := `\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\]`
	assert.Regexp(t, "^"+stamp+`\[1,0\]<stdout>:a\n`+stamp+`\[1,0\]<stdout>:b\n$`, r.stdout)
	r = run(t, "--timestamp-output", "echo", "c")
	assert.Regexp(t, "^"+stamp+"c\n$", r.stdout)

	// -q: no gompirun lines about the end, the status still tells.
	r = run(t, "-q", "-n", "2", pmiprog, "exit", "1", "3")
	assert.Equal(t, 3, r.code)
	assert.NotContains(t, r.stderr, "gompirun:")
	r = run(t, "-q", "no-such-program-here")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "no-such-program-here", "a job that never starts still says why")

	// --version.
	r = run(t, "--version")
	assert.Equal(t, 0, r.code)
	assert.True(t, strings.HasPrefix(r.stdout, "gompirun (gompi) "), r.stdout)

	// MPIEXEC_TIMEOUT bounds the job like --timeout.
	r = runWith(t, nil, []string{"MPIEXEC_TIMEOUT=1"}, gompirun, "sleep", "30")
	assert.Equal(t, timeoutStatus, r.code)
	assert.Contains(t, r.stderr, "--timeout")

	// An unknown option: one line naming the closest.
	r = run(t, "--oversubscibe", "true")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "unknown option --oversubscibe (closest: --oversubscribe)")
}

// gompirun works under the names make mpilinks gives it.
func TestMPIExecLink(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"mpiexec", "mpirun"} {
		link := filepath.Join(dir, name)
		require.NoError(t, os.Symlink(gompirun, link))
		r := runWith(t, nil, nil, link, "-n", "2", "--tag-output", "sh", "-c", `echo "rank $PMI_RANK"`)
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, "[1,1]<stdout>:rank 1\n")
	}
}
