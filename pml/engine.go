// Package pml is the ob1-style point-to-point engine: matching, requests,
// protocol choice (immediate, eager, rendezvous by single-copy get or by
// pipelined fragments, synchronous acknowledgements) and progress. It is
// driven by the calling thread inside MPI calls.
package pml

import (
	"time"
	"unsafe"

	"gompi/btl"
	"gompi/internal/mtlock"
)

// Idler is a transport that can put the process to sleep until data arrives.
type Idler interface {
	Idle(d time.Duration)
}

// Config tunes the engine.
type Config struct {
	Me, WorldSize int
	EagerLimit    int // largest payload sent eagerly (capped by each transport)
	FragSize      int // pipelined rendezvous fragment payload
	// Oversubscribed makes waits give the core away quickly.
	Oversubscribed bool
	// SplitMin: single-copy messages of at least this size are copied by
	// both sides at once, the receiver reading the first half while the
	// sender writes the second (0: the receiver copies everything).
	SplitMin int
	// EagerRoom: a message of single-copy size still goes eager while no
	// more than this many bytes are in flight to its peer (0: no limit).
	EagerRoom int
}

// Engine is the point-to-point state of one process.
type Engine struct {
	cfg     Config
	route   []btl.Module // world rank -> transport
	eager   []int        // world rank -> eager payload limit
	getFrom []int        // world rank -> the transport's single-copy crossover (0: none)
	backlog []Backlogger // world rank -> its transport's bytes in flight, nil when unknown
	// slowFrom: world rank -> the size from which its transport's slow-copy
	// verdict (SlowCopier) moves messages to single copy, 0 never.
	slowFrom []int
	slowed   []SlowCopier
	// sharedFrom: world rank -> the size from which a send buffer its
	// transport can read directly (SharedReader) goes by single copy, 0 never.
	sharedFrom []int
	shared     []SharedReader
	slowProbe  uint32
	frag       []int // world rank -> pipeline fragment payload
	// readsOut: world rank -> our single-copy sends it has yet to finish
	// reading. A peer doing that is not asked to copy a split part too.
	readsOut []int32
	modules  []btl.Module
	waits    waitSet // the transports a wait can sleep on (wait.go)
	comms    []*Comm // by context id
	early    []*earlyFrag
	reqs     requestTable
	pendHead *Request // sends waiting for transport room
	pendTail *Request
	ctrlQ    []ctrlMsg
	inProg   bool
	spinMax  int
	yieldMax int
	// pending is 1 while sends or control messages wait for transport room;
	// a C fast path must not spin without calling Progress then.
	pending *int32
	foreign *int32 // receives queued by a C fast path (foreign.go)
	adopt   func()

	// Header scratch: headers are built here, never on the stack, so passing
	// them to a transport interface does not allocate.
	hm *matchHdr
	hr *rndvHdr
	ha *ackHdr
	hf *fragHdr

	pool     unexpPool
	Counters Counters
	hooks    []*Hook       // progress callbacks (hook.go)
	idleCap  time.Duration // longest idle sleep, 0: none (peers.go)
	// KeepAwake > 0: waits never sleep on the idler (SetKeepAwake).
	KeepAwake int
	idlePolls uint32
	lastTick  int64
	part      partEngine
	partCtrl  []partCtrlMsg
	mt        mtWait // MPI_THREAD_MULTIPLE sleepers (multi.go)
}

// Counters are cheap statistics for tests, tuning and MPI_T (plain words of
// one process, bumped where the code already branches by protocol: no
// atomics, no locks). Immediate and eager are counted by the sender;
// single copy (RndvGet, of which SplitAsked were split) and pipelined
// rendezvous by the receiver, which decides between them.
type Counters struct {
	Immediate, Eager, RndvGet, RndvPipe, Unexpected, OutOfOrder uint64
	SplitAsked                                                  uint64 // split single copies requested of a sender
	ImmediateBytes, EagerBytes, RndvGetBytes, RndvPipeBytes     uint64
	SplitBytes                                                  uint64
	PartRuns, PartBytes                                         uint64 // partitioned runs and bytes sent
	WaitNanos                                                   uint64 // time blocked in Wait while TimeWaits
	Queues                                                      QueueStats
}

// QueueStats are the matching queues' lengths over every communicator.
type QueueStats struct {
	Posted, Unexp, UnexpPeak int64
}

type ctrlMsg struct {
	dst int
	tag uint8
	src int32 // for a queued cancel: our rank in the communicator
	a   ackHdr
}

type earlyFrag struct {
	src  int
	tag  uint8
	data []byte
}

