package abitests

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var callRE = regexp.MustCompile(`\s(call|jmp)q?\s+([0-9a-f]+)\s+<([^>]+)>`)

// calls disassembles one exported function of lib (found by its dynamic
// symbol: the library has no static symbol table) and lists the functions
// it calls or jumps to, leaving out jumps inside itself.
func calls(t *testing.T, lib, fn string) []string {
	out, err := run("nm", "-D", "-S", "--defined-only", lib)
	require.NoError(t, err, out)
	var start, size uint64
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 4 && f[3] == fn {
			start, _ = strconv.ParseUint(f[0], 16, 64)
			size, _ = strconv.ParseUint(f[1], 16, 64)
		}
	}
	require.NotZero(t, size, "no symbol %s in %s", fn, lib)
	dis, err := exec.Command("objdump", "-d", "--no-show-raw-insn", fmt.Sprintf("--start-address=%#x", start),
		fmt.Sprintf("--stop-address=%#x", start+size), lib).CombinedOutput()
	require.NoError(t, err, "%s", dis)
	var targets []string
	for _, m := range callRE.FindAllStringSubmatch(string(dis), -1) {
		if a, _ := strconv.ParseUint(m[2], 16, 64); a >= start && a < start+size {
			continue
		}
		targets = append(targets, m[1]+" "+m[3])
	}
	return targets
}

// The Fortran MPI_SEND and MPI_RECV (mpif.h, use mpi) are one C-to-C call
// into the C entry: no call into Go or the allocator of their own (the
// performance item of the Fortran bindings: at most a few ns over C).
func TestFortranEntryIsOneCall(t *testing.T) {
	if _, err := exec.LookPath("objdump"); err != nil {
		t.Fatal("objdump is missing (binutils)")
	}
	lib := filepath.Join(builtTree(t), "lib", "libgompi.so.0.1.0")
	for fn, target := range map[string]string{"pmpi_send_": "PMPI_Send", "pmpi_recv_": "PMPI_Recv",
		"pmpi_isend_": "PMPI_Isend", "pmpi_wait_": "PMPI_Wait"} {
		got := calls(t, lib, fn)
		require.Len(t, got, 1, "%s calls %v", fn, got)
		assert.Regexp(t, `^(call|jmp) `+target+`(@plt)?$`, got[0], "%s", fn)
	}
	// The other spellings are the same code (aliases), not wrappers.
	syms := symbolAddresses(t, lib)
	for _, s := range []string{"mpi_send_", "mpi_send__", "mpi_send", "MPI_SEND", "pmpi_send__", "pmpi_send", "PMPI_SEND"} {
		assert.Equal(t, syms["pmpi_send_"], syms[s], "%s is not an alias of pmpi_send_", s)
	}
}

// symbolAddresses maps the dynamic symbols of lib to their addresses.
func symbolAddresses(t *testing.T, lib string) map[string]string {
	out, err := run("nm", "-D", "--defined-only", lib)
	require.NoError(t, err, out)
	addr := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 3 {
			addr[f[2]] = f[0]
		}
	}
	return addr
}
