// Package sm is the shared-memory transport: one segment per node holding a
// single-producer ring for every ordered pair of local processes, a control
// block per process (futex doorbell for sleeping receivers), and single copy
// for large messages with process_vm_readv (CMA), probed per peer at startup.
package sm

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"gompi/btl"
	"gompi/btl/shmring"
	"gompi/shmcoll"
)

// SingleCopy selects the use of CMA.
type SingleCopy int

const (
	SingleCopyAuto SingleCopy = iota // probe, then follow the measured thresholds
	SingleCopyOn                     // always get for rendezvous when the probe succeeded
	SingleCopyOff                    // never: copy-in/copy-out only
)

// Config describes this process's place among the node's processes.
type Config struct {
	JobID      string
	Me         int   // my world rank
	WorldSize  int   // number of world ranks
	LocalRanks []int // world ranks on this node, ascending; LocalRanks[0] is the leader
	RingSize   int   // bytes of data per ring; 0 picks by process count
	SingleCopy SingleCopy
	// GetMin is the smallest message that prefers single copy, for peers on
	// the same socket and on another socket (measured by gompirun --tune).
	GetMinSameSocket, GetMinCrossSocket int
	SameSocket                          func(peer int) bool
	// SlowGetMin is the smallest message that goes by single copy while
	// our copies into the peer's ring run slow (see copyclock.go); 0 turns
	// the timing off.
	SlowGetMin int
	// SharedGetMin is the smallest message a peer reads straight from our
	// shared heap (heap.go) rather than through the ring; 0 never.
	SharedGetMin int
	// Dir, when set, holds the segment as an unnamed file (a tmpfs, whose
	// size then bounds it); by default it is a memfd (segment.go).
	Dir string
	// Segment locates the leader's segment: Prepare sets it on the leader,
	// which publishes it; the others set it before Open.
	Segment string
	// Ptracer is the process that may read our memory where Yama restricts
	// it: the node's common ancestor of the job's processes (0: our parent).
	Ptracer int
	segFD   int // the leader's descriptor of the segment, until all attached
}

// DefaultRingSize scales the rings down as the node fills so the segment stays
// a few hundred MiB at most.
func DefaultRingSize(nlocal int) int {
	size := 2 << 20
	for size > 64<<10 && nlocal*nlocal*size > 256<<20 {
		size >>= 1
	}
	return size
}

// Prepare creates the node's segment and sets cfg.Segment; only the leader
// calls it, before the exchange that tells the others where it is.
func Prepare(cfg *Config) error {
	if cfg.LocalRanks[0] != cfg.Me {
		return nil
	}
	if cfg.RingSize == 0 {
		cfg.RingSize = DefaultRingSize(len(cfg.LocalRanks))
	}
	n := len(cfg.LocalRanks)
	fd, l, err := createSegment(cfg.Dir, n, layout{ring: cfg.RingSize, big: collBigFor(n)})
	if err != nil {
		return err
	}
	cfg.RingSize, cfg.segFD = l.ring, fd
	cfg.Segment = Locator(os.Getpid(), fd)
	return nil
}

// Module is the sm transport of one process.
type Module struct {
	cfg     Config
	seg     *segment
	me      int   // my local index
	local   []int // world rank -> local index, -1 when not on this node
	world   []int // local index -> world rank
	prod    []*shmring.Producer
	cons    []*shmring.Consumer
	peerCtl []*ctlBlock
	myCtl   *ctlBlock
	pids    []int
	canGet  []bool
	heaps   []peerHeap
	same    []bool
	handler btl.Handler
	probe   *uint64
	maxRec  int
	clock   copyClock
	states  []byte // ring positions, outside the Go heap (the C fast path drives them too)
	// extra reports records waiting on other shared rings that ring our
	// doorbell (pairs with processes of other jobs, pair.go).
	extra func() bool
}

// FastPeer is what a C implementation of the ring protocol needs to send to
// and receive from one local peer.
type FastPeer struct {
	Out, In            Ring
	Sleeping, Doorbell *uint32
	// OutSlow is our verdict on copies into Out (shmring's SlowWord).
	OutSlow *uint32
}

