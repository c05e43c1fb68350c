package multinode

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestTree runs the rig's programs and faults through a launch tree: fanout
// 1 is a chain (head -> n1 -> n2 -> n3), fanout 2 puts n3 under n1. The
// results must be those of the flat launch, nothing left behind.
func TestTree(t *testing.T) {
	for _, f := range []string{"1", "2"} {
		t.Run("fanout"+f, func(t *testing.T) {
			t.Setenv("GOMPI_LAUNCH_FANOUT", f)
			t.Run("PMI", TestPMIAcrossHosts)
			t.Run("MPI", TestMPIAcrossHosts)
			t.Run("Stdio", TestStdioAndExitCodes)
			t.Run("Signal", TestSignalForwarded)
			t.Run("KillRank", TestFaultKillRank)
			t.Run("KillLeafRank", testKillLeafRank)
			t.Run("KillHost", TestFaultKillHost)
			t.Run("LinkDown", TestFaultLinkDown)
		})
	}
	t.Run("fanout1/KillInteriorDaemon", func(t *testing.T) {
		t.Setenv("GOMPI_LAUNCH_FANOUT", "1")
		testKillInteriorDaemon(t)
	})
	t.Run("fanout1/InteriorLinkDown", func(t *testing.T) {
		t.Setenv("GOMPI_LAUNCH_FANOUT", "1")
		testInteriorLinkDown(t)
	})
}

// testInteriorLinkDown: in the chain, n2's link goes down: n1 hears nothing
// from n2 and reports it lost with n3 behind it; n2 and n3, cut off, end
// their ranks by themselves.
func testInteriorLinkDown(t *testing.T) {
	link := ""
	r, took, probe := runFault(t, func(map[int]int) {
		link = rigName + "h2"
		if out, err := runCmd("ip", "link", "set", link, "down"); err != nil {
			t.Errorf("ip link set down: %v %s", err, out)
		}
	})
	defer runCmd("ip", "link", "set", link, "up")
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Regexp(t, `gompirun: lost contact with host n2 \(rank 2, 3\) and through it with host n3 \(rank 4, 5\): no word from it for 2s \(host down or link lost\); terminating job`, r.stderr)
	assert.Less(t, took, endBound(2*time.Second))
	checkClean(t, r, probe)
}

// testKillLeafRank: a rank dying on the deepest host is reported through
// every level.
func testKillLeafRank(t *testing.T) {
	r, took, probe := runFault(t, func(pids map[int]int) {
		syscall.Kill(pids[5], syscall.SIGKILL)
	})
	assert.Equal(t, 137, r.code, "%s", r)
	assert.Regexp(t, `gompirun: rank 5 on n3 \(pid \d+\) killed by signal 9 \(SIGKILL: killed\); terminating job`, r.stderr)
	assert.Less(t, took, endBound(0))
	checkClean(t, r, probe)
}

// testKillInteriorDaemon: in the chain, n2's daemon alone is killed (its
// ranks die with it, unreported): n1 reports n2 lost, and with it n3 below.
func testKillInteriorDaemon(t *testing.T) {
	r, took, probe := runFault(t, func(map[int]int) {
		killed := 0
		for _, pid := range rigPids(2) {
			cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			if strings.Contains(string(cmd), "\x00--daemon\x00") {
				syscall.Kill(pid, syscall.SIGKILL)
				killed++
			}
		}
		assert.Equal(t, 1, killed, "n2's daemon")
	})
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Regexp(t, `gompirun: lost contact with host n2 \(rank 2, 3\) and through it with host n3 \(rank 4, 5\): its connection closed \(daemon or host gone\); terminating job`, r.stderr)
	assert.Less(t, took, endBound(0))
	checkClean(t, r, probe)
}

// TestTreeLocal: a chain of two daemons on this machine (no agent needed),
// MPI through it; and an agent failing below the head's child ends the job
// at once naming the host, its words passed on. Needs no rig.
func TestTreeLocal(t *testing.T) {
	root := ensureBuild(t)
	t.Setenv("GOMPI_LAUNCH_FANOUT", "1")
	hello := program(t, root, "tests/multinode/testdata/hello.c")
	r := gompirun(t, root, "", "", []string{"--host", "localhost:2,127.0.0.1:1", "--timeout", "60", hello}, nil, nil)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Empty(t, r.stderr)
	assert.Contains(t, r.stdout, "ring and allreduce done on 3 ranks")
	checkClean(t, r, hello)

	// The two hosts share this kernel: the head learns it from the hellos
	// relayed up and the ranks are bound apart, not both to the first CPU.
	if cpus := allowedCPUs(t); cpus >= 2 {
		r = gompirun(t, root, "", "", []string{"--host", "localhost:1,127.0.0.1:1", "--bind-to", "core", "--report-bindings", "true"}, nil, nil)
		require.Equal(t, 0, r.code, "%s", r)
		m0 := regexp.MustCompile(`host localhost: rank 0 \(pid \d+\) bound to CPU (\d+)`).FindStringSubmatch(r.stderr)
		m1 := regexp.MustCompile(`host 127.0.0.1: rank 1 \(pid \d+\) bound to CPU (\d+)`).FindStringSubmatch(r.stderr)
		require.NotNil(t, m0, "%s", r)
		require.NotNil(t, m1, "%s", r)
		assert.NotEqual(t, m0[1], m1[1], "%s", r)
	} else {
		t.Logf("binding apart not checked: %d CPU allowed", cpus)
	}

	agent := filepath.Join(t.TempDir(), "agent")
	require.NoError(t, os.WriteFile(agent, []byte("#!/bin/sh\necho no route to $2 >&2\nexit 255\n"), 0o755))
	r = gompirun(t, root, "", "", []string{"--host", "localhost,nowhere2", "--launch-agent", agent + " -x",
		"--timeout", "60", "true"}, nil, nil)
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stderr, "gompirun: host nowhere2: no route to nowhere2", "%s", r)
	assert.Regexp(t, `gompirun: host nowhere2: the launch agent for it on \S+ exited \(exit status 255\) before its daemon connected`, r.stderr)
	assert.Less(t, r.elapsed, 30*time.Second)
	checkClean(t, r, "")
}

// allowedCPUs counts the CPUs this process may run on.
func allowedCPUs(t *testing.T) int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	return set.Count()
}
