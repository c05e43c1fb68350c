// Package coll builds collective operations as schedules: a list of rounds,
// each a set of sends and receives started together followed by local copies
// and reductions run once they all completed. A blocking call runs a schedule
// to completion in place; nonblocking and persistent calls advance it from the
// progress engine. Schedules work on contiguous bytes; the mpi layer packs
// derived types and resolves MPI_IN_PLACE before building them.
package coll

import (
	"unsafe"

	"gompi/mem"
)

// Req is an outstanding send or receive of a transport.
type Req interface{ Done() bool }

// Transport moves the bytes of one communicator's collective context. Isend
// and Irecv return nil when the operation completed at once.
type Transport interface {
	Isend(buf unsafe.Pointer, n, peer, tag int) Req
	// Irecv with whole set: the data is reduced as soon as it is in, so this
	// process should copy all of it itself (it then sits in this core's
	// cache).
	Irecv(buf unsafe.Pointer, n, peer, tag int, whole bool) Req
	Release(r Req)
}

// Reducer combines count elements: inout[i] = in[i] op inout[i] (MPI's order:
// in holds the lower ranks' contribution).
type Reducer func(in, inout unsafe.Pointer, count int)

type stepKind uint8

const (
	stSend stepKind = iota
	stRecv
	stCopy      // b <- a, n bytes
	stReduce    // b <- a op b, n elements
	stCopyEarly // b <- a, n bytes, run as soon as the round's messages are posted
)

type step struct {
	kind stepKind
	net  uint8 // 0: the run's transport, 1: the second one (intercommunicators' local group)
	peer int
	off  int // added to the run's tag (neighbourhood collectives)
	// whole: a receive whose buffer a reduce of the same round reads
	whole bool
	a, b  unsafe.Pointer
	n     int
}

// Schedule is a built collective for one rank; Start and Advance run it, as
// many times as wanted (persistent collectives).
type Schedule struct {
	steps []step
	ends  []int // round i is steps[ends[i-1]:ends[i]]
	fn    Reducer
	tmp   [][]byte // scratch memory the steps point into

	tr    [2]Transport
	tag   [2]int
	round int
	pend  []pending
	done  bool
}

type pending struct {
	r   Req
	net uint8
}

// Rounds is the number of rounds (for tests).
func (s *Schedule) Rounds() int { return len(s.ends) }

// Messages counts the sends of the schedule (for tests).
func (s *Schedule) Messages() int {
	n := 0
	for _, st := range s.steps {
		if st.kind == stSend {
			n++
		}
	}
	return n
}

// Start begins a run over tr with tag; messages of different runs in flight
// at once must use different tags (a run uses tag..tag+Tags()-1).
func (s *Schedule) Start(tr Transport, tag int) { s.Start2(tr, tag, nil, 0) }

// Start2 begins a run whose net-1 steps (an intercommunicator's local group)
// go over tr2 with tag2.
func (s *Schedule) Start2(tr Transport, tag int, tr2 Transport, tag2 int) {
	s.tr, s.tag, s.round, s.done = [2]Transport{tr, tr2}, [2]int{tag, tag2}, 0, false
	s.pend = s.pend[:0]
	s.startRound()
}

// Tags is the number of consecutive tags a run uses.
func (s *Schedule) Tags() int {
	n := 1
	for _, st := range s.steps {
		n = max(n, st.off+1)
	}
	return n
}

// Done reports whether the last Start ran to completion.
func (s *Schedule) Done() bool { return s.done }

// Advance tests the current round and moves on as far as possible; it reports
// whether the schedule completed.
func (s *Schedule) Advance() bool {
	for !s.done {
		for i, p := range s.pend {
			if p.r == nil {
				continue
			}
			if !p.r.Done() {
				return false
			}
			s.tr[p.net].Release(p.r)
			s.pend[i].r = nil
		}
		s.pend = s.pend[:0]
		s.finishRound()
		s.round++
		s.startRound()
	}
	return true
}

func (s *Schedule) bounds(i int) (int, int) {
	lo := 0
	if i > 0 {
		lo = s.ends[i-1]
	}
	return lo, s.ends[i]
}

// startRound posts the communication of the current round; receives first so
// a peer's eager data finds them.
func (s *Schedule) startRound() {
	if s.round >= len(s.ends) {
		s.done = true
		return
	}
	lo, hi := s.bounds(s.round)
	for i := lo; i < hi; i++ {
		if st := &s.steps[i]; st.kind == stRecv {
			if r := s.tr[st.net].Irecv(st.a, st.n, st.peer, s.tag[st.net]+st.off, st.whole); r != nil {
				s.pend = append(s.pend, pending{r, st.net})
			}
		}
	}
	for i := lo; i < hi; i++ {
		if st := &s.steps[i]; st.kind == stSend {
			if r := s.tr[st.net].Isend(st.a, st.n, st.peer, s.tag[st.net]+st.off); r != nil {
				s.pend = append(s.pend, pending{r, st.net})
			}
		}
	}
	for i := lo; i < hi; i++ {
		if st := &s.steps[i]; st.kind == stCopyEarly {
			mem.Copy(st.b, st.a, st.n)
		}
	}
}

