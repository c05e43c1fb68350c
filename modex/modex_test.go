package modex

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"gompi/internal/testtime"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// job is a set of goroutine ranks sharing one memStore.
type job struct {
	store *memStore
	reg   *Registry
	m     []*Modex
	kProc Key // per-process value
	kNode Key // node-level value
	kNone Key // registered, never set
}

// newJob makes size ranks; nodeOf gives each rank's fake node id.
func newJob(t *testing.T, size int, nodeOf func(r int) uint64, opts ...Option) *job {
	j := &job{store: newMemStore(size), reg: NewRegistry()}
	j.kProc = j.reg.MustRegister("btl.sm.1")
	j.kNode = j.reg.MustRegister("node.hostname")
	j.kNone = j.reg.MustRegister("btl.tcp.1")
	for r := range size {
		o := append([]Option{WithNodeID(nodeOf(r))}, opts...)
		j.m = append(j.m, New(j.store.client(r), j.reg, o...))
	}
	return j
}

// each runs f on every rank in its own goroutine and fails the test if a
// rank errs or the job does not finish in time (a barrier out of step).
func (j *job) each(t *testing.T, f func(r int, m *Modex) error) []error {
	t.Helper()
	errs := make([]error, len(j.m))
	var wg sync.WaitGroup
	for r, m := range j.m {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[r] = f(r, m)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(testtime.D(60 * time.Second)):
		t.Fatal("ranks did not finish: a barrier is out of step")
	}
	return errs
}

func (j *job) exchange(t *testing.T) {
	t.Helper()
	for r, err := range j.each(t, func(_ int, m *Modex) error { return m.Exchange() }) {
		require.NoError(t, err, "rank %d", r)
	}
}

func procValue(r int) []byte     { return []byte(fmt.Sprintf("proc-%d", r)) }
func nodeValue(id uint64) []byte { return []byte(fmt.Sprintf("host-%x", id)) }

type layout struct {
	name   string
	nodeOf func(r int) uint64
}

var layouts = []layout{
	{"one node", func(int) uint64 { return 0xabc }},
	{"block of 4", func(r int) uint64 { return 100 + uint64(r/4) }},
	{"round robin 3", func(r int) uint64 { return 7 * uint64(r%3+1) }},
	{"one per node", func(r int) uint64 { return uint64(r) << 40 }},
}

// expected computes the node numbering from the ids directly.
func expected(size int, nodeOf func(int) uint64) (of []int, ranks [][]int) {
	index := map[uint64]int{}
	for r := range size {
		n, ok := index[nodeOf(r)]
		if !ok {
			n = len(ranks)
			index[nodeOf(r)] = n
			ranks = append(ranks, nil)
		}
		of = append(of, n)
		ranks[n] = append(ranks[n], r)
	}
	return of, ranks
}

func TestExchange(t *testing.T) {
	for _, fetchAll := range []bool{true, false} {
		for _, lay := range layouts {
			for _, size := range []int{1, 2, 3, 5, 8, 13, 32, 64} {
				name := fmt.Sprintf("fetchall=%v/%s/%d", fetchAll, lay.name, size)
				t.Run(name, func(t *testing.T) {
					testExchange(t, size, lay.nodeOf, fetchAll)
				})
			}
		}
	}
}

