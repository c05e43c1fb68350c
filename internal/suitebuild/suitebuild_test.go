package suitebuild

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Cached runs the steps once per recipe, caches failures too, and runs
// them again when the recipe or an input changes.
func TestCached(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "b")
	in := filepath.Join(t.TempDir(), "input")
	os.WriteFile(in, []byte("x"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(in, old, old)
	count := func() int {
		b, _ := os.ReadFile(filepath.Join(dir, "runs"))
		return strings.Count(string(b), "x")
	}
	// The tree is emptied before a build: the step counts into a file
	// outside it.
	counter := filepath.Join(t.TempDir(), "count")
	steps := [][]string{{"sh", "-c", "echo x >> " + counter + "; cp " + counter + " runs; echo $GREETING"}}
	r, err := Cached(dir, "a", []string{in}, steps, []string{"GREETING=hello"})
	if err != nil || !r.OK || count() != 1 || !strings.Contains(r.Log, "hello") {
		t.Fatalf("first build: %+v %v, %d runs", r, err, count())
	}
	if r, err = Cached(dir, "a", []string{in}, steps, nil); err != nil || !r.OK || count() != 1 {
		t.Fatalf("cached: %+v %v, %d runs", r, err, count())
	}
	os.Chtimes(in, time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	if r, err = Cached(dir, "a", []string{in}, steps, nil); err != nil || !r.OK || count() != 2 {
		t.Fatalf("input changed: %+v %v, %d runs", r, err, count())
	}
	fail := [][]string{{"false"}, {"sh", "-c", "echo never"}}
	if r, err = Cached(dir, "b", nil, fail, nil); err != nil || r.OK || strings.Contains(r.Log, "never") {
		t.Fatalf("failing build: %+v %v", r, err)
	}
	if r, err = Cached(dir, "b", nil, fail, nil); err != nil || r.OK || !strings.Contains(r.Log, "$ false") {
		t.Fatalf("cached failure: %+v %v", r, err)
	}
}

func TestMissing(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	if _, err := Tarball(root, "osu-*.tar.gz"); !errors.Is(err, ErrMissing) {
		t.Errorf("no tarball: %v", err)
	}
	if _, err := LibByName(root, "lam"); err == nil {
		t.Error("unknown library accepted")
	}
	l, _ := LibByName(root, "gompi")
	l.CC = filepath.Join(root, "no-such-cc")
	if err := checkCompiler(l); !errors.Is(err, ErrMissing) {
		t.Errorf("no compiler: %v", err)
	}
}
