// Package abitests checks include/mpi.h against MPICH's header: constant
// values, type sizes, the MPI_Status layout and every prototype, and that
// the header compiles cleanly as C and C++.
package abitests

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"gompi/internal/testtime"

	"gompi/abi"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mpichInclude = "/usr/include/x86_64-linux-gnu/mpich"

// intendedDiffs are values we choose to differ from MPICH 4.0.2, with why.
var intendedDiffs = map[string]string{
	"MPI_SUBVERSION": "gompi implements MPI-4.1; MPICH 4.0.2 reports 4.0",
}

// newerMPICH are MPI-4.1 constants MPICH 4.0.2 lacks, with the values MPICH
// 4.1/4.2 (which implement MPI-4.1) give them: our header must agree with
// those, since the table follows MPICH's ABI.
var newerMPICH = map[string]int64{
	"MPI_BUFFER_AUTOMATIC":          -2,
	"MPI_COMM_TYPE_RESOURCE_GUIDED": 4,
	"MPI_ERR_ERRHANDLER":            80,
	"MPI_T_ERR_NOT_ACCESSIBLE":      79,
}

func ourInclude(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	require.True(t, ok)
	dir, err := filepath.Abs(filepath.Join(filepath.Dir(file), "..", "..", "include"))
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(dir, "mpi.h"))
	return dir
}

// ensureMPICH installs MPICH's development headers when they are missing;
// the comparison is the point of this package, so failure to get them fails.
func ensureMPICH(t *testing.T) {
	if _, err := os.Stat(filepath.Join(mpichInclude, "mpi.h")); err == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "apt-get", "install", "-y", "libmpich-dev").CombinedOutput()
	require.NoError(t, err, "installing libmpich-dev: %s", out)
	require.FileExists(t, filepath.Join(mpichInclude, "mpi.h"))
}

// run runs a command under a timeout and returns its combined output.
func run(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testtime.D(5*time.Minute))
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	return string(out), err
}

// gcc quotes names with ASCII or, in a UTF-8 locale, typographic quotes.
var undeclaredRE = regexp.MustCompile(`['‘]((?:P?MPI|MPIO)_\w+)['’] undeclared`)

// constantValues compiles and runs the value program against one header
// directory. Names the header lacks are dropped (gcc names them) and
// returned as missing.
func constantValues(t *testing.T, include string) (values map[string]int64, missing []string) {
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "values.c"), filepath.Join(dir, "values")
	consts := printableConstants()
	for attempt := 0; ; attempt++ {
		require.Less(t, attempt, 10, "could not build the value program against %s", include)
		require.NoError(t, os.WriteFile(src, []byte(valueProgram(consts)), 0o644))
		out, err := run("gcc", "-std=c99", "-w", "-I"+include, "-o", bin, src)
		if err == nil {
			break
		}
		gone := map[string]bool{}
		for _, m := range undeclaredRE.FindAllStringSubmatch(out, -1) {
			gone[m[1]] = true
		}
		require.NotEmpty(t, gone, "compiling against %s:\n%s", include, out)
		kept := consts[:0:0]
		for _, c := range consts {
			if gone[c[0]] {
				missing = append(missing, c[0])
			} else {
				kept = append(kept, c)
			}
		}
		consts = kept
	}
	out, err := run(bin)
	require.NoError(t, err, out)
	values = map[string]int64{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		require.Len(t, f, 2, sc.Text())
		v, err := strconv.ParseInt(f[1], 10, 64)
		require.NoError(t, err, sc.Text())
		values[f[0]] = v
	}
	sort.Strings(missing)
	return values, missing
}

var (
	objectMacroRE = regexp.MustCompile(`(?m)^#define (MPI_[A-Z0-9_]+) `)
	enumeratorRE  = regexp.MustCompile(`(?m)^\s*(MPI_[A-Z0-9_]+)\s*(?:=[^,\n]*)?,?\s*(?:/\*.*)?$`)
)

