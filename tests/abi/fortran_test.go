package abitests

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	parameterRE  = regexp.MustCompile(`(?i)^\s*PARAMETER\s*\((.*)\)\s*$`)
	differenceRE = regexp.MustCompile(`^(-?\d+)-(\d+)$`)
)

// fortranParameters reads the PARAMETER values of an mpif.h. Values are
// integers, "a-b" differences, or names of earlier parameters; logical
// parameters are kept as their text.
func fortranParameters(t *testing.T, path string) map[string]string {
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	vals := map[string]string{}
	for _, line := range strings.Split(string(text), "\n") {
		m := parameterRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, assign := range strings.Split(m[1], ",") {
			name, expr, ok := strings.Cut(strings.ReplaceAll(assign, " ", ""), "=")
			require.True(t, ok, line)
			expr = strings.Trim(expr, "()")
			switch d := differenceRE.FindStringSubmatch(expr); {
			case d != nil:
				a, _ := strconv.Atoi(d[1])
				b, _ := strconv.Atoi(d[2])
				expr = strconv.Itoa(a - b)
			case vals[expr] != "":
				expr = vals[expr]
			}
			vals[strings.ToUpper(name)] = strings.ToUpper(expr)
		}
	}
	return vals
}

// Every PARAMETER both mpif.h files define has the same value.
func TestFortranValuesMatchMPICH(t *testing.T) {
	ensureMPICH(t)
	ours := fortranParameters(t, filepath.Join(ourInclude(t), "mpif.h"))
	theirs := fortranParameters(t, filepath.Join(mpichInclude, "mpif.h"))
	var onlyOurs, onlyTheirs []string
	compared := 0
	for name, v := range ours {
		w, ok := theirs[name]
		if !ok {
			onlyOurs = append(onlyOurs, name)
			continue
		}
		compared++
		if _, intended := intendedDiffs[name]; intended {
			continue
		}
		assert.Equal(t, w, v, name)
	}
	for name := range theirs {
		if _, ok := ours[name]; !ok {
			onlyTheirs = append(onlyTheirs, name)
		}
	}
	sort.Strings(onlyOurs)
	sort.Strings(onlyTheirs)
	t.Logf("mpif.h parameters MPICH lacks: %s", strings.Join(onlyOurs, " "))
	t.Logf("MPICH mpif.h parameters we lack: %s", strings.Join(onlyTheirs, " "))
	t.Logf("compared %d values", compared)
	assert.Greater(t, compared, 250)
}

// mpif.h compiles in fixed and free form without warnings.
func TestFortranHeaderCompiles(t *testing.T) {
	inc := ourInclude(t)
	dir := t.TempDir()
	fixed := `      PROGRAM T
      INCLUDE 'mpif.h'
      INTEGER IERR, ST(MPI_STATUS_SIZE)
      DOUBLE PRECISION T0
      T0 = MPI_WTIME()
      CALL MPI_RECV(ST, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG,
     &              MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
      PRINT *, MPI_COMM_WORLD, T0, IERR, ST(MPI_SOURCE)
      END
`
	free := `program t
include 'mpif.h'
integer :: ierr, st(MPI_STATUS_SIZE)
double precision :: t0
t0 = MPI_WTIME()
call MPI_RECV(st, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
print *, MPI_COMM_WORLD, t0, ierr, st(MPI_TAG)
end program t
`
	for file, src := range map[string]string{"fixed.f": fixed, "free.f90": free} {
		path := filepath.Join(dir, file)
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
		out, err := run("gfortran", "-Wall", "-Werror", "-I"+inc, "-c", "-o", path+".o", path)
		require.NoError(t, err, "%s:\n%s", file, out)
	}
}
