package modex

import (
	"fmt"
	"strings"
	"sync"
)

// memStore is an in-memory PMI key-value space shared by goroutine ranks.
// It is strict where PMI is: puts stay private until the barrier every rank
// has entered completes, a key is put once, keys and values obey PMI-1's
// limits. Tests can tamper with values on their way to a reader.
type memStore struct {
	mu        sync.Mutex
	cond      *sync.Cond
	size      int
	committed map[string]string
	pending   []map[string]string
	arrived   int
	gen       int
	trips     []int
	tamper    func(reader int, key, value string) string
}

func newMemStore(size int) *memStore {
	s := &memStore{size: size, committed: map[string]string{},
		pending: make([]map[string]string, size), trips: make([]int, size)}
	for i := range s.pending {
		s.pending[i] = map[string]string{}
	}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *memStore) client(rank int) *memKVS { return &memKVS{s: s, rank: rank} }

// values returns every committed value (to check what was published).
func (s *memStore) values() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.committed))
	for k, v := range s.committed {
		out[k] = v
	}
	return out
}

func (s *memStore) roundTrips(rank int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.trips[rank]
}

type memKVS struct {
	s    *memStore
	rank int
}

func (c *memKVS) Rank() int { return c.rank }
func (c *memKVS) Size() int { return c.s.size }

func (c *memKVS) Put(key, value string) error {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trips[c.rank]++
	if key == "" || len(key) > 64 || strings.ContainsAny(key, " =\n") {
		return fmt.Errorf("memkvs: bad key %q", key)
	}
	if len(value) > 1024 || strings.ContainsAny(value, " =\n") {
		return fmt.Errorf("memkvs: bad value for %q (%d chars)", key, len(value))
	}
	if _, ok := s.committed[key]; ok {
		return fmt.Errorf("memkvs: %q put twice", key)
	}
	for _, p := range s.pending {
		if _, ok := p[key]; ok {
			return fmt.Errorf("memkvs: %q put twice", key)
		}
	}
	s.pending[c.rank][key] = value
	return nil
}

func (c *memKVS) Get(key string) (string, error) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trips[c.rank]++
	v, ok := s.committed[key]
	if !ok {
		return "", fmt.Errorf("memkvs: %q not found", key)
	}
	if s.tamper != nil {
		v = s.tamper(c.rank, key, v)
	}
	return v, nil
}

func (c *memKVS) Barrier() error {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trips[c.rank]++
	gen := s.gen
	s.arrived++
	if s.arrived == s.size {
		for _, p := range s.pending {
			for k, v := range p {
				s.committed[k] = v
			}
			clear(p)
		}
		s.arrived = 0
		s.gen++
		s.cond.Broadcast()
		return nil
	}
	for gen == s.gen {
		s.cond.Wait()
	}
	return nil
}
