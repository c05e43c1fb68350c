package pmi

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/internal/testtime"
)

// fakeHead joins the fences of several servers, as gompirun's head does for
// its daemons: each server's puts go to all others once all have arrived.
type fakeHead struct {
	mu      sync.Mutex
	n       int
	arrived int
	merged  map[string]string
	done    chan struct{}
	fail    bool
}

func (h *fakeHead) fence(puts map[string]string) (map[string]string, error) {
	h.mu.Lock()
	if h.arrived == 0 {
		h.merged, h.done = map[string]string{}, make(chan struct{})
	}
	for k, v := range puts {
		h.merged[k] = v
	}
	h.arrived++
	merged, done := h.merged, h.done
	if h.arrived == h.n {
		h.arrived = 0
		close(done)
	}
	fail := h.fail
	h.mu.Unlock()
	<-done
	if fail {
		return nil, errors.New("head gone")
	}
	return merged, nil
}

// TestFenceAcrossServers: 4 ranks served by two servers (ranks 0,2 and 1,3)
// see each other's puts after one barrier.
func TestFenceAcrossServers(t *testing.T) {
	const n = 4
	head := &fakeHead{n: 2}
	locals := [][]int{{0, 2}, {1, 3}}
	clients := make([]*Client, n)
	var wg sync.WaitGroup
	for _, local := range locals {
		srv, err := NewServer(ServerConfig{Size: n, KVSName: "kvs_f", Local: local, Fence: head.fence})
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		for _, r := range local {
			cs, ss := net.Pipe()
			go srv.Serve(r, ss)
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := NewClientConn(cs, r, n)
				assert.NoError(t, err)
				clients[r] = c
			}()
		}
	}
	wg.Wait()
	var ranks sync.WaitGroup
	for r, c := range clients {
		ranks.Add(1)
		go func() {
			defer ranks.Done()
			for round := 0; round < 2; round++ {
				key := fmt.Sprintf("k%d-%d", round, r)
				assert.NoError(t, c.Put(key, strconv.Itoa(r*10+round)))
				assert.NoError(t, c.Barrier())
				for p := 0; p < n; p++ {
					v, err := c.Get(fmt.Sprintf("k%d-%d", round, p))
					assert.NoError(t, err)
					assert.Equal(t, strconv.Itoa(p*10+round), v)
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { ranks.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(testtime.D(30 * time.Second)):
		t.Fatal("fence did not complete")
	}
}

// TestFenceFailure: a failed fence is a failed barrier (rc=-1), not a hang.
func TestFenceFailure(t *testing.T) {
	head := &fakeHead{n: 1, fail: true}
	srv, err := NewServer(ServerConfig{Size: 2, Local: []int{1}, Fence: head.fence})
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	cs, ss := net.Pipe()
	go srv.Serve(1, ss)
	c, err := NewClientConn(cs, 1, 2)
	require.NoError(t, err)
	assert.Error(t, c.Barrier())
}

func TestLocalRanksChecked(t *testing.T) {
	_, err := NewServer(ServerConfig{Size: 2, Local: []int{2}})
	assert.Error(t, err)
	_, err = NewServer(ServerConfig{Size: 2, Local: []int{}})
	assert.Error(t, err)
}
