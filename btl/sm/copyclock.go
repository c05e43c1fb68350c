package sm

import (
	"time"

	"gompi/btl/shmring"
	"gompi/mem"
)

// A copy into a ring is fast while sender and receiver share a cache, and
// several times slower when their cores are far apart: every cache line the
// sender writes must first be taken back from the receiver's core, which read
// it the lap before. Virtual machines move between the two within seconds
// (2-core EPYC guest here: a cache-line round trip between the cores took
// 58 ns or 320 ns; copying 16 KiB into a ring 0.6 us or 6.5 us, out of it
// 0.5 us or 1.2 us; a 16 KiB exchange through the rings 1.5 us or 9 us). So
// the sender times some of its copies of large records into a ring and, while
// they run slow, prefers single copy (the receiver reads the sender's buffer,
// nothing to claim back) from a smaller size.
type copyClock struct {
	from  int // records of at least this many bytes are timed; 0 never
	picos int // per byte: above it a copy is slow
	tick  uint32
}

// slowFactor: a copy this many times slower than a local one is slow. Far
// apart copies ran 20 times slower than local ones here, near ones 2-3.
const slowFactor = 5

func newCopyClock(from int) copyClock {
	if from <= 0 {
		return copyClock{}
	}
	return copyClock{from: from, picos: slowFactor * localCopyPicos()}
}

// localCopyPicos measures a copy between two cache-resident buffers of this
// process, best of a few, in picoseconds per byte.
func localCopyPicos() int {
	const n = 64 << 10
	a, b := make([]byte, n), make([]byte, n)
	best := time.Duration(1 << 62)
	for range 16 {
		t := time.Now()
		mem.Bytes(a, b)
		best = min(best, time.Since(t))
	}
	return max(int(best.Nanoseconds()*1000/n), 1)
}

// sample says whether to time this copy: every one while the verdict is
// slow (they are the probes that may clear it), one in four otherwise.
func (k *copyClock) sample(p *shmring.Producer) bool {
	k.tick++
	return k.tick&3 == 0 || p.SlowCopies()
}

// slow judges a copy of n bytes that took d; the allowance covers the clock.
func (k *copyClock) slow(d time.Duration, n int) bool {
	return int64(d)*1000 > int64(k.picos)*int64(n)+200_000
}