func testExchange(t *testing.T, size int, nodeOf func(int) uint64, fetchAll bool) {
	limit := 0
	if fetchAll {
		limit = 64
	}
	j := newJob(t, size, nodeOf, WithFetchAllMax(limit))
	wantOf, wantRanks := expected(size, nodeOf)
	for r, m := range j.m {
		require.NoError(t, m.SetLocal(j.kProc, procValue(r)))
		v := nodeValue(nodeOf(r))
		if wantRanks[wantOf[r]][0] != r {
			v = []byte("not the leader: dropped")
		}
		require.NoError(t, m.SetNode(j.kNode, v))
	}
	j.exchange(t)

	errs := j.each(t, func(r int, m *Modex) error {
		for p := range size {
			v, ok, err := m.Get(p, j.kProc)
			if err != nil || !ok || !bytes.Equal(v, procValue(p)) {
				return fmt.Errorf("Get(%d): %q %v %v", p, v, ok, err)
			}
			if _, ok, err := m.Get(p, j.kNone); ok || err != nil {
				return fmt.Errorf("Get(%d) of an unset key: %v %v", p, ok, err)
			}
			v, ok, err = m.GetNode(p, j.kNode)
			if err != nil || !ok || !bytes.Equal(v, nodeValue(nodeOf(p))) {
				return fmt.Errorf("GetNode(%d): %q %v %v", p, v, ok, err)
			}
			if m.NodeOf(p) != wantOf[p] {
				return fmt.Errorf("NodeOf(%d) = %d, want %d", p, m.NodeOf(p), wantOf[p])
			}
		}
		return nil
	})
	for r, err := range errs {
		require.NoError(t, err, "rank %d", r)
	}

	for r, m := range j.m {
		mine := wantRanks[wantOf[r]]
		assert.Equal(t, mine, m.LocalRanks(), "rank %d", r)
		assert.Equal(t, len(wantRanks), m.Nodes())
		assert.Equal(t, mine[0] == r, m.IsLeader())
		assert.Equal(t, mine[0], m.Leader(wantOf[r]))
		assert.Equal(t, indexOf(mine, r), m.LocalRank())
		assert.Equal(t, nodeOf(r), m.NodeID())

		s := m.Stats()
		assert.Equal(t, j.store.roundTrips(r), s.RoundTrips(), "rank %d counts its own round trips", r)
		assert.Equal(t, 1, s.CardChunks)
		if m.IsLeader() {
			assert.Positive(t, s.NodeCardBytes)
		} else {
			assert.Zero(t, s.NodeCardBytes)
		}
	}
	checkExchangeCost(t, j, fetchAll)
	checkPublished(t, j.store.values(), size, len(wantRanks))
}

