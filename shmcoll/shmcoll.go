// Package shmcoll runs small collectives of processes on one node straight
// through shared memory: every process has a counter on its own cache line
// and two data slots (used on alternate calls), so a barrier is one store
// and a poll per peer, and a small broadcast or allreduce costs one copy in
// and one copy out per process instead of messages through the rings.
//
// Counters count the collectives a process has arrived at. Arriving at call
// s+1 means a process finished reading call s, so a writer of call s (slot
// parity s%2) first waits until every member has arrived at call s-1: then
// nobody still reads the data of call s-2 in that slot.
//
// An area serves one communicator at a time for each process; communicators
// whose groups are disjoint may share an area because each process only
// touches its own counter and slots.
package shmcoll

import (
	"sync/atomic"
	"unsafe"
)

const lineSize = 64

// MaxGroup is the largest group that runs collectives through an area
// (mpi and the segment's big slots both follow it).
const MaxGroup = 64

// Depth is how many calls' data slots each process has: a broadcast root or
// reducing rank may run that many calls ahead of the slowest reader.
const Depth = 32

// TinyMax is the largest contribution kept in a tiny slot: one cache line,
// TinyDepth calls deep, so a broadcast root or reducing ranks run far ahead
// on small data. Each time they must wait for the slowest reader an
// oversubscribed core switches process (1-5 us here); 4 ranks on 2 cores,
// bcast of 1 B: 0.43 us per call 32 calls deep, 0.16 at 128.
const TinyMax = lineSize

// TinyDepth is how many calls' tiny slots each process has.
const TinyDepth = 256

// AreaSize is the bytes of shared memory one area needs for nlocal processes
// with slot bytes of data each.
func AreaSize(nlocal, slot int) int {
	return claimsOffset(nlocal, slot) + (nlocal*nlocal*8+lineSize-1)/lineSize*lineSize
}

// claimsOffset is where the area's claim words start, after the slots: one
// per pair of processes (see shareBlocks).
func claimsOffset(nlocal, slot int) int {
	return nlocal*lineSize + TinyDepth*nlocal*lineSize + Depth*nlocal*slot
}

// BigDepth is how many calls' big slots each process has, so a broadcast
// root or reducing rank may run that many calls ahead with big data too
// (4 ranks on 2 cores, 16 KiB broadcasts: 3.9 us with two big slots, 2.8
// with eight, 1.8 with 32).
const BigDepth = 8

// BigSize is the bytes of shared memory big slots of big bytes need.
func BigSize(nlocal, big int) int { return BigDepth * nlocal * big }

// Area is one area of shared memory (zeroed when the segment was made).
type Area struct {
	base    unsafe.Pointer
	nlocal  int
	slot    int
	bigBase unsafe.Pointer // BigSize(nlocal, big) bytes, or nil
	big     int
}

// NewArea describes the area at base.
func NewArea(base unsafe.Pointer, nlocal, slot int) *Area {
	return &Area{base: base, nlocal: nlocal, slot: slot}
}

// SetBig gives the area big slots of big bytes at base (BigSize bytes).
func (a *Area) SetBig(base unsafe.Pointer, big int) {
	a.bigBase, a.big = base, big
}

// Max is the largest contribution per process the area takes.
func (a *Area) Max() int { return max(a.slot, a.big) }

func (a *Area) counter(local int) *uint64 {
	return (*uint64)(unsafe.Add(a.base, local*lineSize))
}

// InlineMax is the largest contribution of a synchronizing collective
// (allreduce, allgather) kept on the counter's own cache line, in two
// 8-aligned halves used on alternate calls, so a reader gets counter and
// data in one line transfer. Broadcasts and reductions to a root always use
// the tiny or Depth slots, so their roots can run ahead.
const InlineMax = 24

// inlineOffset is where the inline halves start on a counter line, after
// the 8-byte counter.
const inlineOffset = 8

