package ctests

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// requireMountNamespace skips, saying why, unless this process may make a
// mount namespace (root and unshare); under CI=true a missing prerequisite
// fails instead.
func requireMountNamespace(t *testing.T) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("unshare"); err != nil {
		why = "unshare(1) not found"
	} else if os.Geteuid() != 0 {
		why = "not root: cannot mount a tmpfs in a mount namespace"
	} else if out, err := exec.Command("unshare", "-m", "true").CombinedOutput(); err != nil {
		why = "unshare -m fails: " + string(out)
	}
	if why == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("prerequisite missing under CI=true: %s", why)
	}
	t.Skipf("skipped: %s", why)
}

// inSmallShm runs gompirun with args in a mount namespace whose /dev/shm is
// a tmpfs of sizeMiB, as Docker gives containers (64 MiB by default).
func inSmallShm(root string, sizeMiB int, args ...string) job {
	script := `mount -t tmpfs -o size=` + strconv.Itoa(sizeMiB) + `m tmpfs /dev/shm && exec "$@"`
	argv := append([]string{"unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh",
		filepath.Join(root, "build/bin/gompirun")}, args...)
	return job{argv: argv, timeout: goSideTimeout(180 * time.Second)}
}

// TestSmallDevShm: 8 ranks run the full collective test where /dev/shm is a
// 64 MiB tmpfs: by default the segment is a memfd, which the mount does not
// bound; with GOMPI_SM_DIR=/dev/shm it lives there and shrinks its rings to
// fit; where even the smallest layout cannot fit, MPI_Init fails naming the
// size needed and the fix.
func TestSmallDevShm(t *testing.T) {
	root := ensureBuild(t)
	requireMountNamespace(t)
	bin := gompicc(t, root, filepath.Join(root, "tests/c/coll_default.c"), "coll_default")
	base := []string{"-n", "8", "--timeout", launcherTimeout(180 * time.Second), "-x", "GOMPI_TEST_NP=8"}
	for _, c := range []struct {
		name string
		mib  int
		env  []string
		want *spec
	}{
		{"memfd", 64, nil, &spec{exit: "0"}},
		{"dir", 64, []string{"-x", "GOMPI_SM_DIR=/dev/shm"}, &spec{exit: "0"}},
		{"too small", 4, []string{"-x", "GOMPI_SM_DIR=/dev/shm"}, &spec{exit: "nonzero",
			stderrMatch: []string{`8 processes on this node need [0-9.]+ MiB in /dev/shm`, `--shm-size=`, `unset GOMPI_SM_DIR`}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append(append([]string{}, base...), c.env...), bin)
			j := inSmallShm(root, c.mib, args...)
			j.binary = bin
			start := time.Now()
			r := run(j)
			checkRun(t, j, r, start, checkExpect(c.want, 8, r))
		})
	}
}
