package pmi

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakePMIxJob is PMIx's data model in memory: data is per rank, visible to
// others after a fence every rank enters.
type fakePMIxJob struct {
	size    int
	mu      sync.Mutex
	data    []map[string]string // published, by rank
	pending []map[string]string
	fenced  int
	release chan struct{}
	gets    int
	aborted string
}

type fakePMIx struct {
	j    *fakePMIxJob
	rank int
}

func newFakePMIxJob(size int) *fakePMIxJob {
	j := &fakePMIxJob{size: size, release: make(chan struct{})}
	for range size {
		j.data = append(j.data, map[string]string{})
		j.pending = append(j.pending, map[string]string{})
	}
	return j
}

func (f *fakePMIx) Rank() int         { return f.rank }
func (f *fakePMIx) Size() int         { return f.j.size }
func (f *fakePMIx) Namespace() string { return "slurm.pmix.9.0" }
func (f *fakePMIx) UniverseSize() int { return 0 }
func (f *fakePMIx) AppNum() int       { return 0 }
func (f *fakePMIx) Finalize() error   { return nil }
func (f *fakePMIx) Abort(code int, msg string) error {
	f.j.mu.Lock()
	f.j.aborted = fmt.Sprintf("%d %s", code, msg)
	f.j.mu.Unlock()
	return nil
}

func (f *fakePMIx) Put(k, v string) error {
	f.j.mu.Lock()
	defer f.j.mu.Unlock()
	f.j.pending[f.rank][k] = v
	return nil
}

func (f *fakePMIx) Fence() error {
	j := f.j
	j.mu.Lock()
	ch := j.release
	j.fenced++
	if j.fenced == j.size {
		for r := range j.pending {
			for k, v := range j.pending[r] {
				j.data[r][k] = v
			}
			j.pending[r] = map[string]string{}
		}
		j.fenced = 0
		j.release = make(chan struct{})
		close(ch)
	}
	j.mu.Unlock()
	<-ch
	return nil
}

func (f *fakePMIx) Get(rank int, k string) (string, bool, error) {
	f.j.mu.Lock()
	defer f.j.mu.Unlock()
	f.j.gets++
	if rank < 0 || rank >= f.j.size {
		return "", false, fmt.Errorf("bad rank %d", rank)
	}
	v, ok := f.j.data[rank][k]
	return v, ok, nil
}

func startPMIxJob(t *testing.T, n int) (*fakePMIxJob, []*Client) {
	j := newFakePMIxJob(n)
	old := openPMIx
	t.Cleanup(func() { openPMIx = old })
	cs := make([]*Client, n)
	for r := range n {
		RegisterPMIx(func() (PMIx, error) { return &fakePMIx{j: j, rank: r}, nil })
		c, err := newPMIxClient()
		require.NoError(t, err)
		cs[r] = c
	}
	return j, cs
}

func TestPMIxFlatKVS(t *testing.T) {
	j, cs := startPMIxJob(t, 4)
	assert.Equal(t, "pmix", cs[0].Protocol())
	assert.False(t, cs[0].Singleton())
	assert.Equal(t, "pmix_slurm_pmix_9_0", cs[0].KVSName())
	assert.Equal(t, 4, cs[3].UniverseSize(), "unknown universe: the job size")
	eachClient(cs, func(r int, c *Client) {
		assert.Equal(t, r, c.Rank())
		assert.NoError(t, c.Put(fmt.Sprintf("card.%d", r), fmt.Sprint("v", r)))
		if r == 2 {
			assert.NoError(t, c.Put("gompi_sm_0", "seg-old"))
		}
		_, err := c.Get("card.0")
		assert.ErrorIs(t, err, ErrNotFound, "nothing is visible before the barrier")
		assert.NoError(t, c.Barrier())
		for p := range 4 {
			v, err := c.Get(fmt.Sprintf("card.%d", p))
			assert.NoError(t, err)
			assert.Equal(t, fmt.Sprint("v", p), v)
		}
		// A later put of the same key by another rank replaces it.
		if r == 1 {
			assert.NoError(t, c.Put("gompi_sm_0", "seg-new"))
		}
		assert.NoError(t, c.Barrier())
		v, err := c.Get("gompi_sm_0")
		assert.NoError(t, err)
		assert.Equal(t, "seg-new", v)
		_, err = c.Get("nobody-put-this")
		assert.ErrorIs(t, err, ErrNotFound)
	})
	// Manifests are read once per barrier, not per get.
	j.mu.Lock()
	assert.LessOrEqual(t, j.gets, 4*(2*4+4+1+1))
	j.mu.Unlock()
	_, err := cs[0].Spawn(&SpawnRequest{Apps: []SpawnApp{{Command: "x", NP: 1}}})
	assert.ErrorContains(t, err, "cannot spawn")
	require.NoError(t, cs[0].Abort(5, "bye"))
	assert.Equal(t, "5 bye", j.aborted)
	for _, c := range cs {
		require.NoError(t, c.Finalize())
	}
}

func TestUsePMIx(t *testing.T) {
	set := func(env map[string]string) {
		for _, k := range []string{"PMIX_NAMESPACE", "PMI_FD", "PMI_PORT", "GOMPI_PMI"} {
			if v, ok := env[k]; ok {
				t.Setenv(k, v)
			} else {
				t.Setenv(k, "")
				os.Unsetenv(k)
			}
		}
	}
	set(map[string]string{"PMIX_NAMESPACE": "ns"})
	assert.True(t, UsePMIx())
	set(map[string]string{"PMIX_NAMESPACE": "ns", "PMI_FD": "3"})
	assert.False(t, UsePMIx(), "a PMI server beside a leaked PMIx variable")
	set(map[string]string{"PMIX_NAMESPACE": "ns", "GOMPI_PMI": "2"})
	assert.False(t, UsePMIx())
	set(map[string]string{"GOMPI_PMI": "pmix"})
	assert.True(t, UsePMIx())
	set(nil)
	assert.False(t, UsePMIx())
	// Without the pmix package linked in, asking for PMIx is an error.
	old := openPMIx
	openPMIx = nil
	defer func() { openPMIx = old }()
	set(map[string]string{"PMIX_NAMESPACE": "ns"})
	_, err := NewFromEnv()
	assert.ErrorContains(t, err, "no PMIx support")
}