// CPUHintOffset is where on its counter line a process notes the CPU it last
// arrived from (written by the C side when processes outnumber cores; see
// capi/shmcoll.h). The inline halves end before it.
const CPUHintOffset = 56

// DoneOffset is where on its counter line a process counts the copies
// from or to its buffers done in a direct collective (pushBlocks); the CPU
// hint ends before it.
const DoneOffset = 60

func (a *Area) done(local int) *uint32 {
	return (*uint32)(unsafe.Add(a.base, local*lineSize+DoneOffset))
}

// claim is the word by which a rank claims the copy of process from's
// block for process to.
func (a *Area) claim(from, to int) *uint64 {
	return (*uint64)(unsafe.Add(a.base, claimsOffset(a.nlocal, a.slot)+(to*a.nlocal+from)*8))
}

// inline reports whether call s's data of n bytes rides on the counter line.
func inline(n int, sync bool) bool { return sync && n <= InlineMax }

func (a *Area) data(s uint64, local, n int, sync bool) unsafe.Pointer {
	if inline(n, sync) {
		return unsafe.Add(a.base, local*lineSize+inlineOffset+int(s%2)*InlineMax)
	}
	tiny := a.nlocal * lineSize
	if n <= TinyMax {
		return unsafe.Add(a.base, tiny+(int(s%TinyDepth)*a.nlocal+local)*lineSize)
	}
	if n > a.slot {
		return unsafe.Add(a.bigBase, (int(s%BigDepth)*a.nlocal+local)*a.big)
	}
	slots := tiny + TinyDepth*a.nlocal*lineSize
	return unsafe.Add(a.base, slots+(int(s%Depth)*a.nlocal+local)*a.slot)
}

// Counter is the current counter of a local process (exchanged when a group
// forms, because an earlier communicator may have left it anywhere).
func (a *Area) Counter(local int) uint64 { return atomic.LoadUint64(a.counter(local)) }

// Group is one communicator's use of an area.
type Group struct {
	a      *Area
	locals []int    // node-local index of each rank
	bases  []uint64 // each rank's counter when the group formed
	me     int
	seq    *uint64 // calls made so far (may live in C memory: ShareSeq)
	stats  *Calls  // statistics (count.go)
	// Wait is called while a poll finds nothing; it should drive other
	// progress and give the core away when processes outnumber cores.
	Wait func(spins *int)
	// AllreduceBlocks: from this many bytes (0: never) an allreduce folds
	// by blocks, each rank one, and gathers them in a second call.
	AllreduceBlocks int
	// CPU, set when processes outnumber cores, names the CPU this process
	// runs on; a wait then skips Wait while no rank last seen on that CPU
	// is behind (SpinMax polls at most per wait), as the C side does.
	CPU     func() int32
	SpinMax int
}

// NewGroup joins ranks (node-local indexes locals, counters bases) as rank me.
func NewGroup(a *Area, locals []int, bases []uint64, me int, wait func(*int)) *Group {
	return &Group{a: a, locals: locals, bases: bases, me: me, seq: new(uint64), stats: new(Calls), Wait: wait}
}

// ShareSeq moves the call counter to *p, where a second implementation of
// the same protocol (the library's C fast path) counts calls too.
func (g *Group) ShareSeq(p *uint64) {
	*p = *g.seq
	g.seq = p
}

// Layout is what a C implementation of the protocol needs.
type Layout struct {
	Base            unsafe.Pointer
	NLocal, Slot    int
	BigBase         unsafe.Pointer
	Big             int
	Locals          []int
	Bases           []uint64
	Me              int
	AllreduceBlocks int
}

// Layout exposes the group's memory and membership.
func (g *Group) Layout() Layout {
	a := g.a
	return Layout{Base: a.base, NLocal: a.nlocal, Slot: a.slot, BigBase: a.bigBase, Big: a.big,
		Locals: g.locals, Bases: g.bases, Me: g.me, AllreduceBlocks: g.AllreduceBlocks}
}

