package osu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"gompi/internal/suitebuild"
)

// The build recipes and their cache live in internal/suitebuild, shared
// with `make bench` (cmd/suitebuild); these are the test's wrappers.

// lib is one MPI implementation the suites are built against and run on.
type lib struct {
	name   string   // gompi, mpich, openmpi
	cc     string   // C compiler wrapper
	cxx    string   // C++ compiler wrapper
	launch []string // launcher argv prefix; "-n N" follows
}

func (l lib) sb() suitebuild.Lib {
	return suitebuild.Lib{Name: l.name, CC: l.cc, CXX: l.cxx, Launch: l.launch}
}

func libByName(t *testing.T, root, name string) lib {
	t.Helper()
	s, err := suitebuild.LibByName(root, name)
	if err != nil {
		t.Fatalf("OSU_TEST_LIB: %v", err)
	}
	return lib{s.Name, s.CC, s.CXX, s.Launch}
}

// testLib is the library under test: gompi unless OSU_TEST_LIB says otherwise.
func testLib(t *testing.T, root string) lib {
	name := os.Getenv("OSU_TEST_LIB")
	if name == "" {
		name = "gompi"
	}
	l := libByName(t, root, name)
	if l.name != "gompi" {
		if _, err := exec.LookPath(l.cc); err != nil {
			missing(t, fmt.Sprintf("%s not found (apt-get install the %s packages, or make peers)", l.cc, l.name))
		}
	}
	return l
}

// repoRoot is the directory holding gompi's go.mod, found upwards from here.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := suitebuild.RepoRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// ensureGompi runs `make build` when an output the suites need is missing.
func ensureGompi(t *testing.T, root string) {
	t.Helper()
	for _, p := range []string{"build/lib/libgompi.so", "build/include/mpi.h", "build/bin/gompirun",
		"build/bin/gompicc", "build/bin/gompicxx"} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, "make", "-C", root, "build").CombinedOutput()
			if err != nil {
				t.Fatalf("make build: %v\n%s", err, tail(out, 6000))
			}
			return
		}
	}
}

// missing reports an absent prerequisite in one line: a skip, or a failure
// under CI=true.
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// buildErr reports an error of a suitebuild call: absent prerequisites
// through missing, anything else as a failure.
func buildErr(t *testing.T, err error) {
	t.Helper()
	if errors.Is(err, suitebuild.ErrMissing) {
		missing(t, err.Error())
	}
	t.Fatal(err)
}

// tarball is the path of a benchmark source archive in ../shared/benchmarks.
func tarball(t *testing.T, root, pattern string) string {
	t.Helper()
	p, err := suitebuild.Tarball(root, pattern)
	if err != nil {
		buildErr(t, err)
	}
	return p
}

// buildCached runs steps in dir unless a build of the same recipe is
// cached there (suitebuild.Cached); it returns the log and whether the
// last step succeeded.
func buildCached(t *testing.T, dir, recipe string, newerThan []string, steps [][]string, env []string) (string, bool) {
	t.Helper()
	r, err := suitebuild.Cached(dir, recipe, newerThan, steps, env)
	if err != nil {
		t.Fatal(err)
	}
	return r.Log, r.OK
}

func fileID(path string) string { return suitebuild.FileID(path) }

func libInputs(root string, l lib) []string { return suitebuild.LibInputs(root, l.sb()) }

// buildOSU builds OSU 7.4 against l under build/osu/<lib>/osu and returns
// the source tree's top directory.
func buildOSU(t *testing.T, root string, l lib) string {
	t.Helper()
	t.Logf("building OSU against %s in %s (cached)", l.name, filepath.Join(root, "build/osu", l.name, "osu"))
	r, err := suitebuild.OSU(root, l.sb())
	if err != nil {
		buildErr(t, err)
	}
	if !r.OK {
		t.Logf("OSU build against %s did not finish cleanly; log tail:\n%s", l.name, tail([]byte(r.Log), 3000))
	}
	return r.Dir
}

// buildIMB builds one IMB suite against l and returns its program's path.
func buildIMB(t *testing.T, root string, l lib, suite string) string {
	t.Helper()
	t.Logf("building %s against %s (cached)", suite, l.name)
	r, err := suitebuild.IMB(root, l.sb(), suite)
	if err != nil {
		buildErr(t, err)
	}
	if !r.OK {
		t.Logf("%s build against %s did not finish cleanly; log tail:\n%s", suite, l.name, tail([]byte(r.Log), 3000))
	}
	return filepath.Join(r.Dir, suite)
}

// osuPrograms lists the benchmark programs built in an OSU tree, by name,
// with their paths.
func osuPrograms(dir string) map[string]string { return suitebuild.OSUPrograms(dir) }

// tail keeps the last n bytes of b, which is where a failure usually shows.
func tail(b []byte, n int) string { return suitebuild.Tail(b, n) }
