package multinode

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/internal/testtime"
)

// mpiHostname: MPI programs keep each rig host's own name, so gompi sees
// three nodes: shared memory inside each, btl/ofi between them. ("" keeps
// the agent's per-host name; a fixed name would make them one node.)
func mpiHostname() string { return "" }

const hosts6 = "n1:2,n2:2,n3:2"

// TestPMIAcrossHosts: 6 ranks on 3 hosts with hostnames of their own publish
// their hostnames through PMI and all see every other's (no MPI messages).
func TestPMIAcrossHosts(t *testing.T) {
	root := ensureBuild(t)
	requireRig(t)
	probe := program(t, root, "tests/multinode/testdata/pmiprobe")
	cases := []struct {
		name  string
		args  []string
		hosts []string // host of each rank
	}{
		{"slot", []string{"--host", hosts6}, []string{"n1", "n1", "n2", "n2", "n3", "n3"}},
		{"node", []string{"--host", hosts6, "--map-by", "node"}, []string{"n1", "n2", "n3", "n1", "n2", "n3"}},
		{"np4", []string{"-H", "n1,n2:2,n3", "-n", "4"}, []string{"n1", "n2", "n2", "n3"}},
		{"hostfile", []string{"--hostfile", hostfile(t, "# rig\nn3 slots=1\nn1:2\n")}, []string{"n3", "n1", "n1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append(append(c.args, "--launch-agent", agent(root), "--timeout", "60"), probe)
			r := gompirun(t, root, "", "", args, nil, nil)
			require.Equal(t, 0, r.code, "%s", r)
			assert.Empty(t, r.stderr)
			want := strings.Join(c.hosts, " ")
			for rank, h := range c.hosts {
				local, size := 0, 0
				for i, o := range c.hosts {
					if o == h {
						size++
						if i < rank {
							local++
						}
					}
				}
				line := fmt.Sprintf("rank %d on %s local %d/%d sees %s\n", rank, h, local, size, want)
				assert.Contains(t, r.stdout, line, "%s", r)
			}
			checkClean(t, r, probe)
		})
	}
}

func hostfile(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "hosts")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

// TestMPIAcrossHosts runs hello, a ring and allreduce over 3 hosts x 2 ranks.
func TestMPIAcrossHosts(t *testing.T) {
	root := ensureBuild(t)
	requireRig(t)
	hello := program(t, root, "tests/multinode/testdata/hello.c")
	for _, mapBy := range []string{"slot", "node"} {
		t.Run(mapBy, func(t *testing.T) {
			r := gompirun(t, root, mpiHostname(), "", []string{"--host", hosts6, "--map-by", mapBy,
				"--launch-agent", agent(root), "--timeout", "60", hello}, nil, nil)
			require.Equal(t, 0, r.code, "%s", r)
			assert.Empty(t, r.stderr)
			assert.NotContains(t, r.stdout, "TEST-FAIL")
			assert.Contains(t, r.stdout, "ring and allreduce done on 6 ranks")
			for rank := 0; rank < 6; rank++ {
				assert.Regexp(t, fmt.Sprintf(`(?m)^hello rank %d of 6 on \S+$`, rank), r.stdout)
			}
			checkClean(t, r, hello)
		})
	}
}

// TestStdioAndExitCodes: stdin reaches rank 0 on its host, output of every
// host arrives tagged, a rank's exit code is the job's with a message naming
// the rank and its host.
func TestStdioAndExitCodes(t *testing.T) {
	root := ensureBuild(t)
	requireRig(t)
	r := gompirun(t, root, "", "line one\nline two\n", []string{"--host", "n2,n3", "--tag-output",
		"--launch-agent", agent(root), "--timeout", "60", "sh", "-c",
		`if [ "$PMI_RANK" = 0 ]; then sed "s/^/got /"; fi; echo "err of $PMI_RANK on $(hostname)" >&2`}, nil, nil)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "[1,0]<stdout>:got line one\n[1,0]<stdout>:got line two\n")
	assert.Contains(t, r.stderr, "[1,0]<stderr>:err of 0 on n2\n")
	assert.Contains(t, r.stderr, "[1,1]<stderr>:err of 1 on n3\n")

	probe := program(t, root, "tests/multinode/testdata/pmiprobe")
	r = gompirun(t, root, "", "", []string{"--host", "n1,n2,n3", "--launch-agent", agent(root), "--timeout", "60", probe, "exit", "5"}, nil, nil)
	assert.Equal(t, 5, r.code, "%s", r)
	assert.Regexp(t, `rank 1 on n2 \(pid \d+\) exited with code 5 before calling MPI_Finalize; terminating job`, r.stderr)
	checkClean(t, r, probe)
}

