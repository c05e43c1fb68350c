package ctests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fortranHello is a use mpi_f08 program the tool tests build and run.
const fortranHello = `program hello
  use mpi_f08
  implicit none
  integer :: rank, np
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  print '(a,i0,a,i0)', 'hello ', rank, ' of ', np
  call MPI_Finalize()
end program hello
`

// runHello runs a built hello under gompirun (the one from bin's tree).
func runHello(t *testing.T, gompirun, bin string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, gompirun, "-n", "2", "--timeout", "90", bin).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "hello 0 of 2")
	assert.Contains(t, string(out), "hello 1 of 2")
}

// gompifort, gompif77 and gompif90 print their commands with -show,
// -compile-info and -link-info like gompicc; gompi.pc's fflags and flibs
// build a use mpi_f08 program with gfortran alone.
func TestFortranWrapperTools(t *testing.T) {
	root := ensureFortran(t)
	bin := filepath.Join(root, "build", "bin")
	inc := filepath.Join(root, "build", "include")
	for _, name := range []string{"gompifort", "gompif77", "gompif90"} {
		w := filepath.Join(bin, name)
		out, err := exec.Command(w, "-show", "-O2", "x.f90", "-o", "x").CombinedOutput()
		require.NoError(t, err, "%s -show: %s", name, out)
		show := strings.Fields(string(out))
		require.NotEmpty(t, show)
		assert.Equal(t, "gfortran", show[0], "%s -show: %s", name, out)
		assert.Contains(t, show, "-I"+inc, "%s -show", name)
		assert.Contains(t, show, "-lgompifort", "%s -show", name)
		assert.Contains(t, show, "-lgompi", "%s -show", name)
		out, err = exec.Command(w, "-show", "-c", "x.f90").CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.NotContains(t, string(out), "-lgompi", "%s -show -c links nothing", name)
		out, err = exec.Command(w, "-compile-info").CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Equal(t, "gfortran -I"+inc, strings.TrimSpace(string(out)))
		out, err = exec.Command(w, "-link-info").CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Contains(t, string(out), "-lgompifort -lgompi")
	}

	// pkg-config: fflags and flibs.
	if _, err := exec.LookPath("pkg-config"); err != nil {
		t.Fatal("pkg-config is missing")
	}
	pc := func(v string) []string {
		cmd := exec.Command("pkg-config", "--variable="+v, "gompi")
		cmd.Env = append(os.Environ(), "PKG_CONFIG_PATH="+filepath.Join(root, "build", "lib", "pkgconfig"))
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "pkg-config %s: %s", v, out)
		return strings.Fields(string(out))
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "hello.f90")
	require.NoError(t, os.WriteFile(src, []byte(fortranHello), 0o644))
	exe := filepath.Join(dir, "hello")
	args := append(append(pc("fflags"), "-J", dir, src, "-o", exe), pc("flibs")...)
	out, err := exec.Command("gfortran", args...).CombinedOutput()
	require.NoError(t, err, "gfortran %s: %s", strings.Join(args, " "), out)
	runHello(t, filepath.Join(bin, "gompirun"), exe)
}

// make install puts the modules, libgompifort and gompifort under PREFIX,
// where the installed gompifort builds a use mpi_f08 program.
func TestFortranInstall(t *testing.T) {
	root := ensureFortran(t)
	prefix := filepath.Join(t.TempDir(), "prefix")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "make", "-C", root, "install", "PREFIX="+prefix).CombinedOutput()
	require.NoError(t, err, "make install: %s", tail(out, 4000))
	for _, p := range []string{"include/mpif.h", "include/mpi.mod", "include/mpi_f08.mod", "lib/libgompifort.so",
		"bin/gompifort", "bin/gompif90", "bin/gompif77"} {
		_, err := os.Stat(filepath.Join(prefix, p))
		assert.NoError(t, err, "make install: no %s", p)
	}
	pcText, err := os.ReadFile(filepath.Join(prefix, "lib", "pkgconfig", "gompi.pc"))
	require.NoError(t, err)
	assert.Contains(t, string(pcText), "prefix="+prefix)
	assert.Contains(t, string(pcText), "flibs=")
	dir := t.TempDir()
	src := filepath.Join(dir, "hello.f90")
	require.NoError(t, os.WriteFile(src, []byte(fortranHello), 0o644))
	exe := filepath.Join(dir, "hello")
	out, err = exec.Command(filepath.Join(prefix, "bin", "gompifort"), "-J", dir, src, "-o", exe).CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = exec.Command(filepath.Join(prefix, "bin", "gompifort"), "-show", src).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "-I"+filepath.Join(prefix, "include"))
	runHello(t, filepath.Join(prefix, "bin", "gompirun"), exe)
}
