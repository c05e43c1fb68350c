package ctests

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Real MPICH-built Fortran programs: Debian's scalapack-mpi-test ships
// ScaLAPACK's testers built against MPICH. xFbtest (the BLACS tester, whose
// Fortran code calls mpi_*_ itself) and five drivers run on gompi through
// gompirun --mpich-binary and must report the pass counts MPICH's own
// mpiexec reports. The input files are cut down (tests/fortran/scalapack)
// and MPICH's counts for them are recorded there (<prog>.counts): MPICH,
// spinning on 2 shared cores, takes a minute or more per program where
// gompi takes seconds. GOMPI_SCALAPACK_MPICH=1 runs MPICH live as well and
// checks the recorded counts against it.

const scalapackDir = "/usr/lib/x86_64-linux-gnu/scalapack/mpich-tests"

// scalapackDrivers are the ScaLAPACK drivers run besides xFbtest (xdlu
// stops on an illegal PDGETRS argument with the cut-down LU.dat, and xdllt
// stops making progress on its stock LLT.dat under MPICH as well).
var scalapackDrivers = []string{"xzlu", "xdqr", "xdinv", "xsls", "xzqr"}

// requireScaLAPACK installs scalapack-mpi-test when it is missing; failing
// to get it fails the test.
func requireScaLAPACK(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(scalapackDir, "BLACS", "xFbtest")); err == nil {
		return
	}
	aptInstall(t, "scalapack-mpi-test")
}

// scalapackInputs makes a directory with the testers' input files.
func scalapackInputs(t *testing.T, root string) string {
	dir := t.TempDir()
	var files []string
	for _, pat := range []string{"*.dat", "BLACS/*.dat"} {
		m, _ := filepath.Glob(filepath.Join(scalapackDir, pat))
		files = append(files, m...)
	}
	ours, _ := filepath.Glob(filepath.Join(root, "tests", "fortran", "scalapack", "*.dat"))
	files = append(files, ours...) // ours last: they replace the stock ones
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644))
	}
	return dir
}

var passCountRE = regexp.MustCompile(`(?m)^.*(TESTS:.*(PASSED|FAILED).*|tests? (completed|skipped).*)$`)

// passCounts are the lines of a tester's output that report counts,
// without surrounding blanks.
func passCounts(out string) string {
	lines := passCountRE.FindAllString(out, -1)
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "\n")
}

func TestScaLAPACK(t *testing.T) {
	root := ensureFortran(t)
	requireMPICH(t)
	requireScaLAPACK(t)
	dir := scalapackInputs(t, root)
	progs := append([]string{"BLACS/xFbtest"}, scalapackDrivers...)
	for _, prog := range progs {
		bin := filepath.Join(scalapackDir, prog)
		name := filepath.Base(prog)
		t.Run(name, func(t *testing.T) {
			golden := filepath.Join(root, "tests", "fortran", "scalapack", name+".counts")
			recorded, err := os.ReadFile(golden)
			require.NoError(t, err, "MPICH's counts for %s", name)
			want := passCounts(string(recorded))
			require.NotEmpty(t, want)
			if regexp.MustCompile(`[1-9]\d* (tests completed and failed|FAILED)`).MatchString(want) {
				t.Errorf("the reference run reports failures:\n%s", want)
			}
			if os.Getenv("GOMPI_SCALAPACK_MPICH") == "1" {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
				defer cancel()
				cmd := exec.CommandContext(ctx, "mpiexec.mpich", "-n", "4", bin)
				cmd.Dir = dir
				ref, _ := cmd.CombinedOutput()
				require.NoError(t, ctx.Err(), "mpiexec.mpich %s did not finish:\n%s", name, tail(ref, 4000))
				require.Equal(t, want, passCounts(string(ref)), "MPICH's live counts differ from %s", golden)
			}

			// gompi's run, with the dynamic linker's bindings logged.
			logDir := t.TempDir()
			shell := fmt.Sprintf("cd %q && exec %q --mpich-binary -n 4 --timeout 240 -x LD_DEBUG=bindings -x LD_DEBUG_OUTPUT=%q %q",
				dir, filepath.Join(root, "build/bin/gompirun"), filepath.Join(logDir, "ld"), bin)
			j := job{argv: []string{"/bin/sh", "-c", shell}, timeout: 240*time.Second + goSideGrace, binary: bin}
			start := time.Now()
			r := run(j)
			// gfortran's runtime notes IEEE flags on stderr, under MPICH too.
			s := &spec{exit: "0", stderrMatch: []string{``}}
			if name == "xFbtest" {
				// Its last test calls BLACS_ABORT on purpose, under MPICH too.
				s = &spec{exit: "nonzero", stderrMatch: []string{`MPI_Abort`}}
			}
			problems := checkExpect(s, 4, r)
			if got := passCounts(r.stdout + r.stderr); got != want {
				problems = append(problems, fmt.Sprintf("pass counts differ from MPICH's:\nMPICH:\n%s\ngompi:\n%s", want, got))
			}
			checkRun(t, j, r, start, problems)

			// gompi's entry points took the program's calls, Fortran and C.
			logs, _ := filepath.Glob(filepath.Join(logDir, "ld.*"))
			var all strings.Builder
			for _, l := range logs {
				b, err := os.ReadFile(l)
				require.NoError(t, err)
				all.Write(b)
			}
			require.Regexp(t, `to \S*/libgompi\.so(\.0)? \[0\]: normal symbol .P?MPI_\w+'`, all.String())
			if name == "xFbtest" { // the tester's own Fortran calls
				require.Regexp(t, `to \S*/libgompi\.so(\.0)? \[0\]: normal symbol .mpi_send_'`, all.String())
			}
			require.NotRegexp(t, `to \S*libmpichfort\.so\.12 \[0\]: normal symbol .mpi_\w+_'`, all.String())
			require.NotRegexp(t, `to \S*libmpich\.so\.12 \[0\]: normal symbol .P?MPI_`, all.String())
		})
	}
}
