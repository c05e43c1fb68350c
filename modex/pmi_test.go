package modex

import (
	"bytes"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"gompi/internal/testtime"
	"gompi/pmi"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pmiJob runs n ranks against a real pmi.Server over net.Pipe.
func pmiJob(t testing.TB, n int) []*pmi.Client {
	srv, err := pmi.NewServer(pmi.ServerConfig{Size: n})
	require.NoError(t, err)
	var served sync.WaitGroup
	t.Cleanup(func() { srv.Close(); served.Wait() })
	clients := make([]*pmi.Client, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r := range n {
		cs, ss := net.Pipe()
		served.Add(1)
		go func() { defer served.Done(); srv.Serve(r, ss) }()
		wg.Add(1)
		go func() { defer wg.Done(); clients[r], errs[r] = pmi.NewClientConn(cs, r, n) }()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	return clients
}

// runAll runs f on every rank and fails if the job hangs.
func runAll(t testing.TB, n int, f func(r int) error) {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r := range n {
		wg.Add(1)
		go func() { defer wg.Done(); errs[r] = f(r) }()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(testtime.D(60 * time.Second)):
		t.Fatal("job hung")
	}
	for r, err := range errs {
		require.NoError(t, err, "rank %d", r)
	}
}

func TestExchangeOverPMI(t *testing.T) {
	const n = 4
	for _, limit := range []int{DefaultFetchAllMax, 0} {
		t.Run(fmt.Sprint("fetchallmax=", limit), func(t *testing.T) {
			clients := pmiJob(t, n)
			reg := NewRegistry()
			kProc := reg.MustRegister("hitopo.1")
			kNode := reg.MustRegister("btl.sm.1")
			nodeOf := func(r int) uint64 { return 0xfeed0000 + uint64(r/2) } // 2 nodes of 2
			ms := make([]*Modex, n)
			before := make([]int, n)
			runAll(t, n, func(r int) error {
				before[r] = clients[r].RoundTrips()
				m := New(clients[r], reg, WithNodeID(nodeOf(r)), WithFetchAllMax(limit))
				ms[r] = m
				if err := m.SetLocal(kProc, procValue(r)); err != nil {
					return err
				}
				if err := m.SetNode(kNode, nodeValue(nodeOf(r))); err != nil {
					return err
				}
				if err := m.Exchange(); err != nil {
					return err
				}
				for p := range n {
					v, ok, err := m.Get(p, kProc)
					if err != nil || !ok || !bytes.Equal(v, procValue(p)) {
						return fmt.Errorf("Get(%d): %q %v %v", p, v, ok, err)
					}
					v, ok, err = m.GetNode(p, kNode)
					if err != nil || !ok || !bytes.Equal(v, nodeValue(nodeOf(p))) {
						return fmt.Errorf("GetNode(%d): %q %v %v", p, v, ok, err)
					}
				}
				return nil
			})
			for r, m := range ms {
				assert.Equal(t, []int{r &^ 1, r | 1}, m.LocalRanks())
				assert.Equal(t, r/2, m.NodeOf(r))
				assert.Equal(t, 2, m.Nodes())
				s := m.Stats()
				assert.Equal(t, clients[r].RoundTrips()-before[r], s.RoundTrips(),
					"rank %d: Stats counts every PMI round trip", r)
				t.Log(s)
			}
		})
	}
}

// BenchmarkExchangeOverPMI measures a whole job's Exchange against the real
// PMI server, for both modes, alone and followed by a lookup of every peer.
func BenchmarkExchangeOverPMI(b *testing.B) {
	for _, n := range []int{8, 32, 64} {
		for _, limit := range []int{n, 0} {
			for _, lookups := range []bool{false, true} {
				benchExchange(b, n, limit, lookups)
			}
		}
	}
}

func benchExchange(b *testing.B, n, limit int, lookups bool) {
	mode := "fetch-all"
	if limit == 0 {
		mode = "node-map"
	}
	b.Run(fmt.Sprintf("n=%d/%s/lookups=%v", n, mode, lookups), func(b *testing.B) {
		reg := NewRegistry()
		k := reg.MustRegister("btl.tcp.1")
		for b.Loop() {
			b.StopTimer()
			clients := pmiJob(b, n)
			b.StartTimer()
			runAll(b, n, func(r int) error {
				m := New(clients[r], reg, WithNodeID(uint64(r/8)), WithFetchAllMax(limit))
				if err := m.SetLocal(k, procValue(r)); err != nil {
					return err
				}
				if err := m.Exchange(); err != nil {
					return err
				}
				for p := range n {
					if !lookups {
						break
					}
					if _, _, err := m.Get(p, k); err != nil {
						return err
					}
				}
				return nil
			})
		}
	})
}
