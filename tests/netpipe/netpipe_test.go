// Package netpipe runs Debian's NPmpich2, a real MPICH-built binary, on gompi
// through `gompirun --mpich-binary` (LD_PRELOAD of libgompi.so).
package netpipe

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gompi/internal/testtime"

	"github.com/stretchr/testify/require"
)

func root(t *testing.T) string {
	dir, err := filepath.Abs("../..")
	require.NoError(t, err)
	for _, f := range []string{"build/bin/gompirun", "build/lib/libgompi.so"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			out, err := exec.Command("make", "-C", dir, "build").CombinedOutput()
			require.NoError(t, err, "make build: %s", out)
			break
		}
	}
	return dir
}

func ensureNetpipe(t *testing.T) string {
	const bin = "/usr/bin/NPmpich2"
	if _, err := os.Stat(bin); err != nil {
		out, err := exec.Command("sh", "-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq netpipe-mpich2").CombinedOutput()
		require.NoError(t, err, "installing netpipe-mpich2: %s", out)
	}
	return bin
}

func TestNetpipeMPICHBinaryRunsOnGompi(t *testing.T) {
	dir := root(t)
	bin := ensureNetpipe(t)
	out := filepath.Join(t.TempDir(), "np.out")
	// -n 20: a fixed number of repetitions per size. NetPIPE otherwise
	// sizes them from a first timing, which on a busy machine came out as
	// 1.1 million round trips of 2 bytes (the run hit its 4 min timeout).
	ctx, cancel := context.WithTimeout(context.Background(), testtime.D(5*time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(dir, "build/bin/gompirun"), "-n", "2", "--mpich-binary",
		"--timeout", strconv.Itoa(testtime.Seconds(240)), "-x", "GOMPI_MODEX_DEBUG=1", bin, "-u", "1048576", "-n", "20", "-o", out)
	cmd.Dir = t.TempDir()
	combined, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", combined)
	// The modex debug line proves MPI_Init ran inside gompi, not libmpich.
	require.Contains(t, string(combined), "gompi: rank 0 modex:")
	require.Contains(t, string(combined), "gompi: rank 1 modex:")

	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	sizes := 0
	last := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		require.Len(t, fs, 3, "line %q", sc.Text())
		n, err := strconv.Atoi(fs[0])
		require.NoError(t, err)
		mbps, err := strconv.ParseFloat(fs[1], 64)
		require.NoError(t, err)
		require.Greater(t, mbps, 0.0)
		require.GreaterOrEqual(t, n, last, "sizes must grow")
		last = n
		sizes++
	}
	require.Greater(t, sizes, 50, "NetPIPE stopped early")
	require.GreaterOrEqual(t, last, 1048576-3)
}
