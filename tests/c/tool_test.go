package ctests

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestProfilingTool checks the PMPI interface: a tool library defining
// MPI_Comm_rank and MPI_Finalize sees every call of an unmodified program,
// whether the program is linked with -ltool -lgompi or the tool is preloaded.
func TestProfilingTool(t *testing.T) {
	root := ensureBuild(t)
	toolDir := filepath.Join(workDir, "tool")
	require.NoError(t, os.MkdirAll(toolDir, 0o755))
	lib := filepath.Join(toolDir, "libtool.so")
	out, err := exec.Command("gcc", "-O2", "-Wall", "-Werror", "-fPIC", "-shared",
		"-I", filepath.Join(root, "build/include"),
		filepath.Join(root, "tests/c/tool/tool.c"), "-o", lib,
		"-L", filepath.Join(root, "build/lib"), "-Wl,-rpath,"+filepath.Join(root, "build/lib"), "-lgompi",
	).CombinedOutput()
	require.NoError(t, err, "building the tool library:\n%s", out)

	src := filepath.Join(root, "tests/c/tool/rank_calls.c")
	done := `(?m)^rank_calls: rank {rank} done$`
	counted := spec{exit: "0", stdoutPerRank: []string{done,
		`(?m)^tool: rank {rank} intercepted 5 MPI_Comm_rank calls$`}}

	t.Run("linked", func(t *testing.T) {
		bin := gompicc(t, root, src, "rank_calls_linked", "-L"+toolDir, "-Wl,-rpath,"+toolDir, "-ltool")
		requireLinkOrder(t, bin, "libtool.so", "libgompi.so")
		runTool(t, root, bin, nil, &counted)
	})
	t.Run("preload", func(t *testing.T) {
		bin := gompicc(t, root, src, "rank_calls")
		runTool(t, root, bin, []string{"-x", "LD_PRELOAD=" + lib}, &counted)
	})
	t.Run("without_tool", func(t *testing.T) {
		// The control: the same binary alone prints no tool lines.
		bin := gompicc(t, root, src, "rank_calls")
		runTool(t, root, bin, nil, &spec{exit: "0", stdoutPerRank: []string{done}, stdoutNot: []string{"tool:"}})
	})
}

// runTool runs bin on two ranks with extra launcher options and checks the
// run against want.
func runTool(t *testing.T, root, bin string, opts []string, want *spec) {
	t.Helper()
	argv := append([]string{filepath.Join(root, "build/bin/gompirun"), "-n", "2", "--timeout", launcherTimeout(60 * time.Second)}, opts...)
	argv = append(argv, bin)
	j := job{argv: argv, timeout: goSideTimeout(60 * time.Second), binary: bin}
	start := time.Now()
	r := run(j)
	checkRun(t, j, r, start, checkExpect(want, 2, r))
}

// requireLinkOrder checks that bin's dynamic dependencies list first before
// second, so the tool's MPI_ symbols are found before gompi's.
func requireLinkOrder(t *testing.T, bin, first, second string) {
	t.Helper()
	out, err := exec.Command("readelf", "-d", bin).CombinedOutput()
	require.NoError(t, err, "%s", out)
	text := string(out)
	i, k := strings.Index(text, "["+first), strings.Index(text, "["+second)
	require.True(t, i >= 0 && k >= 0 && i < k, "%s does not need %s before %s:\n%s", bin, first, second, text)
}