// New makes an engine; transports are added with AddTransport.
func New(cfg Config) *Engine {
	if cfg.EagerLimit <= 0 {
		cfg.EagerLimit = 64 << 10 // measured on sm: beats rendezvous up to 64 KiB (docs/performance.md)
	}
	if cfg.FragSize <= 0 {
		cfg.FragSize = 128 << 10
	}
	e := &Engine{cfg: cfg,
		route: make([]btl.Module, cfg.WorldSize), eager: make([]int, cfg.WorldSize),
		getFrom:  make([]int, cfg.WorldSize),
		backlog:  make([]Backlogger, cfg.WorldSize),
		slowFrom: make([]int, cfg.WorldSize), slowed: make([]SlowCopier, cfg.WorldSize),
		sharedFrom: make([]int, cfg.WorldSize), shared: make([]SharedReader, cfg.WorldSize),
		frag: make([]int, cfg.WorldSize), readsOut: make([]int32, cfg.WorldSize),
		hm: new(matchHdr), hr: new(rndvHdr), ha: new(ackHdr), hf: new(fragHdr), pending: new(int32)}
	// Spin, then yield the core, then sleep on the futex. Oversubscribed, a
	// yield hands the core straight to a peer that is runnable on it.
	e.spinMax, e.yieldMax = 20000, 100
	if cfg.Oversubscribed {
		e.spinMax, e.yieldMax = 50, envInt("GOMPI_YIELDS", 2000)
	}
	return e
}

// Handler is the function transports deliver fragments to.
func (e *Engine) Handler() btl.Handler { return e.onFrag }

// AddTransport routes the given world ranks through m.
func (e *Engine) AddTransport(m btl.Module, peers []int) {
	if !e.HasTransport(m) { // dynamic processes route more peers through it later
		e.modules = append(e.modules, m)
	}
	if id, ok := m.(Idler); ok {
		e.waits.add(id)
	}
	if rd, ok := m.(RemoteReader); ok {
		rd.OnRead(e.onReadDone)
	}
	for _, p := range peers {
		e.route[p] = m
		lim := m.EagerLimit() - rndvHdrLen
		e.frag[p] = min(e.cfg.FragSize, lim-fragHdrLen)
		e.eager[p] = min(e.cfg.EagerLimit, lim)
		// Where the transport prefers single copy well below the eager
		// limit, the engine follows it: copying twice through shared memory
		// lost to one copy by the receiver (measured, 2 ranks: bcast of 64 KiB
		// 4.8 us single copy, 7 us eager) but not at the crossover itself
		// (allreduce of 64 KiB exchanges 32 KiB halves: 11 us eager, 16 us
		// single copy), so from 1.5 times the transport's crossover. The C
		// fast path still sends these eagerly when its ring is empty.
		// Oversubscribed too: 4 ranks on 2 cores, 64 KiB blocks, alltoall
		// 55-71 us against 104-136 eager, allgather 66-72 against 94-113
		// (eager won while single-copy reads were ordinary system calls,
		// see btl/sm/cma.go).
		for s := 4 << 10; s <= e.eager[p]; s *= 2 {
			if m.CanGet(p) && m.PreferredProtocol(p, s) == btl.ProtoGet {
				e.getFrom[p] = s
				break
			}
		}
		if b, ok := m.(Backlogger); ok && e.getFrom[p] > 0 && e.cfg.EagerRoom > 0 {
			e.backlog[p] = b
		}
		if sc, ok := m.(SlowCopier); ok && sc.SlowFrom() > 0 && e.getFrom[p] > 0 {
			e.slowFrom[p], e.slowed[p] = sc.SlowFrom(), sc
		}
		if sr, ok := m.(SharedReader); ok && sr.SharedFrom() > 0 && m.CanGet(p) {
			e.sharedFrom[p], e.shared[p] = sr.SharedFrom(), sr
		}
	}
}

// Register makes a communicator's context id live and replays fragments that
// arrived for it before it existed here.
func (e *Engine) Register(c *Comm) {
	for int(c.Ctx) >= len(e.comms) {
		e.comms = append(e.comms, nil)
	}
	e.comms[c.Ctx] = c
	c.qs = &e.Counters.Queues
	if len(e.early) == 0 {
		return
	}
	rest := e.early[:0]
	replay := []*earlyFrag{}
	for _, f := range e.early {
		if (*matchHdr)(unsafe.Pointer(&f.data[0])).ctx == c.Ctx {
			replay = append(replay, f)
		} else {
			rest = append(rest, f)
		}
	}
	e.early = rest
	for _, f := range replay {
		// Fragments from the network were checked before their
		// communicator existed: a rank it does not have is dropped.
		h := (*matchHdr)(unsafe.Pointer(&f.data[0]))
		if h.src < 0 || int(h.src) >= len(c.World) {
			continue
		}
		e.onFrag(f.src, f.tag, f.data)
	}
}

// Unregister frees a context id; the communicator must have no pending traffic.
func (e *Engine) Unregister(c *Comm) {
	if int(c.Ctx) < len(e.comms) && e.comms[c.Ctx] == c {
		e.comms[c.Ctx] = nil
	}
}

