package ctests

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The Fortran test programs of tests/fortran (*.f fixed form with mpif.h,
// *.f90 with `use mpi` or `use mpi_f08`) run like the C ones: the same
// directives, written as "! gompi-KIND: ..." comment lines, plus
// "! gompi-fflags: ..." replacing the default -Wall -Werror (legacy code
// passing buffers of several types to one MPI call needs
// -fallow-argument-mismatch with gfortran 10 and later).

var fdirectiveRE = regexp.MustCompile(`^\s*!\s*(gompi-[a-z]+:.*)$`)

// parseFortranSpec reads a Fortran program's directives and its fflags.
func parseFortranSpec(path string) (*spec, []string, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var c []string
	fflags := []string{"-Wall", "-Werror"}
	for _, line := range strings.Split(string(text), "\n") {
		m := fdirectiveRE.FindStringSubmatch(line)
		if m == nil {
			if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "!") {
				continue
			}
			break
		}
		if rest, ok := strings.CutPrefix(m[1], "gompi-fflags:"); ok {
			fflags = strings.Fields(rest)
			continue
		}
		c = append(c, "/* "+m[1]+" */")
	}
	s, err := parseSpec(strings.Join(c, "\n"))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return s, fflags, nil
}

var (
	fortranOnce sync.Once
	fortranErr  error
)

// ensureFortran builds the Fortran parts (make fortran) once per test run
// if gompifort or the modules are missing; gfortran must be installed
// (make peers installs it).
func ensureFortran(t *testing.T) string {
	t.Helper()
	root := ensureBuild(t)
	_, err := exec.LookPath("gfortran")
	require.NoError(t, err, "gfortran is missing: `make peers` installs it")
	fortranOnce.Do(func() {
		for _, p := range []string{"build/bin/gompifort", "build/include/mpi.mod", "build/include/mpi_f08.mod", "build/lib/libgompifort.so"} {
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
				defer cancel()
				out, err := exec.CommandContext(ctx, "make", "-C", root, "fortran").CombinedOutput()
				if err != nil {
					fortranErr = fmt.Errorf("make fortran: %v\n%s", err, tail(out, 8000))
				}
				return
			}
		}
	})
	if fortranErr != nil {
		t.Fatal(fortranErr)
	}
	return root
}

// TestFortran runs every tests/fortran program under gompirun, one subtest
// per process count.
func TestFortran(t *testing.T) {
	root := ensureFortran(t)
	var files []string
	for _, pat := range []string{"*.f", "*.f90"} {
		m, err := filepath.Glob(filepath.Join(root, "tests", "fortran", pat))
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files, "no Fortran test programs found")
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		t.Run(name, func(t *testing.T) {
			s, fflags, err := parseFortranSpec(file)
			require.NoError(t, err)
			for _, np := range s.nps {
				t.Run(fmt.Sprintf("np=%d", np), func(t *testing.T) {
					// -J: a program's own modules go with the binaries.
					fc := append([]string{filepath.Join(root, "build/bin/gompifort"), "-O2", "-J", workDir}, fflags...)
					bin := compile(t, "f-"+name, file, fc...)
					runSpec(t, root, bin, s, np)
				})
			}
		})
	}
}

// mpichFortranPrograms are the tests/fortran programs MPICH's mpif90 builds
// too (its mpi module; mpif.h).
var mpichFortranPrograms = []string{"f77_p2p.f", "f90_coll.f90", "f90_comm.f90"}

// TestFortranMPICHBinary runs Fortran programs built by MPICH's mpif90
// (linked to libmpichfort.so.12 and libmpich.so.12) on gompi through
// gompirun --mpich-binary: gompi's own Fortran entry points must take the
// calls (the dynamic linker's bindings say so), recognising the sentinels
// in the COMMON blocks MPICH's mpif.h and module declare.
func TestFortranMPICHBinary(t *testing.T) {
	root := ensureFortran(t)
	requireMPICH(t)
	for _, prog := range mpichFortranPrograms {
		file := filepath.Join(root, "tests", "fortran", prog)
		name := strings.TrimSuffix(prog, filepath.Ext(prog))
		t.Run(name, func(t *testing.T) {
			s, fflags, err := parseFortranSpec(file)
			require.NoError(t, err)
			fc := append([]string{"mpif90.mpich", "-O2", "-J", workDir}, fflags...)
			if fflags[0] == "-Wall" {
				// MPICH's module has no interfaces for choice buffers, so
				// gfortran compares the calls with each other; MPICH's own
				// mpif90 turns that into warnings.
				fc = []string{"mpif90.mpich", "-O2", "-J", workDir, "-w"}
			}
			bin := compile(t, "mpich-"+name, file, fc...)
			out, err := exec.Command("readelf", "-d", bin).CombinedOutput()
			require.NoError(t, err, "%s", out)
			require.Contains(t, string(out), "[libmpichfort.so.12]")
			require.NotContains(t, string(out), "libgompi")

			// Which library the program's Fortran calls bind to.
			dir := t.TempDir()
			argv := []string{filepath.Join(root, "build/bin/gompirun"), "--mpich-binary", "-n", "1",
				"--timeout", "60", "-x", "LD_DEBUG=bindings", "-x", "LD_DEBUG_OUTPUT=" + filepath.Join(dir, "ld"), bin}
			j := job{argv: argv, timeout: 60*time.Second + goSideGrace, binary: bin}
			start := time.Now()
			r := run(j)
			checkRun(t, j, r, start, checkExpect(s, 1, r))
			logs, _ := filepath.Glob(filepath.Join(dir, "ld.*"))
			var all strings.Builder
			for _, l := range logs {
				b, err := os.ReadFile(l)
				require.NoError(t, err)
				all.Write(b)
			}
			require.Regexp(t, "binding file "+regexp.QuoteMeta(bin)+` \[0\] to \S*/libgompi\.so(\.0)? \[0\]: normal symbol .mpi_init_'`, all.String())
			require.NotRegexp(t, `to \S*libmpichfort\.so\.12 \[0\]: normal symbol .mpi_(init|send|recv|comm_rank|barrier)_'`, all.String())

			for _, np := range []int{2, 4} {
				t.Run(fmt.Sprintf("np=%d", np), func(t *testing.T) {
					argv := []string{filepath.Join(root, "build/bin/gompirun"), "--mpich-binary", "-n", fmt.Sprint(np),
						"--timeout", "60", bin}
					j := job{argv: argv, timeout: 60*time.Second + goSideGrace, binary: bin}
					start := time.Now()
					r := run(j)
					checkRun(t, j, r, start, checkExpect(s, np, r))
				})
			}
		})
	}
}
