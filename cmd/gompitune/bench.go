package main

import (
	"fmt"
	"os"
	"slices"
	"time"

	"gompi/mpi"
)

const (
	tagCtl = 1 + iota
	tagReady
	tagData
	tagAck
)

// maxWindowBytes bounds the receive buffers of one bandwidth window.
const maxWindowBytes = 64 << 20

// repTarget is the length of one timed repetition: many short ones give a
// robust median.
const repTarget = 2 * time.Millisecond

type metric int

const (
	latency metric = iota
	bandwidth
)

// bench runs the measurements of one rank. Messages go in two directions:
// the sends of rank getRank use single copy, the others' copy in and out
// (see setModes), and every measurement alternates the two, so both modes
// see the same machine.
type bench struct {
	c       *mpi.Comm
	me      int
	getRank int
	minReps int
	win     int
	sbuf    []byte
	rbuf    []byte
	arena   []byte // the window's receive buffers, back to back
	ctl     []int64
	reqs    []*mpi.Request
}

func newBench(c *mpi.Comm, cfg config) *bench {
	b := &bench{c: c, me: c.Rank(), getRank: cfg.getRank, minReps: cfg.reps, win: cfg.window,
		sbuf: make([]byte, cfg.hi), rbuf: make([]byte, cfg.hi), ctl: make([]int64, 3),
		arena: make([]byte, max(cfg.hi, min(cfg.window*cfg.hi, maxWindowBytes)))}
	b.reqs = make([]*mpi.Request, b.window(1))
	// Touch every page now so that no measurement pays for first faults.
	for _, s := range [][]byte{b.sbuf, b.rbuf, b.arena} {
		for i := range s {
			s[i] = byte(i)
		}
	}
	return b
}

func (b *bench) peer() int { return 1 - b.me }

// wbuf is the receive buffer of message k of a window.
func (b *bench) wbuf(k, size int) []byte { return b.arena[k*size : (k+1)*size] }

// window is the number of messages in flight for size.
func (b *bench) window(size int) int {
	return max(1, min(b.win, maxWindowBytes/size))
}

func must(err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "gompitune: rank %d: %v\n", mpi.WorldRank(), err)
		mpi.Abort(mpi.World(), 1)
	}
}

func (b *bench) send(v []int64, tag int) { must(mpi.SendSlice(b.c, v, b.peer(), tag)) }
func (b *bench) recv(v []int64, tag int) {
	_, err := mpi.RecvSlice(b.c, v, b.peer(), tag)
	must(err)
}

func fill(p []byte, seed int) {
	for i := range p {
		p[i] = byte(i*7 + seed)
	}
}

func check(p []byte, seed int, what string) {
	for i := range p {
		if p[i] != byte(i*7+seed) {
			fmt.Fprintf(os.Stderr, "gompitune: rank %d: %s of %d bytes corrupt at byte %d\n", mpi.WorldRank(), what, len(p), i)
			mpi.Abort(mpi.World(), 1)
		}
	}
}

// rep runs iters iterations of m with size-byte messages from sender to the
// other rank and returns the time the sender measured (0 on the receiver).
// The receiver first says it is ready, so the time covers only the transfers.
func (b *bench) rep(m metric, sender, size, iters int) time.Duration {
	if b.me != sender {
		b.send(b.ctl[:0], tagReady)
		for i := 0; i < iters; i++ {
			if m == latency {
				_, err := mpi.RecvSlice(b.c, b.rbuf[:size], sender, tagData)
				must(err)
			} else {
				reqs := b.reqs[:b.window(size)]
				for k := range reqs {
					var err error
					reqs[k], err = mpi.IrecvSlice(b.c, b.wbuf(k, size), sender, tagData)
					must(err)
				}
				b.waitAll(reqs)
			}
			b.send(b.ctl[:0], tagAck) // the pong, or the window's acknowledgement
		}
		return 0
	}
	b.recv(b.ctl[:0], tagReady)
	t := time.Now()
	for i := 0; i < iters; i++ {
		if m == latency {
			must(mpi.SendSlice(b.c, b.sbuf[:size], b.peer(), tagData))
		} else {
			reqs := b.reqs[:b.window(size)]
			for k := range reqs {
				var err error
				reqs[k], err = mpi.IsendSlice(b.c, b.sbuf[:size], b.peer(), tagData)
				must(err)
			}
			b.waitAll(reqs)
		}
		b.recv(b.ctl[:0], tagAck)
	}
	return time.Since(t)
}

func (b *bench) waitAll(reqs []*mpi.Request) {
	for _, r := range reqs {
		_, err := b.c.Wait(r)
		must(err)
	}
}

// measure returns, for both directions (index: sender rank), the median time
// of one iteration of m, on rank 0; rank 1 returns zeros. budget covers both
// directions.
func (b *bench) measure(m metric, size int, budget time.Duration) [2]time.Duration {
	// One checked iteration per direction, which also warms the path up.
	for s := 0; s < 2; s++ {
		seed := size + s + 2*int(m)
		if b.me == s {
			fill(b.sbuf[:size], seed)
		}
		b.rep(m, s, size, 1)
		if b.me != s {
			if m == latency {
				check(b.rbuf[:size], seed, "message")
			} else {
				for k := 0; k < b.window(size); k++ {
					check(b.wbuf(k, size), seed, "streamed message")
				}
			}
		}
	}
	// Each sender times two iterations; rank 0 plans for both.
	var per [2]time.Duration
	for s := 0; s < 2; s++ {
		if d := b.rep(m, s, size, 2); b.me == s {
			per[s] = max(d/2, time.Microsecond)
		}
	}
	var iters [2]int
	var reps int
	if b.me == 1 {
		b.ctl[0] = int64(per[1])
		b.send(b.ctl[:1], tagCtl)
		b.recv(b.ctl[:3], tagCtl)
		iters, reps = [2]int{int(b.ctl[0]), int(b.ctl[1])}, int(b.ctl[2])
	} else {
		b.recv(b.ctl[:1], tagCtl)
		per[1] = time.Duration(b.ctl[0])
		round := time.Duration(0)
		for s := range iters {
			iters[s] = int(max(1, min(100_000, repTarget/per[s])))
			round += per[s] * time.Duration(iters[s])
		}
		reps = int(max(int64(b.minReps), min(10_000, int64(budget/round))))
		b.ctl[0], b.ctl[1], b.ctl[2] = int64(iters[0]), int64(iters[1]), int64(reps)
		b.send(b.ctl[:3], tagCtl)
	}
	// Alternate the directions, and which goes first, so that both see the
	// same interference; the median repetition counts, so rare slow or fast
	// ones (preemption, a neighbour's burst) move neither mode.
	var times [2][]time.Duration
	for r := 0; r < reps; r++ {
		for k := 0; k < 2; k++ {
			s := (r + k) % 2
			if d := b.rep(m, s, size, iters[s]); b.me == s {
				times[s] = append(times[s], d/time.Duration(iters[s]))
			}
		}
	}
	var med [2]time.Duration
	med[b.me] = median(times[b.me])
	// Rank 1 timed its own direction.
	if b.me == 1 {
		b.ctl[0] = int64(med[1])
		b.send(b.ctl[:1], tagCtl)
		return [2]time.Duration{}
	}
	b.recv(b.ctl[:1], tagCtl)
	med[1] = time.Duration(b.ctl[0])
	return med
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