// next takes the number of the next call.
func (g *Group) next() uint64 {
	s := *g.seq
	*g.seq = s + 1
	return s
}

// Size is the number of ranks.
func (g *Group) Size() int { return len(g.locals) }

// Max is the largest contribution per rank.
func (g *Group) Max() int { return g.a.Max() }

// arrived reports whether rank r has arrived at call s (counting from 0).
func (g *Group) arrived(r int, s uint64) bool { return g.calls(r) > s }

func (g *Group) hint(local int) *int32 {
	return (*int32)(unsafe.Add(g.a.base, local*lineSize+CPUHintOffset))
}

// calls is how many calls rank r has arrived at.
func (g *Group) calls(r int) uint64 {
	return atomic.LoadUint64(g.a.counter(g.locals[r])) - g.bases[r]
}

// neighbourBehind reports that a rank last seen on this CPU has arrived at
// fewer calls than this one: only then does giving the core away help.
func (g *Group) neighbourBehind() bool {
	cpu, mine := g.CPU(), g.calls(g.me)
	for q, l := range g.locals {
		if q != g.me && atomic.LoadInt32(g.hint(l)) == cpu && g.calls(q) < mine {
			return true
		}
	}
	return false
}

// spin reports that a wait may poll again without calling Wait; spun
// counts such polls (nobody behind now means nobody later: ranks only catch
// up).
func (g *Group) spin(spun *int) bool {
	switch {
	case g.CPU == nil || *spun >= g.SpinMax:
		return false
	case *spun > 0 || !g.neighbourBehind():
		*spun++
		pause()
		return true
	}
	return false
}

// waiting is one wait's state, as the C side's struct gompi_shm_waiting:
// Wait's count of fruitless polls and the pauses spun instead.
type waiting struct{ spins, spun int }

// idle is one fruitless poll of a wait: a pause while spin allows it, else
// Wait.
func (g *Group) idle(w *waiting) {
	if !g.spin(&w.spun) {
		g.Wait(&w.spins)
	}
}

func (g *Group) waitFor(r int, s uint64) {
	var w waiting
	for !g.arrived(r, s) {
		g.idle(&w)
	}
}

// WaitArrived waits until rank r (every rank when r < 0) has arrived at
// call s; a second implementation of the protocol hands its long waits here.
func (g *Group) WaitArrived(r int, s uint64) {
	if r >= 0 {
		g.waitFor(r, s)
		return
	}
	g.waitAll(s)
}

// waitAll waits for every other rank to arrive at call s, with one spin
// budget for the whole wait, as the C side.
func (g *Group) waitAll(s uint64) { g.eachArrived(s, nil) }

// eachArrived waits for every other rank to arrive at call s and calls f
// (when not nil) for each as soon as it has, in whatever order they come.
func (g *Group) eachArrived(s uint64, f func(r int)) {
	var w waiting
	done := uint64(1) << g.me // a bit per rank (MaxGroup is 64)
	all := ^uint64(0) >> (MaxGroup - len(g.locals))
	for done != all {
		found := false
		for r := range g.locals {
			if done&(1<<r) == 0 && g.arrived(r, s) {
				if f != nil {
					f(r)
				}
				done |= 1 << r
				found = true
			}
		}
		if !found {
			g.idle(&w)
		}
	}
}

// slotFree waits until nobody still reads the data of the last call that
// used call s's place: s-2 on the counter line, s-TinyDepth in the tiny
// slots, s-BigDepth in the big slots, s-Depth in the slots. (Arriving at call t means a rank finished
// reading every call before t.)
func (g *Group) slotFree(s uint64, n int, sync bool) {
	d := uint64(Depth)
	switch {
	case inline(n, sync):
		d = 2
	case n <= TinyMax:
		d = TinyDepth
	case n > g.a.slot:
		d = BigDepth
	}
	if s >= d {
		g.waitAll(s - d + 1)
	}
}

