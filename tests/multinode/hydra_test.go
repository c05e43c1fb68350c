package multinode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/internal/testtime"
)

// hydra runs MPICH's mpiexec across the rig: its proxies start through the
// rig's agent (Hydra calls it as ssh: AGENT -x HOST CMD) and reach mpiexec
// on the rig's bridge (-iface).
func hydra(t *testing.T, root, hostname string, args ...string) result {
	t.Helper()
	exe := ""
	for _, name := range []string{"mpiexec.hydra", "mpiexec.mpich"} {
		if p, err := exec.LookPath(name); err == nil {
			exe = p
			break
		}
	}
	if exe == "" {
		msg := "no mpiexec.hydra (Debian package mpich)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testtime.D(90*time.Second))
	defer cancel()
	argv := append([]string{"-hosts", "n1,n2,n3", "-iface", rigName + "br", "-launcher", "ssh",
		"-launcher-exec", filepath.Join(root, "scripts/netns-agent.sh")}, args...)
	cmd := exec.CommandContext(ctx, exe, argv...)
	cmd.Env = append(os.Environ(), "GOMPI_RIG_PREFIX="+rigName, "GOMPI_RIG_HOSTNAME="+hostname)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start), pid: -1}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("%s: %v\n%s", exe, err, r)
	}
	if ctx.Err() != nil {
		t.Fatalf("mpiexec did not end within the Go-side timeout\n%s", r)
	}
	return r
}

// TestHydraAcrossHosts: gompi programs under Hydra across the rig's hosts,
// the PMI exchange with hosts named apart, MPI with 2 ranks per host.
func TestHydraAcrossHosts(t *testing.T) {
	root := ensureBuild(t)
	requireRig(t)
	probe := program(t, root, "tests/multinode/testdata/pmiprobe")
	hello := program(t, root, "tests/multinode/testdata/hello.c")

	r := hydra(t, root, "", "-n", "6", "-ppn", "2", probe)
	require.Equal(t, 0, r.code, "%s", r)
	for rank := 0; rank < 6; rank++ {
		assert.Contains(t, r.stdout, fmt.Sprintf("rank %d on n%d local / sees n1 n1 n2 n2 n3 n3\n", rank, rank/2+1), "%s", r)
	}
	checkClean(t, r, probe)

	r = hydra(t, root, mpiHostname(), "-n", "6", "-ppn", "2", hello)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "ring and allreduce done on 6 ranks")
	assert.NotContains(t, r.stdout, "TEST-FAIL")
	assert.Equal(t, 6, strings.Count(r.stdout, "hello rank "))
	checkClean(t, r, hello)
}
