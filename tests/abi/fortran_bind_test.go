package abitests

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"gompi/abi"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	buildOnce sync.Once
	buildErr  error
)

// builtTree runs `make build` once if the library, the Fortran wrapper or
// the mpi module is missing, and returns build/.
func builtTree(t *testing.T) string {
	inc := ourInclude(t)
	build := filepath.Join(filepath.Dir(inc), "build")
	buildOnce.Do(func() {
		for _, p := range []string{"lib/libgompi.so", "lib/libgompifort.so", "include/mpi.mod", "bin/gompifort"} {
			if _, err := os.Stat(filepath.Join(build, p)); err != nil {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
				defer cancel()
				out, err := exec.CommandContext(ctx, "make", "-C", filepath.Dir(inc), "build").CombinedOutput()
				if err != nil {
					buildErr = fmt.Errorf("make build: %v\n%s", err, out)
				}
				return
			}
		}
	})
	require.NoError(t, buildErr)
	return build
}

// dynamicSymbols lists the symbols a shared library defines.
func dynamicSymbols(t *testing.T, lib string) map[string]bool {
	out, err := run("nm", "-D", "--defined-only", lib)
	require.NoError(t, err, out)
	syms := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 3 {
			syms[f[2]] = true
		}
	}
	return syms
}

// Every C call libgompi.so exports has its Fortran binding in MPICH's four
// spellings and their pmpi_ twins, unless it has none in the standard.
func TestFortranSpellingsExported(t *testing.T) {
	syms := dynamicSymbols(t, filepath.Join(builtTree(t), "lib", "libgompi.so"))
	table := map[string]abi.Function{}
	for _, f := range abi.Functions() {
		table[f.Name] = f
	}
	var bound, unbound []string
	for s := range syms {
		if !strings.HasPrefix(s, "MPI_") || strings.ToUpper(s) == s {
			continue // constants and the Fortran upper-case spellings
		}
		f, ok := table[s]
		if !assert.True(t, ok, "%s is exported but not in the abi table", s) {
			continue
		}
		// Bound by hand in capi/fortran_cb.c (their callbacks need translators).
		hand := s == "MPI_Grequest_start" || s == "MPI_Register_datarep"
		if !abi.FortranBindable(f) && !hand {
			unbound = append(unbound, s)
			continue
		}
		bound = append(bound, s)
		for _, sp := range abi.FortranSpellings(s) {
			assert.True(t, syms[sp], "%s: %s is not exported", s, sp)
		}
	}
	sort.Strings(unbound)
	t.Logf("%d calls bound; without a Fortran binding: %s", len(bound), strings.Join(unbound, " "))
	assert.Greater(t, len(bound), 250)
	for _, s := range []string{"mpipriv1_", "mpipriv2_", "mpiprivc_", "mpifcmb5_", "mpifcmb9_",
		"mpi_comm_null_copy_fn_", "MPI_COMM_DUP_FN", "pmpi_dup_fn_", "mpi_null_delete_fn"} {
		assert.True(t, syms[s], "%s is not exported", s)
	}
}

// The `mpi` module's constants equal those of MPICH's `mpi` module: one
// program printing every PARAMETER the two mpif.h share, built by gompifort
// and by MPICH's mpif90.
func TestFortranModuleValuesMatchMPICH(t *testing.T) {
	ensureMPICH(t)
	build := builtTree(t)
	ours := fortranParameters(t, filepath.Join(build, "include", "mpif.h"))
	theirs := fortranParameters(t, filepath.Join(mpichInclude, "mpif.h"))
	var names []string
	for n, v := range ours {
		if _, ok := theirs[n]; ok && !strings.HasPrefix(v, ".") && intendedDiffs[n] == "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	require.Greater(t, len(names), 250)
	var src strings.Builder
	src.WriteString("program values\nuse mpi\nimplicit none\n")
	for _, n := range names {
		fmt.Fprintf(&src, "print '(a,1x,i0)', '%s', %s\n", n, n)
	}
	src.WriteString("end program values\n")
	dir := t.TempDir()
	path := filepath.Join(dir, "values.f90")
	require.NoError(t, os.WriteFile(path, []byte(src.String()), 0o644))
	outputs := map[string]string{}
	for _, fc := range []string{filepath.Join(build, "bin", "gompifort"), "mpif90.mpich"} {
		bin := filepath.Join(dir, filepath.Base(fc))
		out, err := run(fc, "-o", bin, path)
		require.NoError(t, err, "%s: %s", fc, out)
		out, err = run(bin)
		require.NoError(t, err, "%s: %s", bin, out)
		outputs[filepath.Base(fc)] = out
	}
	ourLines := strings.Split(outputs["gompifort"], "\n")
	theirLines := strings.Split(outputs["mpif90.mpich"], "\n")
	require.Equal(t, len(theirLines), len(ourLines))
	for i := range ourLines {
		assert.Equal(t, theirLines[i], ourLines[i])
	}
	t.Logf("compared %d constants of the mpi modules", len(names))
}