func (g *Group) arrive(s uint64) {
	if g.CPU != nil {
		atomic.StoreInt32(g.hint(g.locals[g.me]), g.CPU())
	}
	atomic.StoreUint64(g.a.counter(g.locals[g.me]), g.bases[g.me]+s+1)
}

func (g *Group) mine(s uint64, n int, sync bool) unsafe.Pointer {
	return g.a.data(s, g.locals[g.me], n, sync)
}

func (g *Group) of(r int, s uint64, n int, sync bool) unsafe.Pointer {
	return g.a.data(s, g.locals[r], n, sync)
}

func bytes(p unsafe.Pointer, n int) []byte { return unsafe.Slice((*byte)(p), n) }

// post starts a call with a contribution: once its place is free, the n
// bytes at send go there and the caller arrives. It returns the call number.
func (g *Group) post(send unsafe.Pointer, n int, sync bool) uint64 {
	s := g.next()
	g.slotFree(s, n, sync)
	copy(bytes(g.mine(s, n, sync), n), bytes(send, n))
	g.arrive(s)
	return s
}

// Fence marks the end of the group's use of the area: the caller arrives at
// one more call and does not wait (MPI_Comm_free must not block).
func (g *Group) Fence() {
	g.arrive(g.next())
}

// Drained reports that every rank has reached the fence, so nobody reads
// the area on this group's behalf any more.
func (g *Group) Drained() bool {
	for r := range g.locals {
		if !g.arrived(r, *g.seq-1) {
			return false
		}
	}
	return true
}

// Barrier returns once every rank has called it.
func (g *Group) Barrier() {
	g.stats[AlgSlots][CountBarrier]++
	g.barrier()
}

func (g *Group) barrier() {
	s := g.next()
	g.arrive(s)
	g.waitAll(s)
}

// Bcast copies n bytes of buf at root to buf everywhere. More than Max
// goes as one call per Max bytes: the root fills the next slots while the
// readers empty the first, so both copies run at once.
func (g *Group) Bcast(buf unsafe.Pointer, n, root int) {
	g.stats[AlgSlots][CountBcast]++
	g.perCall(n, 1, func(at, k int) { g.bcast(unsafe.Add(buf, at), k, root) })
}

// perCall splits count elements of size bytes into runs of whole elements
// of at most Max bytes and calls f with each run's first element and
// length, at least once (an empty call is still a call every rank makes).
// Data that fits one call costs no division.
func (g *Group) perCall(count, size int, f func(at, k int)) {
	c := count
	if count*size > g.a.Max() {
		c = max(g.a.Max()/size, 1) // callers keep elements within Max
	}
	at := 0
	for ; count-at > c; at += c {
		f(at, c)
	}
	f(at, count-at)
}

// bcast is one call of Bcast (n <= Max).
func (g *Group) bcast(buf unsafe.Pointer, n, root int) {
	s := g.next()
	if g.me == root {
		g.slotFree(s, n, false)
		copy(bytes(g.mine(s, n, false), n), bytes(buf, n))
		g.arrive(s)
		return
	}
	g.arrive(s)
	g.waitFor(root, s)
	copy(bytes(buf, n), bytes(g.of(root, s, n, false), n))
}

// Reducer combines count elements: inout = in op inout.
type Reducer func(in, inout unsafe.Pointer, count int)

// Into writes count elements of a op b to out (overlapping neither) and
// reports whether it could.
type Into func(a, b, out unsafe.Pointer, count int) bool

// Fold is a reduction as the group applies it: Op, and Into when the op
// has a one-pass form (nil: none), with which a fold starts instead of a
// copy and Op.
type Fold struct {
	Op   Reducer
	Into Into
}

