package pml

import (
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// readerModule is a fake network with asynchronous reads (RemoteReader):
// a read started in one Progress finishes in the next; badKey makes every
// read fail, as a corrupt key from a peer would.
type readerModule struct {
	fakeModule
	mu      sync.Mutex
	badKey  bool
	keys    map[uint64]int // exposed key -> live uses
	next    uint64
	pending []pendingRead
	onRead  func(uint32, bool)
	reads   int
}

type pendingRead struct {
	dst  unsafe.Pointer
	n    int
	addr uint64
	id   uint32
}

func (m *readerModule) Expose(_ int, buf unsafe.Pointer, n int) (uint64, uint64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.next++
	m.keys[m.next]++
	return m.next, uint64(uintptr(buf)), true
}

func (m *readerModule) Unexpose(key uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys[key]--
	if m.keys[key] == 0 {
		delete(m.keys, key)
	}
}

func (m *readerModule) ReadAsync(_ int, dst unsafe.Pointer, n int, addr, key uint64, id uint32) bool {
	m.pending = append(m.pending, pendingRead{dst, n, addr, id})
	m.reads++
	return true
}

func (m *readerModule) OnRead(f func(uint32, bool)) { m.onRead = f }

func (m *readerModule) Progress() int {
	done := m.pending
	m.pending = nil
	for _, r := range done {
		if !m.badKey {
			src := *(*unsafe.Pointer)(unsafe.Pointer(&r.addr))
			copy(unsafe.Slice((*byte)(r.dst), r.n), unsafe.Slice((*byte)(src), r.n))
		}
		m.onRead(r.id, !m.badKey)
	}
	return len(done) + m.fakeModule.Progress()
}

func newReaderNet(n int, badKey bool) (*fakeNet, []*readerModule) {
	f := &fakeNet{inbox: make([][]frag, n), get: true}
	var ms []*readerModule
	for i := 0; i < n; i++ {
		e := New(Config{Me: i, WorldSize: n, EagerLimit: 4096, FragSize: 1000})
		peers := make([]int, n)
		for j := range peers {
			peers[j] = j
		}
		m := &readerModule{fakeModule: fakeModule{net: f, me: i}, badKey: badKey, keys: map[uint64]int{}}
		e.AddTransport(m, peers)
		f.engines = append(f.engines, e)
		ms = append(ms, m)
	}
	return f, ms
}

// TestNetworkRead: rendezvous messages go by asynchronous reads (sizes,
// Ssend, ANY_SOURCE, truncation); every exposed buffer is released; a
// failed read falls back to fragments and the message still arrives.
func TestNetworkRead(t *testing.T) {
	for _, badKey := range []bool{false, true} {
		f, ms := newReaderNet(3, badKey)
		sizes := []int{4097, 10000, 100000}
		var trunc, anySrc Status
		f.run(func(e *Engine, c *Comm) {
			for i, n := range sizes {
				got := make([]byte, n)
				e.Recv(c, ptr(got), n, 1, i)
				require.Equal(t, pattern(n, i), got)
			}
			got := make([]byte, 5000)
			trunc = e.Recv(c, ptr(got), 5000, 1, 50)
			require.Equal(t, pattern(9000, 50)[:5000], got)
			for k := 0; k < 2; k++ {
				got := make([]byte, 6000)
				anySrc = e.Recv(c, ptr(got), 6000, AnySource, 60)
				require.Equal(t, pattern(6000, 60+anySrc.Source), got)
			}
		}, func(e *Engine, c *Comm) {
			for i, n := range sizes {
				mode := ModeStandard
				if i == 1 {
					mode = ModeSync
				}
				e.Send(c, ptr(pattern(n, i)), n, 0, i, mode)
			}
			e.Send(c, ptr(pattern(9000, 50)), 9000, 0, 50, ModeStandard)
			e.Send(c, ptr(pattern(6000, 61)), 6000, 0, 60, ModeStandard)
		}, func(e *Engine, c *Comm) {
			e.Send(c, ptr(pattern(6000, 62)), 6000, 0, 60, ModeStandard)
		})
		require.Equal(t, Status{Source: 1, Tag: 50, Count: 5000, Err: trunc.Err}, trunc)
		require.NotZero(t, trunc.Err, "truncated rendezvous")
		require.Greater(t, ms[0].reads, 0, "reads issued")
		for i, m := range ms {
			require.Empty(t, m.keys, "rank %d left buffers exposed", i)
		}
		if badKey {
			require.Equal(t, uint64(0), f.engines[0].Counters.RndvGet)
			require.NotZero(t, f.engines[0].Counters.RndvPipe)
		} else {
			require.NotZero(t, f.engines[0].Counters.RndvGet)
		}
	}
}
