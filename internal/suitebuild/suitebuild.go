// Package suitebuild builds the benchmark suites gompi is judged by (OSU
// micro-benchmarks 7.4 and the Intel MPI Benchmarks, sources in
// ../shared/benchmarks) against one MPI library, cached under
// build/osu/<lib>/. One recipe serves the acceptance test (tests/osu) and
// `make bench` (cmd/suitebuild), so both measure the same binaries.
package suitebuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"gompi/internal/repo"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// recipeVersion changes whenever the build steps below change, so cached
// builds made by an older recipe are rebuilt.
const recipeVersion = "osu-test-build-1"

// Lib is one MPI implementation the suites are built against and run on.
type Lib struct {
	Name   string   // gompi, mpich, openmpi
	CC     string   // C compiler wrapper
	CXX    string   // C++ compiler wrapper
	Launch []string // launcher argv prefix; "-n N" follows
}

// Libs are the names LibByName knows.
var Libs = []string{"gompi", "mpich", "openmpi"}

// LibByName describes a library; root is gompi's source tree.
func LibByName(root, name string) (Lib, error) {
	switch name {
	case "gompi":
		return Lib{name, filepath.Join(root, "build/bin/gompicc"), filepath.Join(root, "build/bin/gompicxx"),
			[]string{filepath.Join(root, "build/bin/gompirun")}}, nil
	case "mpich":
		return Lib{name, "mpicc.mpich", "mpicxx.mpich", []string{"mpiexec.mpich"}}, nil
	case "openmpi":
		return Lib{name, "mpicc.openmpi", "mpicxx.openmpi",
			[]string{"mpirun.openmpi", "--allow-run-as-root", "--oversubscribe"}}, nil
	}
	return Lib{}, fmt.Errorf("library %q: want gompi, mpich or openmpi", name)
}

// RepoRoot is the directory holding gompi's go.mod, found upwards from dir.
func RepoRoot(dir string) (string, error) { return repo.RootFrom(dir) }

// ErrMissing marks an absent prerequisite (sources, compiler): callers skip
// or fall back rather than fail.
var ErrMissing = errors.New("missing prerequisite")

// Tarball is the path of a benchmark source archive in ../shared/benchmarks
// (the newest name matching pattern).
func Tarball(root, pattern string) (string, error) {
	dir := filepath.Join(filepath.Dir(root), "shared", "benchmarks")
	m, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(m) == 0 {
		return "", fmt.Errorf("%w: no %s in %s: the benchmark sources are not here", ErrMissing, pattern, dir)
	}
	sort.Strings(m)
	return m[len(m)-1], nil
}

// Result is one cached build.
type Result struct {
	Dir string // the build tree
	Log string // the build log (also in Dir/build.log)
	OK  bool   // every step succeeded (make -k may still have built most programs)
}

// Cached runs steps in dir (emptied first; env added to each step's
// environment) unless dir holds a stamp of the same recipe newer than every
// file in newerThan. A failed build is cached too (the caller reports what
// it lacks), so it is not retried until something changes.
func Cached(dir, recipe string, newerThan []string, steps [][]string, env []string) (Result, error) {
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
			return Result{dir, string(log), fields[1] == "ok"}, nil
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Result{}, err
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
			ok = false
			if !errors.As(err, &ee) || step[0] != "make" {
				break
			}
			// make -k went on; what it built is still used
		}
	}
	os.WriteFile(logf, log.Bytes(), 0o644)
	status := "ok"
	if !ok {
		status = "failed"
	}
	if err := os.WriteFile(stamp, []byte(key+" "+status+"\n"), 0o644); err != nil {
		return Result{}, err
	}
	return Result{dir, log.String(), ok}, nil
}

// FileID names a file's version for a recipe: path, size and time.
func FileID(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return path + " missing"
	}
	return fmt.Sprintf("%s %d %d", path, fi.Size(), fi.ModTime().UnixNano())
}

// LibInputs are the files whose change means a rebuild against l.
func LibInputs(root string, l Lib) []string {
	if l.Name != "gompi" {
		return nil
	}
	return []string{filepath.Join(root, "build/lib/libgompi.so.0.1.0"), filepath.Join(root, "build/include/mpi.h"),
		filepath.Join(root, "build/bin/gompicc")}
}

// checkCompiler says ErrMissing when l's compiler wrapper is absent.
func checkCompiler(l Lib) error {
	if _, err := exec.LookPath(l.CC); err != nil {
		return fmt.Errorf("%w: %s not found (make build for gompi; apt-get install the %s packages, or make peers)",
			ErrMissing, l.CC, l.Name)
	}
	return nil
}

// OSU builds OSU 7.4 against l under build/osu/<lib>/osu (cached).
func OSU(root string, l Lib) (Result, error) {
	tgz, err := Tarball(root, "osu-micro-benchmarks-7.4.tar.gz")
	if err != nil {
		return Result{}, err
	}
	if err := checkCompiler(l); err != nil {
		return Result{}, err
	}
	dir := filepath.Join(root, "build/osu", l.Name, "osu")
	steps := [][]string{
		{"tar", "xzf", tgz, "--strip-components=1"},
		{"./configure", "CC=" + l.CC, "CXX=" + l.CXX},
		{"make", "-k", "-j2"},
	}
	return Cached(dir, fmt.Sprintf("%s\n%v", FileID(tgz), steps), LibInputs(root, l), steps, nil)
}

// IMB builds one IMB suite (IMB-MPI1, IMB-RMA, IMB-EXT, ...) against l
// under build/osu/<lib>/imb-<suite> (cached); the program is Dir/<suite>.
// Each suite has its own tree, so users of different suites never undo
// each other's cache.
func IMB(root string, l Lib, suite string) (Result, error) {
	tgz, err := Tarball(root, "mpi-benchmarks-*.tar.gz")
	if err != nil {
		return Result{}, err
	}
	if err := checkCompiler(l); err != nil {
		return Result{}, err
	}
	dir := filepath.Join(root, "build/osu", l.Name, "imb-"+suite)
	cxx := l.CXX
	if l.Name == "openmpi" {
		// Open MPI's C++ bindings header fails IMB's -Werror
		// (cast-function-type); IMB uses the C API only.
		cxx += " -DOMPI_SKIP_MPICXX=1"
	}
	steps := [][]string{
		{"tar", "xzf", tgz, "--strip-components=1"},
		{"make", suite, "CC=" + l.CC, "CXX=" + cxx},
	}
	return Cached(dir, fmt.Sprintf("%s\n%v", FileID(tgz), steps), LibInputs(root, l), steps, nil)
}

// OSUPrograms lists the benchmark programs built in an OSU tree, by name,
// with their paths.
func OSUPrograms(dir string) map[string]string {
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

// Tail keeps the last n bytes of b, which is where a failure usually shows.
func Tail(b []byte, n int) string {
	if len(b) > n {
		b = append([]byte("[...]\n"), b[len(b)-n:]...)
	}
	return string(b)
}