// Allreduce leaves in recv the reduction of every rank's count elements of
// size bytes at send, combined in rank order (the same bits on every rank,
// and right for non-commutative operations). From AllreduceBlocks bytes
// each rank folds only its block (Block) into its place of a second call
// and everyone gathers the blocks: the ranks share the folding instead of
// each doing all of it.
//
// More than Max bytes go as one such call per Max bytes of whole elements.
func (g *Group) Allreduce(send, recv unsafe.Pointer, count, size int, f Fold) {
	g.stats[AlgSlots][CountAllreduce]++
	g.perCall(count, size, func(at, k int) {
		g.allreduce(unsafe.Add(send, at*size), unsafe.Add(recv, at*size), k, size, f)
	})
}

// allreduce is one call of Allreduce (count*size <= Max).
func (g *Group) allreduce(send, recv unsafe.Pointer, count, size int, f Fold) {
	n := count * size
	s := g.post(send, n, true)
	g.waitAll(s)
	if n == 0 {
		return
	}
	if g.AllreduceBlocks == 0 || n < g.AllreduceBlocks {
		g.fold(s, recv, count, n, true, f)
		return
	}
	p := len(g.locals)
	bmax := (count + p - 1) / p * size
	first, k := Block(count, p, g.me)
	t := g.next()
	g.slotFree(t, bmax, true)
	if k > 0 {
		g.foldPart(s, g.mine(t, bmax, true), n, true, first*size, k, k*size, nil, f)
	}
	g.arrive(t)
	g.waitAll(t)
	for r := range p {
		first, k := Block(count, p, r)
		copy(bytes(unsafe.Add(recv, first*size), k*size), bytes(g.of(r, t, bmax, true), k*size))
	}
}