func indexOf(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// IsLeader2 is IsLeader as 0 or 1.
func (m *Modex) IsLeader2() int {
	if m.IsLeader() {
		return 1
	}
	return 0
}

// checkExchangeCost checks the round trips the package comment promises.
// Lookups already ran, so node-map ranks also paid for their lazy fetches:
// one get per peer card and one per node card not published by itself.
func checkExchangeCost(t *testing.T, j *job, fetchAll bool) {
	size := len(j.m)
	for r, m := range j.m {
		s := m.Stats()
		nodes := m.Nodes()
		otherNodes := nodes - m.IsLeader2() // a leader has its own node card
		mapPuts := 0
		if fetchAll || size == 1 {
			assert.Equal(t, "fetch-all", s.Mode)
			assert.Equal(t, 2, s.Barriers, "card barrier + node card barrier")
			assert.Equal(t, size-1+otherNodes, s.Gets, "rank %d", r)
		} else {
			assert.Equal(t, "node-map", s.Mode)
			assert.Equal(t, 3, s.Barriers)
			mapGets := countPrefix(j.store.values(), "nodemap.")
			if r == 0 {
				mapGets = 0
			}
			assert.Equal(t, mapGets+size-1+otherNodes, s.Gets, "rank %d", r)
			if r == 0 {
				mapPuts = countPrefix(j.store.values(), "nodemap.")
			}
		}
		assert.Equal(t, size-1, s.CardsFetched)
		assert.Equal(t, 1+m.IsLeader2()+mapPuts, s.Puts, "rank %d: card, node card on leaders, map on rank 0", r)
	}
}

// checkPublished: one card per rank, one node card per node, all PMI-safe.
func checkPublished(t *testing.T, kv map[string]string, size, nodes int) {
	cards, nodeCards := 0, 0
	for k, v := range kv {
		assert.LessOrEqual(t, len(v), DefaultMaxValue)
		switch {
		case strings.HasPrefix(k, "card."):
			cards++
		case strings.HasPrefix(k, "nodecard."):
			nodeCards++
		}
	}
	assert.Equal(t, size, cards)
	assert.Equal(t, nodes, nodeCards)
}

func TestNoNodeDataSkipsBarrier(t *testing.T) {
	for _, limit := range []int{64, 0} {
		j := newJob(t, 6, func(r int) uint64 { return uint64(r / 2) }, WithFetchAllMax(limit))
		j.exchange(t)
		for r, m := range j.m {
			s := m.Stats()
			if limit > 0 {
				assert.Equal(t, 1, s.Barriers)
				assert.Equal(t, 5, s.Gets)
				assert.Equal(t, 7, s.RoundTrips(), "1 put + 1 barrier + 5 gets")
			} else {
				assert.Equal(t, 2, s.Barriers)
				if r > 0 {
					assert.Equal(t, 1, s.Gets, "the node map only")
				}
			}
			v, ok, err := m.GetNode((r+3)%6, j.kNode)
			assert.NoError(t, err)
			assert.False(t, ok)
			assert.Nil(t, v)
		}
	}
}

func TestBigCardIsChunked(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 400) // 6400 bytes
	j := newJob(t, 4, func(r int) uint64 { return 1 + uint64(r%2) }, WithMaxValue(100), WithFetchAllMax(0))
	for r, m := range j.m {
		require.NoError(t, m.SetLocal(j.kProc, append(big, byte(r))))
		require.NoError(t, m.SetNode(j.kNode, big))
	}
	j.exchange(t)
	kv := j.store.values()
	for _, v := range kv {
		assert.LessOrEqual(t, len(v), 100)
	}
	for r, m := range j.m {
		s := m.Stats()
		assert.Greater(t, s.CardChunks, 80)
		assert.Equal(t, s.CardChunks, countPrefix(kv, fmt.Sprintf("card.%d.", r)))
		assert.Greater(t, s.CardChars, len(big)*4/3)
		for p := range 4 {
			v, ok, err := m.Get(p, j.kProc)
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, append(big, byte(p)), v)
			v, ok, err = m.GetNode(p, j.kNode)
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, big, v)
		}
	}
}

func countPrefix(kv map[string]string, prefix string) int {
	n := 0
	for k := range kv {
		if strings.HasPrefix(k, prefix) {
			n++
		}
	}
	return n
}

func TestCorruptCardFailsExchange(t *testing.T) {
	j := newJob(t, 3, func(int) uint64 { return 1 })
	j.store.tamper = func(reader int, key, v string) string {
		if reader == 0 && key == "card.2.0" {
			return v[:len(v)-2]
		}
		return v
	}
	errs := j.each(t, func(_ int, m *Modex) error { return m.Exchange() })
	assert.ErrorIs(t, errs[0], ErrCorrupt)
	assert.NoError(t, errs[1])
	assert.NoError(t, errs[2])
}

func TestCorruptCardFailsLazyGet(t *testing.T) {
	j := newJob(t, 3, func(int) uint64 { return 1 }, WithFetchAllMax(0))
	for r, m := range j.m {
		require.NoError(t, m.SetLocal(j.kProc, procValue(r)))
	}
	j.exchange(t)
	j.store.tamper = func(reader int, key, v string) string {
		if key == "card.2.0" {
			return strings.Replace(v, "A", "!", 1)
		}
		return v
	}
	_, _, err := j.m[1].Get(2, j.kProc)
	assert.ErrorIs(t, err, ErrCorrupt)
	// Nothing cached: once the data is sound again the lookup works.
	j.store.tamper = nil
	v, ok, err := j.m[1].Get(2, j.kProc)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, procValue(2), v)
}