// NewRequest returns a fresh request (for upper layers building their own).
func (e *Engine) NewRequest() *Request { return e.reqs.alloc() }

// Release returns a completed request to the free list.
func (e *Engine) Release(r *Request) {
	if r != nil {
		e.reqs.release(r)
	}
}

// Lookup finds a live request by id (C handles carry ids): nil for an id
// whose request completed and was released, even if its slot was reused.
func (e *Engine) Lookup(id uint32) *Request { return e.reqs.lookup(id) }

// complete marks r done. A persistent request stays Active until the user
// collects the completion (Wait/Test), which makes it inactive.
func (e *Engine) complete(r *Request) {
	r.done = true
	if mtlock.On && e.mt.sleepers > 0 {
		e.wakeMT()
	}
	if r.read {
		r.read = false
		e.readsOut[r.dst]--
	}
	if r.exposed {
		e.unexpose(r)
	}
	if r.Freed {
		r.Freed = false
		e.reqs.release(r)
	}
}

// Progress polls every transport once and pushes queued sends. It returns the
// number of events handled; re-entrant calls (from a handler) do nothing.
func (e *Engine) Progress() int {
	if e.inProg {
		return 0
	}
	e.inProg = true
	e.adoptForeign()
	n := 0
	for _, m := range e.modules {
		n += m.Progress()
	}
	if len(e.ctrlQ) > 0 {
		n += e.flushCtrl()
	}
	if e.pendHead != nil {
		n += e.pushPending()
	}
	if len(e.hooks) > 0 {
		n += e.runHooks()
	}
	if e.pendHead == nil && len(e.ctrlQ) == 0 {
		*e.pending = 0
	}
	e.inProg = false
	return n
}

// SetPendingFlag moves the pending flag to p (memory a C fast path can read).
func (e *Engine) SetPendingFlag(p *int32) {
	*p = *e.pending
	e.pending = p
}

// EagerLimit is the eager payload limit towards world rank peer.
func (e *Engine) EagerLimit(peer int) int { return e.eager[peer] }

// SingleCopyFrom is the size from which messages to world rank peer may go
// by single copy (eagerFits), 0 never.
func (e *Engine) SingleCopyFrom(peer int) int { return e.getFrom[peer] }

// SharedFrom is the size from which a send buffer world rank peer can read
// directly goes by single copy, 0 never.
func (e *Engine) SharedFrom(peer int) int { return e.sharedFrom[peer] }

// KeepAwake, while positive, makes waits yield instead of sleeping on the
// idler: work no transport can signal is under way (nonblocking file I/O
// on worker goroutines, mpi/file_async.go).
func (e *Engine) SetKeepAwake(on bool) {
	if on {
		e.KeepAwake++
	} else {
		e.KeepAwake--
	}
}

// TimeWaits makes Wait add the time it blocks to Counters.WaitNanos; set
// only while an MPI_T handle of that timer is started, so waits read no
// clock otherwise.
var TimeWaits bool

// Wait drives progress until r completes.
func (e *Engine) Wait(r *Request) {
	var t time.Time
	timed := TimeWaits && !r.done
	if timed {
		t = time.Now()
	}
	spins := 0
	for !r.done {
		if e.Progress() == 0 {
			e.Backoff(&spins)
		} else {
			spins = 0
		}
	}
	if timed {
		e.Counters.WaitNanos += uint64(time.Since(t))
	}
}

// Backoff is called when a wait loop made no progress: spin a while, then
// give the core away: yield while we have sends stuck on a full ring (the
// peer frees room without waking us), else sleep until a sender rings.
func (e *Engine) Backoff(spins *int) {
	if mtlock.On {
		e.backoffMT(spins)
		return
	}
	*spins++
	if *spins < e.spinMax {
		if e.idlePolls++; e.idlePolls&511 == 0 {
			e.freshTick()
		}
		return
	}
	if *spins < e.spinMax+e.yieldMax || e.waits.empty() || e.pendHead != nil || len(e.ctrlQ) > 0 || e.KeepAwake > 0 {
		// sched_yield alone: runtime.Gosched first woke idle Go threads that
		// then competed for the cores (measured: oversubscribed alltoall of
		// 4 ranks on 2 cores 16-21 us without it, 27-45 us with it)
		osYield()
		return
	}
	d := 5 * time.Millisecond
	if e.cfg.Oversubscribed {
		d = time.Millisecond
	}
	if e.idleCap > 0 {
		d = min(d, e.idleCap)
	}
	e.waits.idle(d)
}

// CompleteNow marks r complete with status s (operations that need no
// transfer, e.g. with MPI_PROC_NULL).
func (e *Engine) CompleteNow(r *Request, s Status) {
	r.Status = s
	r.Active = true
	e.complete(r)
}
