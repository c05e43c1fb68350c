package osu

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// recipeVersion changes whenever the build steps below change, so cached
// builds made by an older recipe are rebuilt.
const recipeVersion = "osu-test-build-1"

// lib is one MPI implementation the suites are built against and run on.
type lib struct {
	name   string   // gompi, mpich, openmpi
	cc     string   // C compiler wrapper
	cxx    string   // C++ compiler wrapper
	launch []string // launcher argv prefix; "-n N" follows
}

func libByName(t *testing.T, root, name string) lib {
	t.Helper()
	switch name {
	case "gompi":
		return lib{name, filepath.Join(root, "build/bin/gompicc"), filepath.Join(root, "build/bin/gompicxx"),
			[]string{filepath.Join(root, "build/bin/gompirun")}}
	case "mpich":
		return lib{name, "mpicc.mpich", "mpicxx.mpich", []string{"mpiexec.mpich"}}
	case "openmpi":
		return lib{name, "mpicc.openmpi", "mpicxx.openmpi",
			[]string{"mpirun.openmpi", "--allow-run-as-root", "--oversubscribe"}}
	}
	t.Fatalf("OSU_TEST_LIB=%q: want gompi, mpich or openmpi", name)
	return lib{}
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
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(mod, []byte("module gompi\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod of module gompi above the test directory")
		}
		dir = parent
	}
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

// tarball is the path of a benchmark source archive in ../shared/benchmarks.
func tarball(t *testing.T, root, pattern string) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(root), "shared", "benchmarks")
	m, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(m) == 0 {
		missing(t, fmt.Sprintf("no %s in %s: the benchmark sources are not here", pattern, dir))
	}
	sort.Strings(m)
	return m[len(m)-1]
}

// buildCached runs steps in dir (emptied first) unless dir holds a stamp of
// the same recipe newer than every file in newerThan. It returns the build
// log and whether the last step succeeded; a failed build is cached too (the
// caller reports what it lacks), so it is not retried until something changes.
func buildCached(t *testing.T, dir, recipe string, newerThan []string, steps [][]string, env []string) (string, bool) {
	t.Helper()
	sum := sha256.Sum256([]byte(recipeVersion + "\n" + recipe))
	key := fmt.Sprintf("%x", sum[:8])
	stamp := filepath.Join(dir, ".stamp")
	logf := filepath.Join(dir, "build.log")
	if b, err := os.ReadFile(stamp); err == nil {
		fields := strings.Fields(string(b))
		fresh := len(fields) == 2 && fields[0] == key
		if st, err := os.Stat(stamp); fresh && err == nil {
			for _, f := range newerThan {
				if fi, err := os.Stat(f); err == nil && fi.ModTime().After(st.ModTime()) {
					fresh = false
				}
			}
		}
		if fresh {
			log, _ := os.ReadFile(logf)
			return string(log), fields[1] == "ok"
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	ok := true
	for _, step := range steps {
		fmt.Fprintf(&log, "$ %s\n", strings.Join(step, " "))
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		cmd := exec.CommandContext(ctx, step[0], step[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdout, cmd.Stderr = &log, &log
		err := cmd.Run()
		cancel()
		if err != nil {
			fmt.Fprintf(&log, "[%v]\n", err)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || step[0] != "make" {
				ok = false
				break
			}
			ok = false // make -k went on; what it built is still used
		}
	}
	os.WriteFile(logf, log.Bytes(), 0o644)
	status := "ok"
	if !ok {
		status = "failed"
	}
	if err := os.WriteFile(stamp, []byte(key+" "+status+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return log.String(), ok
}

// fileID names a file's version for a recipe: path, size and time.
func fileID(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return path + " missing"
	}
	return fmt.Sprintf("%s %d %d", path, fi.Size(), fi.ModTime().UnixNano())
}

// libInputs are the files whose change means a rebuild against l.
func libInputs(root string, l lib) []string {
	if l.name != "gompi" {
		return nil
	}
	return []string{filepath.Join(root, "build/lib/libgompi.so.0.1.0"), filepath.Join(root, "build/include/mpi.h"),
		filepath.Join(root, "build/bin/gompicc")}
}

// buildOSU builds OSU 7.4 against l under build/osu/<lib>/osu and returns
// the source tree's top directory.
func buildOSU(t *testing.T, root string, l lib) string {
	t.Helper()
	tgz := tarball(t, root, "osu-micro-benchmarks-7.4.tar.gz")
	dir := filepath.Join(root, "build/osu", l.name, "osu")
	steps := [][]string{
		{"tar", "xzf", tgz, "--strip-components=1"},
		{"./configure", "CC=" + l.cc, "CXX=" + l.cxx},
		{"make", "-k", "-j2"},
	}
	recipe := fmt.Sprintf("%s\n%v", fileID(tgz), steps)
	t.Logf("building OSU against %s in %s (cached)", l.name, dir)
	log, ok := buildCached(t, dir, recipe, libInputs(root, l), steps, nil)
	if !ok {
		t.Logf("OSU build against %s did not finish cleanly; log tail:\n%s", l.name, tail([]byte(log), 3000))
	}
	return dir
}

// osuPrograms lists the benchmark programs built in an OSU tree, by name,
// with their paths.
func osuPrograms(dir string) map[string]string {
	progs := map[string]string{}
	filepath.WalkDir(filepath.Join(dir, "c"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), "osu_") || strings.Contains(d.Name(), ".") {
			return nil
		}
		if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			progs[d.Name()] = p
		}
		return nil
	})
	return progs
}

// tail keeps the last n bytes of b, which is where a failure usually shows.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = append([]byte("[...]\n"), b[len(b)-n:]...)
	}
	return string(b)
}
