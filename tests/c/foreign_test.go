package ctests

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMPICHMissingFunction runs an MPICH-built program that calls a function
// gompi does not implement (MPIX_Comm_revoke, an MPICH extension) under
// gompirun --mpich-binary: the call must end the job at once with a message
// naming it, and --check must list it without running the program.
func TestMPICHMissingFunction(t *testing.T) {
	root := ensureBuild(t)
	requireMPICH(t)
	bin := compile(t, "mpix_revoke.mpich", filepath.Join(root, "tests/c/foreign/mpix_revoke.c"),
		"mpicc.mpich", "-O2", "-Wall", "-Werror")
	gompirun := filepath.Join(root, "build/bin/gompirun")

	argv := []string{gompirun, "--mpich-binary", "-n", "2", "--timeout", "60", bin}
	j := job{argv: argv, timeout: 60*time.Second + goSideGrace, binary: bin}
	start := time.Now()
	r := run(j)
	checkRun(t, j, r, start, checkExpect(&spec{exit: "nonzero",
		stderrMatch:   []string{`gompi: MPIX_Comm_revoke is not implemented by gompi`},
		stdoutPerRank: []string{`(?m)^rank {rank} before MPIX_Comm_revoke$`},
		stdoutNot:     []string{`after MPIX_Comm_revoke`},
	}, 2, r))

	out, err := exec.Command(gompirun, "--mpich-binary", "--check", bin).Output()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr, "--check with a missing function must exit non-zero; output:\n%s", out)
	require.Equal(t, 1, exitErr.ExitCode())
	require.Regexp(t, `(?m)^  MPIX_Comm_revoke$`, string(out))
	require.NotRegexp(t, `(?m)^  MPI_(Init|Barrier|Comm_rank|Finalize)$`, string(out))

	ok := compile(t, "env_basic.mpich", filepath.Join(root, "tests/c/env_basic.c"),
		"mpicc.mpich", "-O2", "-Wall", "-Werror")
	out, err = exec.Command(gompirun, "--mpich-binary", "--check", ok).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "uses only MPI functions gompi implements")
}