func TestCardOfAnotherNodeRejected(t *testing.T) {
	// A card whose node id disagrees with rank 0's map is refused.
	j := newJob(t, 3, func(r int) uint64 { return uint64(r) }, WithFetchAllMax(0))
	j.exchange(t)
	other := encodeText(encodeCard(card{node: 99}), DefaultMaxValue)[0]
	j.store.tamper = func(_ int, key, v string) string {
		if key == "card.2.0" {
			return other
		}
		return v
	}
	_, _, err := j.m[1].Get(2, j.kProc)
	assert.ErrorIs(t, err, ErrCorrupt)
}

func TestMisuse(t *testing.T) {
	j := newJob(t, 2, func(int) uint64 { return 1 })
	m := j.m[0]
	assert.Error(t, m.SetLocal(HashName("never.registered"), nil))
	_, _, err := m.Get(1, j.kProc)
	assert.ErrorIs(t, err, ErrNotExchanged)
	_, _, err = m.GetNode(1, j.kProc)
	assert.ErrorIs(t, err, ErrNotExchanged)
	assert.Equal(t, -1, m.NodeOf(0))
	assert.Nil(t, m.LocalRanks())
	assert.Equal(t, -1, m.LocalRank())

	j.exchange(t)
	assert.ErrorIs(t, m.SetLocal(j.kProc, nil), ErrExchanged)
	assert.ErrorIs(t, m.SetNode(j.kNode, nil), ErrExchanged)
	assert.ErrorIs(t, m.Exchange(), ErrExchanged)
	_, _, err = m.Get(2, j.kProc)
	assert.Error(t, err)
	_, _, err = m.Get(-1, j.kProc)
	assert.Error(t, err)
	assert.Equal(t, -1, m.NodeOf(2))
	assert.Equal(t, -1, m.Leader(5))
}

func TestValuesAreCopies(t *testing.T) {
	j := newJob(t, 1, func(int) uint64 { return 1 })
	m := j.m[0]
	v := []byte("abc")
	require.NoError(t, m.SetLocal(j.kProc, v))
	v[0] = 'X'
	j.exchange(t)
	got, _, _ := m.Get(0, j.kProc)
	assert.Equal(t, []byte("abc"), got)
	got[0] = 'Y'
	again, _, _ := m.Get(0, j.kProc)
	assert.Equal(t, []byte("abc"), again)
}

func TestConcurrentLookups(t *testing.T) {
	j := newJob(t, 16, func(r int) uint64 { return uint64(r / 4) }, WithFetchAllMax(0))
	for r, m := range j.m {
		require.NoError(t, m.SetLocal(j.kProc, procValue(r)))
	}
	j.exchange(t)
	m := j.m[5]
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range 16 {
				v, ok, err := m.Get((p+g)%16, j.kProc)
				assert.NoError(t, err)
				assert.True(t, ok)
				assert.Equal(t, procValue((p+g)%16), v)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 15, m.Stats().CardsFetched, "each card fetched once")
}

func TestStatsString(t *testing.T) {
	j := newJob(t, 2, func(int) uint64 { return 1 })
	j.exchange(t)
	s := j.m[1].Stats().String()
	assert.Contains(t, s, "modex rank 1/2: 1 nodes, fetch-all")
	assert.Contains(t, s, "3 PMI round trips (1 put, 1 get, 1 barrier)")
	t.Setenv("GOMPI_MODEX_DEBUG", "1")
	assert.True(t, DebugEnabled())
	t.Setenv("GOMPI_MODEX_DEBUG", "")
	assert.False(t, DebugEnabled())
}

func TestLocalNodeID(t *testing.T) {
	id, err := LocalNodeID()
	require.NoError(t, err)
	again, _ := LocalNodeID()
	assert.Equal(t, id, again)
	assert.NotEqual(t, NodeIDOf("ab", "c"), NodeIDOf("a", "bc"))
	assert.NotEqual(t, NodeIDOf("h", "boot1"), NodeIDOf("h", "boot2"))
	m := New(newMemStore(1).client(0), NewRegistry())
	assert.Equal(t, id, m.NodeID())
}
