package ctests

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const hdf5Header = "/usr/include/hdf5/mpich/hdf5.h"

// requireHDF5 installs Debian's MPICH-built parallel HDF5 when missing (as
// requireMPICH installs MPICH).
func requireHDF5(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(hdf5Header); err == nil {
		return
	}
	install := func() ([]byte, error) {
		cmd := exec.Command("apt-get", "install", "-y", "-qq", "libhdf5-mpich-dev")
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		return cmd.CombinedOutput()
	}
	out, err := install()
	if err != nil {
		if upd, uerr := exec.Command("apt-get", "update", "-qq").CombinedOutput(); uerr != nil {
			t.Fatalf("apt-get update: %v\n%s", uerr, upd)
		}
		out, err = install()
	}
	require.NoError(t, err, "apt-get install libhdf5-mpich-dev:\n%s", out)
}

// TestParallelHDF5 runs Debian's MPICH-built parallel HDF5 on gompi: 4 ranks
// write a contiguous and a chunked dataset collectively and independently
// through MPI-IO and read them back (tests/hdf5/phdf5.c checks the data).
func TestParallelHDF5(t *testing.T) {
	root := ensureBuild(t)
	requireMPICH(t)
	requireHDF5(t)
	bin := compile(t, "phdf5.mpich", filepath.Join(root, "tests/hdf5/phdf5.c"), "mpicc.mpich", "-O2",
		"-I/usr/include/hdf5/mpich", "-L/usr/lib/x86_64-linux-gnu/hdf5/mpich", "-lhdf5")
	file := filepath.Join(t.TempDir(), "phdf5.h5")
	argv := []string{filepath.Join(root, "build/bin/gompirun"), "--mpich-binary", "-n", "4",
		"--timeout", launcherTimeout(120 * time.Second), bin, file}
	j := job{argv: argv, timeout: goSideTimeout(120 * time.Second), binary: bin}
	start := time.Now()
	r := run(j)
	checkRun(t, j, r, start, checkExpect(&spec{exit: "0", stdoutMatch: []string{`(?m)^phdf5 ok$`}}, 4, r))
}
