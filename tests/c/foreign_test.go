package ctests

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMPICHMissingFunction runs an MPICH-built program that calls a function
// gompi does not implement (MPI_Bcast_c: no large-count calls yet) under
// gompirun --mpich-binary: the call must end the job at once with a message
// naming it, and --check must list it without running the program.
func TestMPICHMissingFunction(t *testing.T) {
	root := ensureBuild(t)
	requireMPICH(t)
	bin := compile(t, "bcast_c.mpich", filepath.Join(root, "tests/c/foreign/bcast_c.c"),
		"mpicc.mpich", "-O2", "-Wall", "-Werror")
	gompirun := filepath.Join(root, "build/bin/gompirun")

	argv := []string{gompirun, "--mpich-binary", "-n", "2", "--timeout", "60", bin}
	j := job{argv: argv, timeout: 60*time.Second + goSideGrace, binary: bin}
	start := time.Now()
	r := run(j)
	checkRun(t, j, r, start, checkExpect(&spec{exit: "nonzero",
		stderrMatch:   []string{`gompi: MPI_Bcast_c is not implemented by gompi`},
		stdoutPerRank: []string{`(?m)^rank {rank} before MPI_Bcast_c$`},
		stdoutNot:     []string{`after MPI_Bcast_c`},
	}, 2, r))

	out, err := exec.Command(gompirun, "--mpich-binary", "--check", bin).Output()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr, "--check with a missing function must exit non-zero; output:\n%s", out)
	require.Equal(t, 1, exitErr.ExitCode())
	require.Regexp(t, `(?m)^  MPI_Bcast_c$`, string(out))
	require.NotRegexp(t, `(?m)^  MPI_(Init|Barrier|Comm_rank|Finalize)$`, string(out))

	ok := compile(t, "env_basic.mpich", filepath.Join(root, "tests/c/env_basic.c"),
		"mpicc.mpich", "-O2", "-Wall", "-Werror")
	out, err = exec.Command(gompirun, "--mpich-binary", "--check", ok).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "uses only MPI functions gompi implements")
}
