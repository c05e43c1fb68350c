package ctests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestIMBIO builds IMB-IO from ../shared/benchmarks with gompicc and runs
// the benchmarks of issue 26 at -n 2 and -n 4 (small sizes, short time):
// every one must finish and the run must end cleanly.
func TestIMBIO(t *testing.T) {
	root := ensureBuild(t)
	tarball := filepath.Join(root, "../shared/benchmarks/mpi-benchmarks-46e8757a.tar.gz")
	if _, err := os.Stat(tarball); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("IMB sources missing: %v", err)
		}
		t.Skipf("IMB sources missing (%v): skipping IMB-IO", err)
	}
	src := filepath.Join(workDir, "imbio")
	require.NoError(t, os.MkdirAll(src, 0o755))
	out, err := exec.Command("tar", "-xzf", tarball, "-C", src).CombinedOutput()
	require.NoError(t, err, "%s", out)
	dir := filepath.Join(src, "mpi-benchmarks")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	mk := exec.CommandContext(ctx, "make", "CC="+filepath.Join(root, "build/bin/gompicc"),
		"CXX="+filepath.Join(root, "build/bin/gompicxx"), "IMB-IO")
	mk.Dir = dir
	out, err = mk.CombinedOutput()
	require.NoError(t, err, "building IMB-IO:\n%s", tail(out, 4000))
	bin := filepath.Join(dir, "IMB-IO")
	for _, np := range []string{"2", "4"} {
		t.Run("np="+np, func(t *testing.T) {
			// IMB-IO writes its files in the working directory: give it a fresh one.
			argv := []string{"/bin/sh", "-c", `cd "$0" && exec "$@"`, t.TempDir(),
				filepath.Join(root, "build/bin/gompirun"), "-n", np,
				"--timeout", launcherTimeout(240 * time.Second), bin, "-msglog", "8:16", "-iter", "10",
				"-time", "0.5", "S_Write_indv", "P_Write_shared", "C_Write_expl", "C_Read_expl", "P_Read_indv"}
			j := job{argv: argv, timeout: goSideTimeout(240 * time.Second), binary: bin}
			start := time.Now()
			r := run(j)
			checkRun(t, j, r, start, checkExpect(&spec{exit: "0", stdoutMatch: []string{
				`Benchmarking S_Write_Indv`, `Benchmarking P_Write_Shared`, `Benchmarking C_Write_Expl`,
				`Benchmarking C_Read_Expl`, `Benchmarking P_Read_Indv`, `All processes entering MPI_Finalize`}}, 0, r))
		})
	}
}