var sleepingRE = regexp.MustCompile(`rank (\d+) pid (\d+) sleeping`)

// runFault runs 6 sleeping ranks and applies fault once all six are up.
func runFault(t *testing.T, fault func(pids map[int]int)) (result, time.Duration, string) {
	return runFaultPid(t, func(pids map[int]int, _ int) { fault(pids) })
}

// runFaultPid is runFault whose fault also gets gompirun's pid.
func runFaultPid(t *testing.T, fault func(pids map[int]int, launcher int)) (result, time.Duration, string) {
	root := ensureBuild(t)
	requireRig(t)
	probe := program(t, root, "tests/multinode/testdata/pmiprobe")
	var at time.Time
	r := gompirun(t, root, "", "", []string{"--host", hosts6, "--launch-agent", agent(root), "--timeout", "120", probe, "sleep"},
		func(o *syncBuffer) bool { return len(sleepingRE.FindAllString(o.String(), -1)) == 6 },
		func(o *syncBuffer, launcher int) {
			pids := map[int]int{}
			for _, m := range sleepingRE.FindAllStringSubmatch(o.String(), -1) {
				rank, _ := strconv.Atoi(m[1])
				pids[rank], _ = strconv.Atoi(m[2])
			}
			at = time.Now()
			fault(pids, launcher)
		})
	return r, time.Since(at), probe
}

// endBound is how soon after a fault the job must end: about a second on an
// idle machine; generous here, for a machine shared with other builds.
func endBound(extra time.Duration) time.Duration { return testtime.D(5*time.Second + extra) }

// TestSignalForwarded: a signal to gompirun reaches the ranks on every host;
// here it kills them, which ends the job.
func TestSignalForwarded(t *testing.T) {
	r, took, probe := runFaultPid(t, func(_ map[int]int, launcher int) {
		syscall.Kill(launcher, syscall.SIGTERM)
	})
	assert.Equal(t, 143, r.code, "%s", r)
	assert.Regexp(t, `gompirun: rank \d on n\d \(pid \d+\) killed by signal 15 \(SIGTERM: terminated\); terminating job`, r.stderr)
	assert.Less(t, took, endBound(0))
	checkClean(t, r, probe)
}

func TestFaultKillRank(t *testing.T) {
	r, took, probe := runFault(t, func(pids map[int]int) {
		syscall.Kill(pids[3], syscall.SIGKILL)
	})
	assert.Equal(t, 137, r.code, "%s", r)
	assert.Regexp(t, `gompirun: rank 3 on n2 \(pid \d+\) killed by signal 9 \(SIGKILL: killed\); terminating job`, r.stderr)
	assert.Less(t, took, endBound(0))
	checkClean(t, r, probe)
}

func TestFaultKillHost(t *testing.T) {
	r, took, probe := runFault(t, func(map[int]int) {
		for _, pid := range rigPids(2) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	assert.NotEqual(t, 0, r.code, "%s", r)
	// Either the daemon's end is seen first, or (if a rank's death is
	// reported before) the rank's: both name the host and the rank.
	assert.Regexp(t, `gompirun: (lost contact with host n2 \(rank [23](, 3)?\)|rank [23] on n2 \(pid \d+\) killed by signal 9)`, r.stderr)
	assert.Less(t, took, endBound(0))
	checkClean(t, r, probe)
}

func TestFaultLinkDown(t *testing.T) {
	link := ""
	r, took, probe := runFault(t, func(map[int]int) {
		link = rigName + "h3"
		if out, err := runCmd("ip", "link", "set", link, "down"); err != nil {
			t.Errorf("ip link set down: %v %s", err, out)
		}
	})
	defer runCmd("ip", "link", "set", link, "up")
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Regexp(t, `gompirun: lost contact with host n3 \(rank 4, 5\): no word from it for 2s \(host down or link lost\); terminating job`, r.stderr)
	// Noticed after the heartbeat timeout (2 s).
	assert.Less(t, took, endBound(2*time.Second))
	checkClean(t, r, probe)
}

func runCmd(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}