// finishRound runs the local steps of the current round.
func (s *Schedule) finishRound() {
	lo, hi := s.bounds(s.round)
	for i := lo; i < hi; i++ {
		switch st := &s.steps[i]; st.kind {
		case stCopy:
			if st.a != st.b {
				mem.Copy(st.b, st.a, st.n)
			}
		case stReduce:
			s.fn(st.a, st.b, st.n)
		}
	}
}

// builder appends steps and rounds to a schedule.
type builder struct {
	s    *Schedule
	open bool // the last round accepts more steps
	// comm is set when the open round has communication; local steps after
	// it still join the round (they run when it completes).
	keepZero bool  // zero-byte messages carry synchronisation (barrier)
	net      uint8 // transport of the steps added now
	// peers maps the ranks of a sub-group algorithm (a node, the node
	// leaders) to the communicator's: hierarchical schedules reuse the
	// flat algorithms on groups (hier.go). nil: ranks are the
	// communicator's.
	peers []int
}

func newBuilder(fn Reducer) *builder { return &builder{s: &Schedule{fn: fn}} }

// round closes the current round: the next step starts a new one.
func (b *builder) round() { b.open = false }

func (b *builder) add(st step) {
	if !b.open {
		b.s.ends = append(b.s.ends, len(b.s.steps))
		b.open = true
	}
	b.s.steps = append(b.s.steps, st)
	b.s.ends[len(b.s.ends)-1] = len(b.s.steps)
}

// comm adds a send or receive; a local step already in the open round would
// run before it otherwise, so it forces a new round.
func (b *builder) comm(k stepKind, peer int, p unsafe.Pointer, n int) {
	if n == 0 && !b.keepZero {
		return
	}
	if b.open {
		lo, hi := b.s.bounds(len(b.s.ends) - 1)
		for i := lo; i < hi; i++ {
			if b.s.steps[i].kind >= stCopy {
				b.round()
				break
			}
		}
	}
	if b.peers != nil {
		peer = b.peers[peer]
	}
	b.add(step{kind: k, net: b.net, peer: peer, a: p, n: n})
}

func (b *builder) send(peer int, p unsafe.Pointer, n int) { b.comm(stSend, peer, p, n) }
func (b *builder) recv(peer int, p unsafe.Pointer, n int) { b.comm(stRecv, peer, p, n) }

// copy adds dst <- src (n bytes) after the open round's communication.
func (b *builder) copy(dst, src unsafe.Pointer, n int) {
	if n > 0 && dst != src {
		b.add(step{kind: stCopy, a: src, b: dst, n: n})
	}
}

// copyEarly adds dst <- src (n bytes) run while the open round's messages
// are in flight: for copies no message of the round reads or writes at dst
// (a rank's own block), done while the peers copy theirs (2-rank allgather of
// 1 MiB: 160 -> 120 us).
func (b *builder) copyEarly(dst, src unsafe.Pointer, n int) {
	if n > 0 && dst != src {
		b.add(step{kind: stCopyEarly, a: src, b: dst, n: n})
	}
}

// reduce adds inout <- in op inout (count elements).
func (b *builder) reduce(in, inout unsafe.Pointer, count int) {
	if count > 0 {
		b.add(step{kind: stReduce, a: in, b: inout, n: count})
	}
}

// scratch returns n bytes of memory owned by the schedule.
func (b *builder) scratch(n int) unsafe.Pointer {
	if n == 0 {
		return nil
	}
	m := make([]byte, n)
	b.s.tmp = append(b.s.tmp, m)
	return unsafe.Pointer(&m[0])
}

func (b *builder) done() *Schedule {
	b.open = false
	b.markWhole()
	return b.s
}

// markWhole flags the receives whose buffer a reduce of the same round
// starts at: their data is worked on as soon as it is in.
func (b *builder) markWhole() {
	for i := range b.s.ends {
		lo, hi := b.s.bounds(i)
		for j := lo; j < hi; j++ {
			if b.s.steps[j].kind != stRecv {
				continue
			}
			for k := lo; k < hi; k++ {
				if rd := &b.s.steps[k]; rd.kind == stReduce && (rd.a == b.s.steps[j].a || rd.b == b.s.steps[j].a) {
					b.s.steps[j].whole = true
				}
			}
		}
	}
}

// add is p advanced by off bytes, for offsets inside a buffer (scratch the
// schedule sized itself); piece is for a piece that may be empty at the end.
func add(p unsafe.Pointer, off int) unsafe.Pointer {
	if p == nil {
		return nil
	}
	return unsafe.Add(p, off)
}

// piece is the address of n bytes (or elements) at off from p: nil when n is
// 0, since an empty piece may start just past p's allocation, where Go does
// not let a pointer point (the collector may take it for a bad pointer).
func piece(p unsafe.Pointer, off, n int) unsafe.Pointer {
	if n == 0 {
		return nil
	}
	return add(p, off)
}

// rel and abs convert between ranks and ranks relative to a root.
func rel(r, root, n int) int { return (r - root + n) % n }
func abs(v, root, n int) int { return (v + root) % n }

// pof2 is the largest power of two not above n.
func pof2(n int) int {
	p := 1
	for p*2 <= n {
		p *= 2
	}
	return p
}