// Block is rank r's share of count elements split p ways: its first
// element and how many.
func Block(count, p, r int) (first, k int) {
	q, rem := count/p, count%p
	return r*q + min(r, rem), q + btoi(r < rem)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fold computes x0 op (x1 op (... op x_{p-1})) into recv.
func (g *Group) fold(s uint64, recv unsafe.Pointer, count, n int, sync bool, f Fold) {
	g.foldPart(s, recv, n, sync, 0, count, n, nil, f)
}

// foldPart folds count elements of n-byte contributions from byte off on;
// the caller's own contribution is at own when that is not nil.
func (g *Group) foldPart(s uint64, recv unsafe.Pointer, n int, sync bool, off, count, bytesPart int,
	own unsafe.Pointer, f Fold) {
	src := func(r int) unsafe.Pointer {
		if r == g.me && own != nil {
			return unsafe.Add(own, off)
		}
		return unsafe.Add(g.of(r, s, n, sync), off)
	}
	last := len(g.locals) - 1
	next := last - 1
	if f.Into == nil || !f.Into(src(next), src(last), recv, count) {
		copy(bytes(recv, bytesPart), bytes(src(last), bytesPart))
		next = last
	}
	for r := next - 1; r >= 0; r-- {
		f.Op(src(r), recv, count)
	}
}

// ReduceScatter posts every rank's vector (counts[r] elements of size
// bytes for rank r, blocks back to back) and leaves in recv the reduction
// of the caller's block only: each rank folds its own block, so the ranks
// share the work. Each call carries the next piece elements of every
// block: all of them when the vector fits one call (then the call holds the
// vector as it is), else Piece, so every rank folds in every call. recv may
// be send (in place): a call writes no element a later call still posts.
func (g *Group) ReduceScatter(send, recv unsafe.Pointer, counts []int, size int, f Fold) {
	g.stats[AlgSlots][CountReduceScatter]++
	total, longest := 0, 0
	for _, k := range counts {
		total += k
		longest = max(longest, k)
	}
	mine, piece := counts[g.me], longest
	if total*size > g.a.Max() {
		piece = g.Piece(size)
	}
	for at := 0; at < longest; at += piece {
		n, off := 0, 0
		for r, k := range counts {
			if r == g.me {
				off = n
			}
			n += clamp(k-at, piece) * size
		}
		s := g.next()
		g.slotFree(s, n, true)
		dst, block := g.mine(s, n, true), send
		if piece == longest { // every block whole: the vector as it is
			copy(bytes(dst, n), bytes(block, n))
		} else {
			for _, k := range counts {
				l := clamp(k-at, piece) * size
				copy(bytes(dst, l), bytes(unsafe.Add(block, at*size), l))
				dst, block = unsafe.Add(dst, l), unsafe.Add(block, k*size)
			}
		}
		g.arrive(s)
		g.waitAll(s)
		if l := clamp(mine-at, piece); l > 0 {
			g.foldPart(s, unsafe.Add(recv, at*size), n, true, off, l, l*size, nil, f)
		}
	}
}

// Piece is how many elements of size bytes of each rank's block one call
// of a large ReduceScatter carries (0: elements too big for that).
func (g *Group) Piece(size int) int { return g.a.Max() / (size * len(g.locals)) }

// clamp is k limited to [0, most].
func clamp(k, most int) int { return max(0, min(k, most)) }

// Reduce is Allreduce with the result at root only. Nobody reads the
// root's contribution but the root: it stays where it is, unless send is
// recv (in place), which the fold overwrites.
//
// More than Max bytes go as one call per Max bytes (whole elements), so the
// other ranks fill slots while the root folds.
func (g *Group) Reduce(send, recv unsafe.Pointer, count, size, root int, f Fold) {
	g.stats[AlgSlots][CountReduce]++
	g.perCall(count, size, func(at, k int) {
		r := recv
		if r != nil { // nil off the root
			r = unsafe.Add(recv, at*size)
		}
		g.reduce(unsafe.Add(send, at*size), r, k, size, root, f)
	})
}

// reduce is one call of Reduce (count*size <= Max).
func (g *Group) reduce(send, recv unsafe.Pointer, count, size, root int, f Fold) {
	n := count * size
	if g.me != root {
		g.post(send, n, false)
		return
	}
	if send == recv {
		s := g.post(send, n, false)
		g.waitAll(s)
		g.fold(s, recv, count, n, false, f)
		return
	}
	s := g.next()
	g.arrive(s)
	g.waitAll(s)
	g.foldPart(s, recv, n, false, 0, count, n, send, f)
}

// Allgather places every rank's n bytes at send into recv in rank order;
// the caller's own block comes from send while the others arrive.
func (g *Group) Allgather(send, recv unsafe.Pointer, n int) {
	g.stats[AlgSlots][CountAllgather]++
	s := g.post(send, n, true)
	own := unsafe.Add(recv, g.me*n)
	if own != send {
		copy(bytes(own, n), bytes(send, n))
	}
	g.waitAll(s)
	for r := range g.locals {
		if r != g.me {
			copy(bytes(unsafe.Add(recv, r*n), n), bytes(g.of(r, s, n, true), n))
		}
	}
}

// Alltoall sends block r (n bytes) of send to rank r: recv gets, in rank
// order, the block every rank addressed to the caller. The whole send
// buffer (n times the size) must fit a slot. send may equal recv. The block
// a rank sends itself, which nobody else reads, goes straight across.
func (g *Group) Alltoall(send, recv unsafe.Pointer, n int) {
	g.stats[AlgSlots][CountAlltoall]++
	total := n * len(g.locals)
	own := g.me * n
	s := g.next()
	g.slotFree(s, total, true)
	mine := g.mine(s, total, true)
	copy(bytes(mine, own), bytes(send, own))
	if rest := total - own - n; rest > 0 { // the last rank has none: no pointer past send
		copy(bytes(unsafe.Add(mine, own+n), rest), bytes(unsafe.Add(send, own+n), rest))
	}
	g.arrive(s)
	if send != recv {
		copy(bytes(unsafe.Add(recv, own), n), bytes(unsafe.Add(send, own), n))
	}
	g.waitAll(s)
	for r := range g.locals {
		if r != g.me {
			copy(bytes(unsafe.Add(recv, r*n), n), bytes(unsafe.Add(g.of(r, s, total, true), own), n))
		}
	}
}
