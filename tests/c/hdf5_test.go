package ctests

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

const hdf5Header = "/usr/include/hdf5/mpich/hdf5.h"

// requireHDF5 installs Debian's MPICH-built parallel HDF5 when missing (as
// requireMPICH installs MPICH).
func requireHDF5(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(hdf5Header); err == nil {
		return
	}
	aptInstall(t, "libhdf5-mpich-dev")
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