// Ring describes one end of a ring: its data, size, the shared consumer
// position and this process's private position.
type Ring struct {
	Data  unsafe.Pointer
	Size  uint64
	Tail  *uint64
	State *shmring.State
}

// Fast returns the rings to and from peer (a world rank on this node).
func (m *Module) Fast(peer int) FastPeer {
	li := m.local[peer]
	var f FastPeer
	f.Out.Data, f.Out.Size, f.Out.Tail, f.Out.State = m.prod[li].Layout()
	f.In.Data, f.In.Size, f.In.Tail, f.In.State = m.cons[li].Layout()
	f.Sleeping, f.Doorbell = &m.peerCtl[li].sleeping, &m.peerCtl[li].doorbell
	f.OutSlow = m.prod[li].SlowWord()
	return f
}

// Open attaches to the node's segment after the leader created it.
func Open(cfg Config, h btl.Handler) (*Module, error) {
	n := len(cfg.LocalRanks)
	seg, err := attachSegment(cfg.Segment, n)
	if cfg.LocalRanks[0] == cfg.Me {
		// Every other process has the segment open once it is ready, so
		// Open's wait for the peers is where the leader lets go of it.
		defer unix.Close(cfg.segFD)
	}
	if err != nil {
		return nil, err
	}
	m := &Module{cfg: cfg, seg: seg, handler: h, local: make([]int, cfg.WorldSize), world: cfg.LocalRanks}
	for i := range m.local {
		m.local[i] = -1
	}
	for i, r := range cfg.LocalRanks {
		m.local[r] = i
		if r == cfg.Me {
			m.me = i
		}
	}
	m.prod = make([]*shmring.Producer, n)
	m.cons = make([]*shmring.Consumer, n)
	m.peerCtl = make([]*ctlBlock, n)
	m.pids = make([]int, n)
	m.canGet = make([]bool, n)
	m.heaps = make([]peerHeap, n)
	m.same = make([]bool, n)
	stSize := int(unsafe.Sizeof(shmring.State{}))
	m.states, err = unix.Mmap(-1, 0, max(2*n*stSize, 4096), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		seg.unmap()
		return nil, fmt.Errorf("sm: state memory: %w", err)
	}
	for i := 0; i < n; i++ {
		ps := (*shmring.State)(unsafe.Pointer(&m.states[2*i*stSize]))
		cs := (*shmring.State)(unsafe.Pointer(&m.states[(2*i+1)*stSize]))
		m.prod[i], _ = shmring.Attach(seg.ring(i, m.me), seg.ringSize, ps, nil)
		_, m.cons[i] = shmring.Attach(seg.ring(m.me, i), seg.ringSize, nil, cs)
		m.peerCtl[i] = seg.ctl(i)
		if cfg.SameSocket != nil {
			m.same[i] = cfg.SameSocket(cfg.LocalRanks[i])
		}
	}
	m.maxRec = m.prod[0].MaxRecord()
	if cfg.SingleCopy == SingleCopyAuto {
		m.clock = newCopyClock(cfg.SlowGetMin)
	}
	m.myCtl = seg.ctl(m.me)
	m.probe = new(uint64)
	*m.probe = probeValue
	// Under Yama (ptrace_scope 1) only ancestors may read our memory, and the
	// ranks are siblings: name their common ancestor (the launcher), which
	// admits it and its descendants, the job's processes, and no one else;
	// only when single copy may read us. Without Yama the call fails harmlessly.
	if cfg.SingleCopy != SingleCopyOff {
		tracer := cfg.Ptracer
		if tracer <= 0 {
			tracer = os.Getppid()
		}
		unix.Prctl(unix.PR_SET_PTRACER, uintptr(tracer), 0, 0, 0)
	}
	m.myCtl.pid = int32(os.Getpid())
	m.myCtl.probe = uint64(uintptr(unsafe.Pointer(m.probe)))
	m.myCtl.heapFD = int32(localHeap.fd)
	m.myCtl.heapBase, m.myCtl.heapSize = uint64(localHeap.base), uint64(localHeap.size)
	atomic.StoreUint32(&m.myCtl.ready, 1)
	if err := m.probePeers(); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

// probePeers waits for every local process to publish its control block and
// tries one single-copy read from each.
func (m *Module) probePeers() error {
	deadline := time.Now().Add(60 * time.Second)
	for i, c := range m.peerCtl {
		for atomic.LoadUint32(&c.ready) == 0 {
			if time.Now().After(deadline) {
				return fmt.Errorf("sm: local rank %d never attached", m.world[i])
			}
			time.Sleep(20 * time.Microsecond)
		}
		m.pids[i] = int(c.pid)
		if m.cfg.SingleCopy == SingleCopyOff {
			continue
		}
		var v uint64
		err := cmaRead(m.pids[i], unsafe.Pointer(&v), 8, uintptr(c.probe))
		m.canGet[i] = err == nil && v == probeValue
		if m.canGet[i] && i != m.me {
			m.heaps[i] = peerHeap{pid: m.pids[i], heapRange: heapRange{fd: int(c.heapFD), base: uintptr(c.heapBase), size: uintptr(c.heapSize)}}
		}
	}
	return nil
}

func (m *Module) Name() string { return "sm" }

// EagerLimit is bounded by the ring so a record always fits.
func (m *Module) EagerLimit() int { return m.maxRec }

// CollArea is collective area i of the node segment; area 0 has big slots.
func (m *Module) CollArea(i int) *shmcoll.Area {
	a := shmcoll.NewArea(m.seg.collArea(i), len(m.world), CollSlot)
	if big := m.seg.bigSlot; i == 0 && big > 0 {
		a.SetBig(m.seg.collBig(), big)
	}
	return a
}

// LocalIndex is peer's index among the node's processes (-1 when elsewhere,
// or when peer is a process of another job: an endpoint past the world).
func (m *Module) LocalIndex(peer int) int {
	if peer >= len(m.local) {
		return -1
	}
	return m.local[peer]
}

// Reaches tells whether peer is on this node (false for an endpoint past
// the world: a process of another job).
func (m *Module) Reaches(peer int) bool { return peer < len(m.local) && m.local[peer] >= 0 }

// SendI copies the header and payload straight into the peer's ring.
func (m *Module) SendI(peer int, tag uint8, hdr unsafe.Pointer, hdrLen int, payload unsafe.Pointer, n int) bool {
	li := m.local[peer]
	p := m.prod[li]
	b := p.Reserve(hdrLen + n)
	if b == nil {
		return false
	}
	copy(unsafe.Slice((*byte)(b), hdrLen), unsafe.Slice((*byte)(hdr), hdrLen))
	if n > 0 {
		dst, src := unsafe.Slice((*byte)(unsafe.Add(b, hdrLen)), n), unsafe.Slice((*byte)(payload), n)
		if m.clock.from > 0 && n >= m.clock.from && m.clock.sample(p) {
			t := time.Now()
			copy(dst, src)
			p.NoteCopy(m.clock.slow(time.Since(t), n))
		} else {
			copy(dst, src)
		}
	}
	p.Commit(hdrLen+n, tag)
	// Commit's atomic store orders the record before this load (Dekker with Idle).
	if c := m.peerCtl[li]; atomic.LoadUint32(&c.sleeping) != 0 {
		atomic.AddUint32(&c.doorbell, 1)
		futexWake(&c.doorbell)
	}
	return true
}

func (m *Module) CanGet(peer int) bool { return m.canGet[m.local[peer]] }

func (m *Module) Get(peer int, dst unsafe.Pointer, n int, addr uintptr) error {
	li := m.local[peer]
	if !m.canGet[li] {
		return fmt.Errorf("sm: no single copy to rank %d", peer)
	}
	if m.heaps[li].copyFrom(dst, addr, n) {
		return nil
	}
	return cmaRead(m.pids[li], dst, n, addr)
}

// PeerAt is where peer's [addr, addr+n) lies in this process (its shared
// heap, mapped at first use), nil when it is not there.
func (m *Module) PeerAt(peer int, addr uintptr, n int) unsafe.Pointer {
	li := m.local[peer]
	if !m.canGet[li] {
		return nil
	}
	return m.heaps[li].at(addr, n)
}

// Put writes into peer's memory (the sender's half of a split transfer).
func (m *Module) Put(peer int, src unsafe.Pointer, n int, addr uintptr) error {
	li := m.local[peer]
	if !m.canGet[li] {
		return fmt.Errorf("sm: no single copy to rank %d", peer)
	}
	if m.heaps[li].copyTo(addr, src, n) {
		return nil
	}
	return cmaWrite(m.pids[li], src, n, addr)
}

// PreferredProtocol: single copy only when the probe worked and the message is
// past the measured crossover for the peer's socket; copy-in/copy-out through
// a shared cache wins below it.
func (m *Module) PreferredProtocol(peer int, size int) btl.Protocol {
	li := m.local[peer]
	if !m.canGet[li] {
		return btl.ProtoSend
	}
	switch m.cfg.SingleCopy {
	case SingleCopyOn:
		return btl.ProtoGet
	case SingleCopyOff:
		return btl.ProtoSend
	}
	min := m.cfg.GetMinCrossSocket
	if m.same[li] {
		min = m.cfg.GetMinSameSocket
	}
	if min > 0 && size >= min || size >= m.clock.from && m.SlowCopies(peer) {
		return btl.ProtoGet
	}
	return btl.ProtoSend
}

// SlowCopies reports that our copies into peer's ring run slow, so messages
// from SlowFrom bytes should go by single copy.
func (m *Module) SlowCopies(peer int) bool {
	li := m.local[peer]
	return m.canGet[li] && m.clock.from > 0 && m.prod[li].SlowCopies()
}

// SlowFrom is the smallest message SlowCopies moves to single copy, 0 none.
func (m *Module) SlowFrom() int { return m.clock.from }

// SlowCopyPicos is the copy time per byte above which a copy into a ring
// counts as slow, in picoseconds, for the C fast path's own timing.
func (m *Module) SlowCopyPicos() int { return m.clock.picos }

// Backlog is how many bytes to peer its ring holds unread.
func (m *Module) Backlog(peer int) int { return m.prod[m.local[peer]].Backlog() }

// Progress drains a bounded number of records from every incoming ring.
func (m *Module) Progress() int {
	count := 0
	for i, c := range m.cons {
		if i == m.me {
			continue
		}
		for k := 0; k < 16; k++ {
			body, n, tag, ok := c.Peek()
			if !ok {
				break
			}
			m.handler(m.world[i], tag, unsafe.Slice((*byte)(body), n))
			c.Release(n)
			count++
		}
	}
	return count
}

// Pending reports whether any incoming ring holds a record.
func (m *Module) Pending() bool {
	for i, c := range m.cons {
		if i != m.me && c.Pending() {
			return true
		}
	}
	return m.extra != nil && m.extra()
}

// Idle sleeps until a sender rings the doorbell or d passes. Setting the
// sleeping flag before the final checks pairs with SendI's check after
// commit. The C fast path commits without a fence (capi/fastpath.h): its
// load of the flag may pass its own record store, so a record can become
// visible after it found us awake; it does within a store buffer's drain,
// so we look for records for sleepGrace before sleeping.
func (m *Module) Idle(d time.Duration) { m.idleFrom(atomic.LoadUint32(&m.myCtl.doorbell), d) }

func (m *Module) idleFrom(v uint32, d time.Duration) {
	atomic.AddUint32(&m.myCtl.sleeping, 1) // a count: threads sleep together at MPI_THREAD_MULTIPLE
	for t := time.Now(); ; {
		if m.Pending() {
			atomic.AddUint32(&m.myCtl.sleeping, ^uint32(0))
			return
		}
		if time.Since(t) >= sleepGrace {
			break
		}
	}
	futexWait(&m.myCtl.doorbell, v, d)
	atomic.AddUint32(&m.myCtl.sleeping, ^uint32(0))
}

// sleepGrace: a store buffer drains in well under a microsecond, a few
// dozen cache misses' worth at most; the wait comes only after a long idle
// spin, so this costs nothing measurable.
const sleepGrace = 50 * time.Microsecond

// Close unmaps the segment (the file was unlinked when the last process attached).
func (m *Module) Close() error {
	if m.seg == nil {
		return nil
	}
	for i := range m.heaps {
		m.heaps[i].unmap()
	}
	err := m.seg.unmap()
	m.seg = nil
	return err
}
