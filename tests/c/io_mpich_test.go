package ctests

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestExternal32MatchesMPICH writes an external32 file through a strided
// (vector) filetype with Debian's MPICH and with gompi, from 2 ranks, and
// requires the two files to be identical byte for byte. The program runs
// its "common" part: the one where MPICH follows the standard (see the
// comment in io_external32_view.c; the full program runs in TestC).
func TestExternal32MatchesMPICH(t *testing.T) {
	root := ensureBuild(t)
	requireMPICH(t)
	src := filepath.Join(root, "tests/c/io_external32_view.c")
	inc := "-I" + filepath.Join(root, "tests/c")
	mbin := compile(t, "io_external32_view.mpich", src, "mpicc.mpich", "-O2", inc)
	gbin := gompicc(t, root, src, "io_external32_view")
	dir := t.TempDir()
	ref, got := filepath.Join(dir, "mpich.ext32"), filepath.Join(dir, "gompi.ext32")

	j := job{argv: []string{"mpiexec.mpich", "-n", "2", mbin, ref, "common"}, timeout: 120 * time.Second, binary: mbin}
	r := run(j)
	require.True(t, r.err == nil && !r.timedOut && r.exitCode == 0, "MPICH run failed\n%s", r.describe(j.argv))
	j = job{argv: []string{filepath.Join(root, "build/bin/gompirun"), "-n", "2", "--timeout", "120", gbin, got, "common"},
		timeout: 120*time.Second + goSideGrace, binary: gbin}
	start := time.Now()
	r = run(j)
	var problems []string
	if r.exitCode != 0 {
		problems = append(problems, "gompi run exited non-zero")
	}
	checkRun(t, j, r, start, problems)

	want, err := os.ReadFile(ref)
	require.NoError(t, err)
	have, err := os.ReadFile(got)
	require.NoError(t, err)
	require.NotEmpty(t, want, "MPICH wrote an empty file")
	require.True(t, bytes.Equal(want, have), "external32 file differs from MPICH's (%d vs %d bytes)", len(have), len(want))
}
