package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFresh: the committed capi/layout_gen.h is what the Go definitions
// give now (run `make` or `go run ./cmd/genlayout` after changing them).
func TestFresh(t *testing.T) {
	have, err := os.ReadFile("../../capi/layout_gen.h")
	require.NoError(t, err)
	require.True(t, bytes.Equal(have, Header()),
		"capi/layout_gen.h is stale: run go run ./cmd/genlayout -o capi/layout_gen.h")
}

// TestCAgrees compiles the header with the C compiler the library is built
// with and compares every constant, struct size and member offset the
// compiler sees with Go's (reflect, that is unsafe.Sizeof/Offsetof).
func TestCAgrees(t *testing.T) {
	dir := t.TempDir()
	header := filepath.Join(dir, "layout_gen.h")
	require.NoError(t, os.WriteFile(header, Header(), 0o644))
	var prog, want strings.Builder
	prog.WriteString("#include <stdio.h>\n#include \"layout_gen.h\"\nint main(void) {\n")
	for _, s := range sources {
		consts, structs := s.layout()
		for _, c := range consts {
			fmt.Fprintf(&prog, "    printf(\"%s %%lld\\n\", (long long)(%s));\n", c.Name, c.Name)
			v := c.Value
			if v < 0 || v > 0xffff {
				v = int64(uint32(v)) // written in hex: an unsigned literal in C
			}
			fmt.Fprintf(&want, "%s %d\n", c.Name, v)
		}
		for _, st := range structs {
			fmt.Fprintf(&prog, "    printf(\"sizeof %s %%zu\\n\", sizeof(%s));\n", st.Name, st.Name)
			fmt.Fprintf(&want, "sizeof %s %d\n", st.Name, st.Size)
			for _, f := range st.Fields {
				fmt.Fprintf(&prog, "    printf(\"offsetof %s.%s %%zu %%zu\\n\", offsetof(%s, %s), sizeof(((%s *)0)->%s));\n",
					st.Name, f.Name, st.Name, f.Name, st.Name, f.Name)
				fmt.Fprintf(&want, "offsetof %s.%s %d %d\n", st.Name, f.Name, f.Offset, f.Size)
			}
		}
	}
	prog.WriteString("    return 0;\n}\n")
	src := filepath.Join(dir, "probe.c")
	require.NoError(t, os.WriteFile(src, []byte(prog.String()), 0o644))
	bin := filepath.Join(dir, "probe")
	out, err := exec.Command("gcc", "-std=c11", "-Wall", "-Werror", "-O2", "-I", dir, src, "-o", bin).CombinedOutput()
	require.NoError(t, err, "the C compiler rejects the header (a _Static_assert means C lays a struct out differently from Go):\n%s", out)
	got, err := exec.Command(bin).Output()
	require.NoError(t, err)
	require.Equal(t, want.String(), string(got))
}
