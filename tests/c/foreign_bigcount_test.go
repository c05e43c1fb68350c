package ctests

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestMPICHBinaryLargeCount runs an MPICH-built program that uses the
// large-count (_c) calls on gompi (gompirun --mpich-binary): MPI_Count and
// MPI_Aint cross the ABI as MPICH lays them out.
func TestMPICHBinaryLargeCount(t *testing.T) {
	root := ensureBuild(t)
	requireMPICH(t)
	bin := compile(t, "bigcount_c.mpich", filepath.Join(root, "tests/c/foreign/bigcount_c.c"),
		"mpicc.mpich", "-O2", "-Wall", "-Werror")
	gompirun := filepath.Join(root, "build/bin/gompirun")
	for _, np := range []int{1, 3} {
		argv := []string{gompirun, "--mpich-binary", "-n", strconv.Itoa(np), "--timeout", "60", bin}
		j := job{argv: argv, timeout: 60*time.Second + goSideGrace, binary: bin}
		start := time.Now()
		r := run(j)
		checkRun(t, j, r, start, checkExpect(&spec{exit: "0",
			stdoutPerRank: []string{`(?m)^rank {rank} large-count calls done$`},
		}, np, r))
	}
}
