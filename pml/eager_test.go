package pml

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

type fixedBacklog int

func (b fixedBacklog) Backlog(int) int { return int(b) }

// Eager up to the limit; single copy from 1.5x the crossover, and from the
// crossover itself once the way to the peer is crowded.
func TestEagerFits(t *testing.T) {
	e := New(Config{WorldSize: 1, EagerRoom: 128 << 10})
	e.eager[0], e.getFrom[0] = 64<<10, 32<<10
	require.True(t, e.eagerFits(0, nil, 32<<10))
	require.False(t, e.eagerFits(0, nil, 48<<10))
	e.backlog[0] = fixedBacklog(100 << 10)
	require.True(t, e.eagerFits(0, nil, 16<<10), "below the crossover the backlog does not matter")
	require.False(t, e.eagerFits(0, nil, 32<<10))
	e.backlog[0] = fixedBacklog(64 << 10)
	require.True(t, e.eagerFits(0, nil, 32<<10))
}

type slowVerdict bool

func (s *slowVerdict) SlowCopies(int) bool { return bool(*s) }
func (s *slowVerdict) SlowFrom() int       { return 16 << 10 }

// While copies into the ring run slow, messages from the transport's slow
// size go by single copy, but for one in slowProbes that is timed.
func TestEagerFitsSlowCopies(t *testing.T) {
	e := New(Config{WorldSize: 1, EagerRoom: 128 << 10})
	e.eager[0], e.getFrom[0] = 64<<10, 32<<10
	v := slowVerdict(false)
	e.slowFrom[0], e.slowed[0] = v.SlowFrom(), &v
	require.True(t, e.eagerFits(0, nil, 16<<10))
	v = true
	require.True(t, e.eagerFits(0, nil, 8<<10), "below the slow size nothing changes")
	eager := 0
	for range 4 * slowProbes {
		if e.eagerFits(0, nil, 16<<10) {
			eager++
		}
	}
	require.Equal(t, 4, eager)
	v = false
	require.True(t, e.eagerFits(0, nil, 16<<10))
}

// sharedRange plays a transport whose receivers read [lo, hi) of ours directly.
type sharedRange struct{ lo, hi uintptr }

func (s sharedRange) SharedBuffer(_ int, buf unsafe.Pointer, n int) bool {
	return uintptr(buf) >= s.lo && uintptr(buf)+uintptr(n) <= s.hi
}
func (s sharedRange) SharedFrom() int { return 16 << 10 }

// A buffer the receiver reads directly goes by single copy from the shared
// size, except while the way to the peer is empty (a lone message wins eager).
func TestSharedGet(t *testing.T) {
	e := New(Config{WorldSize: 1, EagerRoom: 128 << 10})
	e.eager[0], e.getFrom[0] = 64<<10, 32<<10
	heap := make([]byte, 1<<20)
	lo := uintptr(unsafe.Pointer(&heap[0]))
	s := sharedRange{lo, lo + uintptr(len(heap))}
	e.sharedFrom[0], e.shared[0] = s.SharedFrom(), s
	other := make([]byte, 64<<10)
	in, out := unsafe.Pointer(&heap[0]), unsafe.Pointer(&other[0])

	singleCopy := func(buf unsafe.Pointer, n int) bool { return !e.eagerFits(0, buf, n) }
	e.backlog[0] = fixedBacklog(0)
	require.False(t, singleCopy(in, 16<<10), "empty way: eager")
	require.True(t, singleCopy(in, 128<<10), "past the eager limit")
	e.backlog[0] = fixedBacklog(120 << 10)
	require.True(t, singleCopy(in, 16<<10))
	require.False(t, singleCopy(in, 8<<10), "below the shared size")
	require.False(t, singleCopy(out, 16<<10), "not in the shared range")
	e.backlog[0] = nil
	require.True(t, singleCopy(in, 16<<10), "no backlog known: single copy")
	e.backlog[0], e.cfg.Oversubscribed = fixedBacklog(0), true
	require.True(t, singleCopy(in, 16<<10), "oversubscribed: single copy even on an empty way")
	require.False(t, singleCopy(out, 16<<10), "oversubscribed, not shared: eager")
}
