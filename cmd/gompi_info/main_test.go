package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notLibrary are trees whose GOMPI_ names are not settings of the library:
// tools and the launcher (which sets variables for the ranks), tests and
// their helpers (internal), and
// generated layout macros.
var notLibrary = []string{"cmd", "launcher", "tests", "internal", "bench", "scripts", "examples", "build", "layout", "docs"}

// gompi_info lists every GOMPI_* setting the library's sources name.
func TestListsEverySetting(t *testing.T) {
	var out, errb bytes.Buffer
	require.Zero(t, run([]string{"--parsable"}, &out, &errb), errb.String())
	listed := map[string]bool{}
	for _, line := range strings.Split(out.String(), "\n") {
		if f := strings.SplitN(line, ":", 4); len(f) == 4 && f[0] == "setting" {
			listed[f[1]] = true
		}
	}
	lit := regexp.MustCompile(`"(GOMPI_[A-Z0-9_]+)"`)
	root := "../.."
	seen := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			for _, skip := range notLibrary {
				if rel == skip || strings.HasPrefix(d.Name(), ".") && rel != "." {
					return filepath.SkipDir
				}
			}
			return nil
		}
		ext := filepath.Ext(path)
		if strings.HasSuffix(path, "_test.go") || (ext != ".go" && ext != ".c" && ext != ".h") ||
			strings.HasSuffix(path, "layout_gen.h") || filepath.Base(path) == "layout.go" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range lit.FindAllStringSubmatch(string(b), -1) {
			name := m[1]
			if strings.HasSuffix(name, "_") { // a prefix of a family (GOMPI_COLL_<KIND>)
				continue
			}
			seen++
			assert.True(t, listed[name], "%s (named in %s) is not listed by gompi_info", name, rel)
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, seen, 20)
}

// Parsable output: section:name:field:value lines of known sections, every
// setting with default, value and description, nothing else.
func TestParsableWellFormed(t *testing.T) {
	for _, args := range [][]string{{"--parsable"}, {"--parsable", "--all"}} {
		var out, errb bytes.Buffer
		require.Zero(t, run(args, &out, &errb))
		text := out.String()
		require.True(t, strings.HasSuffix(text, "\n"))
		sections := map[string]bool{"package": true, "mpi": true, "build": true, "machine": true, "transport": true, "setting": true, "pvar": true}
		fields := map[string]map[string]bool{}
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			f := strings.SplitN(line, ":", 4)
			require.Len(t, f, 4, "line %q", line)
			require.True(t, sections[f[0]], "unknown section in %q", line)
			require.NotEmpty(t, f[1], line)
			require.NotEmpty(t, f[2], line)
			require.NotContains(t, f[1]+f[2], " ", line)
			if f[0] == "setting" {
				if fields[f[1]] == nil {
					fields[f[1]] = map[string]bool{}
				}
				fields[f[1]][f[2]] = true
			}
			if f[0] == "transport" && f[2] == "available" {
				require.Contains(t, []string{"yes", "no"}, f[3])
			}
		}
		require.Greater(t, len(fields), 20)
		for name, fs := range fields {
			for _, want := range []string{"default", "value", "desc"} {
				assert.True(t, fs[want], "%s has no %s", name, want)
			}
		}
		assert.Contains(t, text, "mpi:abi:name:MPICH\n")
		assert.Contains(t, text, "transport:single-copy:available:")
		if args[len(args)-1] == "--all" {
			assert.Contains(t, text, "pvar:wait_time:class:timer\n")
			assert.Contains(t, text, "setting:GOMPI_SM_SINGLE_COPY:values:auto,on,off\n")
		}
	}
}

// The current value is the environment's; the human form names the default.
func TestCurrentValue(t *testing.T) {
	t.Setenv("GOMPI_EAGER_LIMIT", "4k")
	var out, errb bytes.Buffer
	require.Zero(t, run([]string{"--parsable"}, &out, &errb))
	assert.Contains(t, out.String(), "setting:GOMPI_EAGER_LIMIT:value:4k\n")
	assert.Contains(t, out.String(), "setting:GOMPI_EAGER_LIMIT:default:65536\n")
	out.Reset()
	require.Zero(t, run(nil, &out, &errb))
	assert.Contains(t, out.String(), "GOMPI_EAGER_LIMIT=4k  (default 65536)")
	assert.Equal(t, 2, run([]string{"--bogus"}, &out, &errb))
}
