package ctests

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// aptInstall installs Debian packages a test needs (MPICH, parallel HDF5,
// ScaLAPACK's testers); failing to get them fails the test, never skips.
func aptInstall(t *testing.T, pkgs ...string) {
	t.Helper()
	install := func() ([]byte, error) {
		cmd := exec.Command("apt-get", append([]string{"install", "-y", "-qq"}, pkgs...)...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		return cmd.CombinedOutput()
	}
	out, err := install()
	if err != nil {
		// A stale package index is the usual cause; refresh once.
		if upd, uerr := exec.Command("apt-get", "update", "-qq").CombinedOutput(); uerr != nil {
			t.Fatalf("apt-get update: %v\n%s", uerr, upd)
		}
		out, err = install()
	}
	require.NoError(t, err, "apt-get install %s:\n%s", strings.Join(pkgs, " "), out)
}
