package gotests

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxNP: every program runs with 1..maxNP processes (more than this
// machine's CPUs is fine: the ranks then share them).
const maxNP = 4

// cases are the programs and settings run for every process count.
var cases = []struct {
	prog string
	env  []string // gompirun -x
	args []string
}{
	{prog: "ring"},
	{prog: "pingpong"},
	{prog: "pingpong", env: []string{"GOMPI_SM_SINGLE_COPY=off"}},
	{prog: "pingpong", env: []string{"GOMPI_SM_SINGLE_COPY=on"}},
	{prog: "alltoall"},
	{prog: "anysource"},
	{prog: "errrank"},
	{prog: "comms"},
	{prog: "dtypes"},
	{prog: "coll"},
	{prog: "win"},
}

// TestPrograms: exit status 0, no complaint on stderr, and every rank's
// "<prog> ok rank=R size=N" line.
func TestPrograms(t *testing.T) {
	for _, c := range cases {
		name := c.prog
		if len(c.env) > 0 {
			name += "/" + strings.Join(c.env, ",")
		}
		for np := 1; np <= maxNP; np++ {
			t.Run(fmt.Sprintf("%s/np=%d", name, np), func(t *testing.T) {
				r := run(t, np, c.env, program(t, c.prog), c.args...)
				require.Equal(t, 0, r.code, "exit status; stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
				assert.NotContains(t, r.stderr, "TEST-FAIL")
				assert.Empty(t, r.stderr)
				for rank := 0; rank < np; rank++ {
					assert.Contains(t, r.stdout, fmt.Sprintf("%s ok rank=%d size=%d\n", c.prog, rank, np))
				}
			})
		}
	}
}

// TestSingleCopySetting: GOMPI_SM_SINGLE_COPY reaches the library. Off, every
// rendezvous message travels in fragments; on, the ones between two
// processes are read in one copy.
func TestSingleCopySetting(t *testing.T) {
	re := regexp.MustCompile(`received rank=\d+ get=(\d+) pipe=(\d+)`)
	for _, mode := range []string{"off", "on"} {
		r := run(t, 3, []string{"GOMPI_SM_SINGLE_COPY=" + mode}, program(t, "pingpong"))
		require.Equal(t, 0, r.code, r.stderr)
		lines := re.FindAllStringSubmatch(r.stdout, -1)
		require.Len(t, lines, 3, r.stdout)
		get, pipe := 0, 0
		for _, l := range lines {
			g, _ := strconv.Atoi(l[1])
			p, _ := strconv.Atoi(l[2])
			get, pipe = get+g, pipe+p
		}
		if mode == "off" {
			assert.Zero(t, get, r.stdout)
			assert.Positive(t, pipe, r.stdout)
		} else {
			assert.Positive(t, get, r.stdout)
		}
	}
}

// TestErrRankMessage: the error a send to rank size returns names the call,
// the rank and the class.
func TestErrRankMessage(t *testing.T) {
	r := run(t, 3, nil, program(t, "errrank"))
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, 3, strings.Count(r.stdout,
		"errrank: MPI_Send: destination rank 3 is not in [0, 3) (MPI_ERR_RANK: invalid rank)\n"), r.stdout)
}

// TestErrRankFatal: under the default MPI_ERRORS_ARE_FATAL the same send
// ends the whole job with an error status and a message.
func TestErrRankFatal(t *testing.T) {
	for np := 1; np <= maxNP; np++ {
		t.Run(fmt.Sprintf("np=%d", np), func(t *testing.T) {
			r := run(t, np, nil, program(t, "errrank"), "fatal")
			assert.NotEqual(t, 0, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			assert.NotContains(t, r.stderr, "TEST-FAIL")
			assert.NotContains(t, r.stdout, "errrank ok")
			assert.Contains(t, r.stderr, fmt.Sprintf("MPI_Send: destination rank %d is not in [0, %d) (MPI_ERR_RANK", np, np))
			assert.Contains(t, r.stderr, "gompirun: rank ")
		})
	}
}
