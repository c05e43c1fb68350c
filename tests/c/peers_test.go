package ctests

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// requireMPICH makes sure MPICH's mpiexec (Hydra) and mpicc are installed,
// installing Debian's mpich package if not; it fails, never skips.
func requireMPICH(t *testing.T) {
	t.Helper()
	have := func() bool {
		_, e1 := exec.LookPath("mpiexec.mpich")
		_, e2 := exec.LookPath("mpicc.mpich")
		return e1 == nil && e2 == nil
	}
	if have() {
		return
	}
	aptInstall(t, "mpich", "libmpich-dev")
	require.True(t, have(), "mpiexec.mpich or mpicc.mpich still missing after installing mpich")
}

// TestHydra runs a gompi program under MPICH's own launcher: gompi must speak
// Hydra's PMI and get the right rank and size.
func TestHydra(t *testing.T) {
	root := ensureBuild(t)
	requireMPICH(t)
	bin := gompicc(t, root, filepath.Join(root, "tests/c/env_basic.c"), "env_basic")
	argv := []string{"mpiexec.mpich", "-n", "2", bin}
	j := job{argv: argv, env: []string{"GOMPI_TEST_NP=2"}, timeout: goSideTimeout(60 * time.Second), binary: bin}
	start := time.Now()
	r := run(j)
	checkRun(t, j, r, start, checkExpect(&spec{exit: "0", stdoutPerRank: []string{`(?m)^rank {rank} of 2$`}}, 2, r))
}

// TestMPICHBinary runs a program built by MPICH's mpicc against libmpich on
// gompi through gompirun --mpich-binary: the ABI promise of DESIGN.md.
func TestMPICHBinary(t *testing.T) {
	root := ensureBuild(t)
	requireMPICH(t)
	bin := compile(t, "env_basic.mpich", filepath.Join(root, "tests/c/env_basic.c"),
		"mpicc.mpich", "-O2", "-Wall", "-Werror")
	// The test means something only if the binary really is MPICH's.
	out, err := exec.Command("readelf", "-d", bin).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "[libmpich.so.12]")
	require.NotContains(t, string(out), "libgompi")

	argv := []string{filepath.Join(root, "build/bin/gompirun"), "--mpich-binary", "-n", "2",
		"--timeout", launcherTimeout(60 * time.Second), "-x", "GOMPI_TEST_NP=2", bin}
	j := job{argv: argv, timeout: goSideTimeout(60 * time.Second), binary: bin}
	start := time.Now()
	r := run(j)
	checkRun(t, j, r, start, checkExpect(&spec{exit: "0",
		stdoutPerRank: []string{`(?m)^rank {rank} of 2$`, `(?m)^rank {rank} library: .*gompi`},
		stdoutNot:     []string{`MPICH Version:`}, // libmpich answered, not gompi
	}, 2, r))
}
