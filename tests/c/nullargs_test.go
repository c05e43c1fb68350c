package ctests

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestNullArgs calls every MPI function libgompi exports with each pointer
// argument NULL in turn (cmd/gennullargs writes the program from nm -D and
// the abi table): every call must return MPI_ERR_ARG or the class MPICH
// returns (tests/c/nullargs_mpich.txt), never crash, on 1 and 2 ranks.
func TestNullArgs(t *testing.T) {
	root := ensureBuild(t)
	src := filepath.Join(workDir, "nullargs.c")
	gen := exec.Command("go", "run", "./cmd/gennullargs",
		"-lib", filepath.Join(root, "build/lib/libgompi.so"),
		"-mpich", filepath.Join(root, "tests/c/nullargs_mpich.txt"), "-o", src)
	gen.Dir = root
	out, err := gen.CombinedOutput()
	require.NoError(t, err, "gennullargs: %s", out)
	bin := gompicc(t, root, src, "nullargs")
	for _, np := range []int{1, 2} {
		t.Run("np="+strconv.Itoa(np), func(t *testing.T) {
			argv := []string{filepath.Join(root, "build/bin/gompirun"), "-n", strconv.Itoa(np),
				"--timeout", "120", bin}
			j := job{argv: argv, timeout: 120*time.Second + goSideGrace, binary: bin}
			start := time.Now()
			r := run(j)
			var problems []string
			if r.exitCode != 0 {
				problems = append(problems, "exit status "+strconv.Itoa(r.exitCode)+" (the last case printed crashed)")
			}
			m := regexp.MustCompile(`(?m)^nullargs: (\d+) cases, 0 failed$`).FindStringSubmatch(r.stdout)
			if m == nil {
				problems = append(problems, "no summary line with 0 failed cases")
			} else if n, _ := strconv.Atoi(m[1]); n < 300 {
				problems = append(problems, "only "+m[1]+" cases: the generator lost functions")
			}
			if r.stderr != "" {
				problems = append(problems, "unexpected output on stderr")
			}
			checkRun(t, j, r, start, problems)
		})
	}
}