// mpichOnlyNames lists the MPI_ constants (macros and enumerators) of
// MPICH's headers that our table does not define, for the test log.
func mpichOnlyNames(t *testing.T) []string {
	ctx, cancel := context.WithTimeout(context.Background(), testtime.D(5*time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, "gcc", "-dM", "-E", "-I"+mpichInclude, "-x", "c", "-")
	cmd.Stdin = strings.NewReader("#include <mpi.h>\n")
	macros, err := cmd.Output()
	require.NoError(t, err)
	names := map[string]bool{}
	for _, m := range objectMacroRE.FindAllStringSubmatch(string(macros), -1) {
		names[m[1]] = true
	}
	for _, h := range []string{"mpi.h", "mpio.h"} {
		text, err := os.ReadFile(filepath.Join(mpichInclude, h))
		require.NoError(t, err)
		for _, m := range enumeratorRE.FindAllStringSubmatch(string(text), -1) {
			names[m[1]] = true
		}
	}
	ours := map[string]bool{"MPI_VERSION": true, "MPI_SUBVERSION": true}
	for _, c := range abi.Constants() {
		ours[c.Name] = true
	}
	var only []string
	for n := range names {
		if !ours[n] {
			only = append(only, n)
		}
	}
	sort.Strings(only)
	return only
}

// (a) and (b): every constant both headers define has the same value; type
// sizes and the MPI_Status layout are identical.
func TestValuesMatchMPICH(t *testing.T) {
	ensureMPICH(t)
	ours, weLack := constantValues(t, ourInclude(t))
	theirs, mpichLacks := constantValues(t, mpichInclude)
	require.Empty(t, weLack, "our own header must define every constant of the table")
	t.Logf("constants MPICH 4.0.2 does not define (%d): %s", len(mpichLacks), strings.Join(mpichLacks, " "))
	t.Logf("MPICH constants we do not define: %s", strings.Join(mpichOnlyNames(t), " "))

	compared := 0
	for name, v := range ours {
		w, ok := theirs[name]
		if !ok {
			continue
		}
		compared++
		if why, intended := intendedDiffs[name]; intended {
			assert.NotEqual(t, w, v, "%s no longer differs from MPICH: drop it from intendedDiffs", name)
			t.Logf("%s: ours %d, MPICH %d (%s)", name, v, w, why)
			continue
		}
		assert.Equal(t, w, v, "%s: ours %d (%#x), MPICH %d (%#x)", name, v, v, w, w)
	}
	t.Logf("compared %d values", compared)
	for name, want := range newerMPICH {
		_, old := theirs[name]
		assert.False(t, old, "MPICH's header now defines %s: drop it from newerMPICH", name)
		require.Contains(t, ours, name)
		assert.Equal(t, want, ours[name], "%s: ours %d, MPICH 4.1/4.2 %d", name, ours[name], want)
	}
	assert.Greater(t, compared, 300)

	for _, ty := range handleTypes {
		key := "sizeof(" + ty + ")"
		require.Contains(t, theirs, key)
		assert.Equal(t, theirs[key], ours[key], key)
	}
	assert.EqualValues(t, 20, ours["sizeof(MPI_Status)"])
	for key, v := range theirs {
		if strings.HasPrefix(key, "offsetof(") {
			assert.Equal(t, v, ours[key], key)
		}
	}
}

// Every prototype and callback type is identical to MPICH's declaration.
func TestPrototypesMatchMPICH(t *testing.T) {
	ensureMPICH(t)
	src := filepath.Join(t.TempDir(), "redecl.c")
	require.NoError(t, os.WriteFile(src, []byte(redeclarations()), 0o644))
	out, err := run("gcc", "-std=c11", "-fsyntax-only", "-Werror", "-I"+mpichInclude, src)
	require.NoError(t, err, "our prototypes disagree with MPICH's:\n%s", out)
}

// (c): the header compiles without warnings as C99 and C++11/17, with
// every constant, type and function used.
func TestHeaderCompilesCleanly(t *testing.T) {
	inc := ourInclude(t)
	dir := t.TempDir()
	prog := usageProgram()
	for _, tc := range []struct {
		compiler, file string
		flags          []string
	}{
		{"gcc", "use.c", []string{"-std=c99", "-Wpedantic"}},
		{"gcc", "use11.c", []string{"-std=c11", "-Wpedantic"}},
		{"g++", "use11.cc", []string{"-std=c++11", "-Wpedantic"}},
		{"g++", "use17.cc", []string{"-std=c++17", "-Wpedantic"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src := filepath.Join(dir, tc.file)
			require.NoError(t, os.WriteFile(src, []byte(prog), 0o644))
			args := append([]string{"-Wall", "-Wextra", "-Werror", "-I" + inc, "-c", "-o", src + ".o"}, tc.flags...)
			out, err := run(tc.compiler, append(args, src)...)
			require.NoError(t, err, "%s %v:\n%s", tc.compiler, tc.flags, out)
		})
	}
}

// The header is self-contained and idempotent: including it twice, alone,
// works, and it leaves no MPICH or Open MPI identification macros.
func TestHeaderGuardAndIdentity(t *testing.T) {
	inc := ourInclude(t)
	src := filepath.Join(t.TempDir(), "twice.c")
	require.NoError(t, os.WriteFile(src, []byte(`#include <mpi.h>
#include <mpi.h>
#if defined(MPICH) || defined(MPICH_VERSION) || defined(OPEN_MPI) || defined(OMPI_MAJOR_VERSION)
#error identifies as another implementation
#endif
#if MPI_VERSION != 4 || MPI_SUBVERSION != 1
#error wrong version
#endif
#ifndef GOMPI_VERSION
#error no GOMPI_VERSION
#endif
int main(void) { return MPI_SUCCESS; }
`), 0o644))
	out, err := run("gcc", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I"+inc, "-fsyntax-only", src)
	require.NoError(t, err, out)
}
