package abitests

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// missingChapters are the parts of the standard whose functions mpi.h may
// still declare without libgompi.so defining them, each being added by its
// own piece of work. Remove a chapter when it lands: the test fails when a
// chapter has declarations and nothing of it is missing any more.
var missingChapters = map[string]*regexp.Regexp{}

// protoName matches the start of a function prototype in mpi.h: a return
// type, then the name and its opening parenthesis. Typedefs of callback
// types (MPI_User_function ...) and macros (MPI_Comm_c2f ...) do not match.
var protoName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_ ]*[ *](P?MPI_[A-Za-z0-9_]+)\(`)

// declaredFunctions lists every function mpi.h declares, MPI_ and PMPI_.
func declaredFunctions(t *testing.T, header string) []string {
	f, err := os.Open(header)
	require.NoError(t, err)
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "typedef") || strings.HasPrefix(line, "#") {
			continue
		}
		if m := protoName.FindStringSubmatch(line); m != nil {
			seen[m[1]] = true
		}
	}
	require.NoError(t, sc.Err())
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// exportedFunctions lists the dynamic symbols libgompi.so defines.
func exportedFunctions(t *testing.T, lib string) map[string]bool {
	out, err := exec.Command("nm", "-D", "--defined-only", lib).Output()
	require.NoError(t, err, "nm -D %s", lib)
	syms := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) == 3 {
			syms[f[2]] = true
		}
	}
	return syms
}

// Every function the header declares must be defined by the library, or
// belong to a chapter still being added: a gap must never show up only at a
// user's link step.
func TestDeclaredFunctionsAreExported(t *testing.T) {
	root, err := filepath.Abs(filepath.Join(ourInclude(t), ".."))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "make", "-C", root, "build").CombinedOutput()
	require.NoError(t, err, "make build: %s", out)

	decl := declaredFunctions(t, filepath.Join(root, "include", "mpi.h"))
	require.Greater(t, len(decl), 800, "the prototype pattern no longer matches mpi.h")
	syms := exportedFunctions(t, filepath.Join(root, "build", "lib", "libgompi.so"))

	declared := map[string]int{}
	missing := map[string][]string{}
	var unexplained []string
	for _, name := range decl {
		chapter := ""
		for c, re := range missingChapters {
			if re.MatchString(name) {
				chapter = c
				declared[c]++
			}
		}
		if syms[name] {
			continue
		}
		if chapter == "" {
			unexplained = append(unexplained, name)
		} else {
			missing[chapter] = append(missing[chapter], name)
		}
	}
	if len(unexplained) > 0 {
		t.Errorf("mpi.h declares %d functions libgompi.so does not define: %s", len(unexplained), strings.Join(unexplained, " "))
	}
	for c := range missingChapters {
		switch {
		case declared[c] > 0 && len(missing[c]) == 0:
			t.Errorf("chapter %q is complete: remove it from missingChapters", c)
		case len(missing[c]) > 0:
			t.Logf("still missing (%s): %d functions", c, len(missing[c]))
		}
	}
}
