package ctests

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type profTraffic struct{ Msgs, Bytes uint64 }

type profRank struct {
	Rank                  int
	WallNs, MpiNs, WaitNs uint64 `json:"-"`
	Wall                  uint64 `json:"wall_ns"`
	Mpi                   uint64 `json:"mpi_ns"`
	Wait                  uint64 `json:"wait_ns"`
	Calls                 map[string]struct{ Count, Ns uint64 }
	SentByClass           []profTraffic `json:"sent_by_class"`
	SentTo                []profTraffic `json:"sent_to"`
	SentOutside           profTraffic   `json:"sent_outside_world"`
}

// TestProfile runs a program with a known pattern of calls under
// gompirun --profile=DIR and checks the totals in the table and the JSON;
// without --profile nothing is printed.
func TestProfile(t *testing.T) {
	root := ensureBuild(t)
	bin := gompicc(t, root, filepath.Join(root, "tests/c/profile/pattern.c"), "profile_pattern")
	const n = 3
	dir := filepath.Join(workDir, "profile")
	require.NoError(t, os.RemoveAll(dir))
	argv := []string{filepath.Join(root, "build/bin/gompirun"), "-n", fmt.Sprint(n), "--timeout", launcherTimeout(60 * time.Second),
		"--profile=" + dir, bin}
	j := job{argv: argv, timeout: goSideTimeout(60 * time.Second), binary: bin}
	start := time.Now()
	r := run(j)
	var problems []string
	if r.exitCode != 0 {
		problems = append(problems, fmt.Sprintf("exit %d", r.exitCode))
	}
	checkRun(t, j, r, start, problems)
	for _, want := range []string{"gompi profile: 3 ranks", "call (all ranks)", "point-to-point sends by size:",
		"0-64 B: 18 msgs, 672 B", "1-16 KiB: 9 msgs, 70.3 KiB", "16-256 KiB: 6 msgs, 585.9 KiB"} {
		assert.Contains(t, r.stderr, want)
	}
	assert.Regexp(t, `(?m)^MPI_Send\s+30\s`, r.stderr)
	assert.Regexp(t, `(?m)^MPI_Barrier\s+12\s`, r.stderr)
	assert.Equal(t, 1, strings.Count(r.stderr, "gompi profile:"), "only rank 0 prints")

	b, err := os.ReadFile(filepath.Join(dir, "profile.json"))
	require.NoError(t, err)
	// gompirun drew the picture after the job (gompiplot next to it).
	pic := filepath.Join(dir, "profile.png")
	assert.Contains(t, r.stderr, "gompirun: profile in "+filepath.Join(dir, "profile.json")+", picture "+pic)
	if st, err := os.Stat(pic); assert.NoError(t, err) {
		assert.Greater(t, st.Size(), int64(10000), "picture size")
	}
	var p struct {
		Ranks   int
		PerRank []profRank `json:"per_rank"`
	}
	require.NoError(t, json.Unmarshal(b, &p), "%s", b)
	require.Equal(t, n, p.Ranks)
	require.Len(t, p.PerRank, n)
	for i, pr := range p.PerRank {
		assert.Equal(t, i, pr.Rank)
		want := map[string]uint64{"MPI_Init": 1, "MPI_Send": 10, "MPI_Recv": 9, "MPI_Irecv": 2, "MPI_Isend": 2,
			"MPI_Waitall": 1, "MPI_Barrier": 4, "MPI_Comm_split": 1, "MPI_Comm_free": 1, "MPI_Type_contiguous": 1,
			"MPI_Type_commit": 1, "MPI_Type_free": 1, "MPI_Comm_rank": 301, "MPI_Comm_size": 1}
		for name, cnt := range want {
			assert.Equal(t, cnt, pr.Calls[name].Count, "rank %d %s", i, name)
		}
		assert.Len(t, pr.Calls, len(want), "rank %d calls %v", i, pr.Calls)
		assert.Equal(t, []profTraffic{{6, 5*40 + 24}, {0, 0}, {3, 24000}, {2, 200000}, {0, 0}, {0, 0}}, pr.SentByClass, "rank %d", i)
		to := make([]profTraffic, n)
		to[(i+1)%n] = profTraffic{8, 5*40 + 3*8000}
		to[(i+n-1)%n] = profTraffic{3, 200000 + 24}
		assert.Equal(t, to, pr.SentTo, "rank %d", i)
		assert.Zero(t, pr.SentOutside)
		var sum uint64
		for _, c := range pr.Calls {
			sum += c.Ns
		}
		assert.Equal(t, sum, pr.Mpi)
		assert.True(t, pr.Wait > 0 && pr.Wait <= pr.Mpi && pr.Mpi <= pr.Wall+pr.Wall/100, "rank %d: wait %d mpi %d wall %d", i, pr.Wait, pr.Mpi, pr.Wall)
	}

	// The control: the same program without --profile prints nothing.
	j.argv = []string{filepath.Join(root, "build/bin/gompirun"), "-n", "2", "--timeout", launcherTimeout(60 * time.Second), bin}
	start = time.Now()
	r = run(j)
	checkRun(t, j, r, start, nil)
	assert.Equal(t, 0, r.exitCode)
	assert.Empty(t, r.stderr)
}
