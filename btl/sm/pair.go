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
)

// Pairs is the shared-memory transport to processes of other jobs on this
// node (spawned children and parents, accept/connect, join): one small
// segment per pair of processes, made by the lower pid, holding a ring each
// way. It is a memfd passed over a Unix socket (pair_setup.go), so no kill
// can leave a file behind. Receivers sleep on one doorbell whatever rings
// they wait on: the ctl block of the node segment when the process has one
// (UseBell), else a bell page of its own; each side maps the other's.
// Large messages go by single copy (the probe decides, per pair) or
// pipelined through the ring.
type Pairs struct {
	cfg   PairConfig
	h     btl.Handler
	ln    int // the SOCK_SEQPACKET listener "@gompi-pair-<pid>"
	bell  bellRef
	own   []byte      // our own bell page, when the node segment gives none
	peers []*pairPeer // by endpoint, nil when not ours
	// list holds the pairs, replaced (never changed) as pairs are added:
	// at MPI_THREAD_MULTIPLE a thread sleeping without the lock reads it
	// (Pending) while another adds pairs.
	list atomic.Pointer[[]*pairPeer]
	// waiting: hellos that arrived before this process set up their pair.
	waiting map[uint64]*hello
	fresh   []int // accepted connections whose message has not come yet
	probe   *uint64
	// Frags and Bytes count what we sent through pairs (MPI_T).
	Frags, Bytes uint64
}

// PairConfig tunes the pairs.
type PairConfig struct {
	Pid      uint64 // this process
	RingSize int    // data bytes of each ring; 0: DefaultPairRing
	// GetMin: from this size a message goes by single copy where the
	// probe worked; 0 never.
	GetMin int
	// Off refuses every pair (peers then use btl/sock).
	Off bool
}

// DefaultPairRing: a quarter of it is the largest fragment, so messages up
// to the pml's 64 KiB eager limit fit one record.
const DefaultPairRing = 512 << 10

// bellRef is where a process sleeps: a sleeping count and a doorbell on
// their own cache lines (ctlBlock's first fields), in a file its peers map.
type bellRef struct {
	fd                 int
	off                int64
	sleeping, doorbell *uint32
}

type pairPeer struct {
	ep, pid  int
	mem      []byte // the pair segment
	bellMem  []byte // the page of the peer's bell
	prod     *shmring.Producer
	cons     *shmring.Consumer
	sleeping *uint32
	doorbell *uint32
	canGet   bool
	heap     peerHeap
}

// pairAddr is the abstract socket name of process pid's pair listener.
func pairAddr(pid uint64) string { return fmt.Sprintf("@gompi-pair-%d", pid) }

// NewPairs listens for pairs as process cfg.Pid; h receives fragments.
func NewPairs(cfg PairConfig, h btl.Handler) (*Pairs, error) {
	if cfg.RingSize <= 0 {
		cfg.RingSize = DefaultPairRing
	}
	if cfg.RingSize&(cfg.RingSize-1) != 0 || cfg.RingSize < 4096 {
		return nil, fmt.Errorf("sm: pair ring size %d is not a power of two >= 4096", cfg.RingSize)
	}
	ln, err := unix.Socket(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("sm: pair socket: %w", err)
	}
	if err := unix.Bind(ln, &unix.SockaddrUnix{Name: pairAddr(cfg.Pid)}); err != nil {
		unix.Close(ln)
		return nil, fmt.Errorf("sm: bind %s: %w", pairAddr(cfg.Pid), err)
	}
	if err := unix.Listen(ln, 1024); err != nil {
		unix.Close(ln)
		return nil, fmt.Errorf("sm: pair listen: %w", err)
	}
	p := &Pairs{cfg: cfg, h: h, ln: ln, waiting: map[uint64]*hello{}, bell: bellRef{fd: -1}}
	p.probe = new(uint64)
	*p.probe = probeValue
	if !cfg.Off {
		// As in Open: name the launcher as the process that may read us
		// where Yama restricts it (spawned jobs are its descendants too).
		unix.Prctl(unix.PR_SET_PTRACER, uintptr(os.Getppid()), 0, 0, 0)
	}
	return p, nil
}

// UseBell makes the node segment's doorbell the one pair peers ring, and
// lets its sleeps notice pair records; false when the segment cannot be
// shared (the pairs then keep a bell of their own and must be an Idler).
func (p *Pairs) UseBell(m *Module) bool {
	if m.seg == nil || m.seg.fd < 0 {
		return false
	}
	c := m.myCtl
	p.bell = bellRef{fd: m.seg.fd, off: int64(uintptr(unsafe.Pointer(c)) - uintptr(unsafe.Pointer(&m.seg.mem[0]))),
		sleeping: &c.sleeping, doorbell: &c.doorbell}
	m.extra = p.Pending
	return true
}

// ownBell gives the pairs a bell page of their own (a memfd).
func (p *Pairs) ownBell() error {
	if p.bell.doorbell != nil {
		return nil
	}
	fd, err := unix.MemfdCreate("gompi-bell", unix.MFD_CLOEXEC)
	if err != nil {
		return err
	}
	if err := unix.Ftruncate(fd, 4096); err != nil {
		unix.Close(fd)
		return err
	}
	mem, err := unix.Mmap(fd, 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		unix.Close(fd)
		return err
	}
	c := (*ctlBlock)(unsafe.Pointer(&mem[0]))
	p.own = mem
	p.bell = bellRef{fd: fd, sleeping: &c.sleeping, doorbell: &c.doorbell}
	return nil
}

// mapBell maps the page of a peer's bell (file fd, ctl block at off).
func mapBell(fd int, off int64) ([]byte, *uint32, *uint32, error) {
	if off < 0 || off%ctlBlockSize != 0 {
		return nil, nil, nil, fmt.Errorf("sm: bad bell offset %d", off)
	}
	page := off &^ 4095
	mem, err := unix.Mmap(fd, page, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sm: map the peer's bell: %w", err)
	}
	c := (*ctlBlock)(unsafe.Pointer(&mem[off-page]))
	return mem, &c.sleeping, &c.doorbell, nil
}

// pairSize is the bytes of a pair segment: a ring each way, page-aligned.
func pairSize(ring int) int { return 2 * ringSpan(ring) }

func ringSpan(ring int) int { return (shmring.Size(ring) + 4095) &^ 4095 }

// attach makes the rings of a mapped pair segment; the creator sends on
// ring 0 and receives on ring 1.
func (q *pairPeer) attach(ring int, creator bool) {
	base := unsafe.Pointer(&q.mem[0])
	r0, r1 := base, unsafe.Add(base, ringSpan(ring))
	out, in := r0, r1
	if !creator {
		out, in = r1, r0
	}
	q.prod, _ = shmring.Attach(out, ring, nil, nil)
	_, q.cons = shmring.Attach(in, ring, nil, nil)
}

// add routes endpoint ep through the ready pair q.
func (p *Pairs) add(q *pairPeer) {
	for len(p.peers) <= q.ep {
		p.peers = append(p.peers, nil)
	}
	p.peers[q.ep] = q
	list := append(append([]*pairPeer(nil), p.pairs()...), q)
	p.list.Store(&list)
}

func (p *Pairs) pairs() []*pairPeer {
	if l := p.list.Load(); l != nil {
		return *l
	}
	return nil
}

// Peers is how many pairs are set up.
func (p *Pairs) Peers() int { return len(p.pairs()) }

// Reaches tells whether endpoint ep is served by a pair.
func (p *Pairs) Reaches(ep int) bool { return ep < len(p.peers) && p.peers[ep] != nil }

func (p *Pairs) Name() string { return "sm-pair" }

func (p *Pairs) EagerLimit() int { return p.cfg.RingSize/4 - shmring.HeaderSize }

// SendI copies the fragment into the peer's ring and rings its doorbell if
// it sleeps (the Dekker pairing of Module.SendI and idleFrom).
func (p *Pairs) SendI(peer int, tag uint8, hdr unsafe.Pointer, hdrLen int, payload unsafe.Pointer, n int) bool {
	q := p.peers[peer]
	b := q.prod.Reserve(hdrLen + n)
	if b == nil {
		return false
	}
	copy(unsafe.Slice((*byte)(b), hdrLen), unsafe.Slice((*byte)(hdr), hdrLen))
	if n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Add(b, hdrLen)), n), unsafe.Slice((*byte)(payload), n))
	}
	q.prod.Commit(hdrLen+n, tag)
	p.Frags++
	p.Bytes += uint64(n)
	if atomic.LoadUint32(q.sleeping) != 0 {
		atomic.AddUint32(q.doorbell, 1)
		futexWake(q.doorbell)
	}
	return true
}

func (p *Pairs) CanGet(peer int) bool { return p.peers[peer].canGet }

func (p *Pairs) Get(peer int, dst unsafe.Pointer, n int, addr uintptr) error {
	q := p.peers[peer]
	if !q.canGet {
		return fmt.Errorf("sm: no single copy to endpoint %d", peer)
	}
	if q.heap.copyFrom(dst, addr, n) {
		return nil
	}
	return cmaRead(q.pid, dst, n, addr)
}

// Put writes into peer's memory (the sender's half of a split transfer).
func (p *Pairs) Put(peer int, src unsafe.Pointer, n int, addr uintptr) error {
	q := p.peers[peer]
	if !q.canGet {
		return fmt.Errorf("sm: no single copy to endpoint %d", peer)
	}
	if q.heap.copyTo(addr, src, n) {
		return nil
	}
	return cmaWrite(q.pid, src, n, addr)
}

func (p *Pairs) PreferredProtocol(peer int, size int) btl.Protocol {
	if p.peers[peer].canGet && p.cfg.GetMin > 0 && size >= p.cfg.GetMin {
		return btl.ProtoGet
	}
	return btl.ProtoSend
}

// Progress drains a bounded number of records from every pair.
func (p *Pairs) Progress() int {
	count := 0
	for _, q := range p.pairs() {
		for k := 0; k < 16; k++ {
			body, n, tag, ok := q.cons.Peek()
			if !ok {
				break
			}
			p.h(q.ep, tag, unsafe.Slice((*byte)(body), n))
			q.cons.Release(n)
			count++
		}
	}
	return count
}

// Pending reports whether a pair holds a record for us.
func (p *Pairs) Pending() bool {
	for _, q := range p.pairs() {
		if q.cons.Pending() {
			return true
		}
	}
	return false
}

// Close unmaps the pairs and stops listening.
func (p *Pairs) Close() error {
	for _, q := range p.pairs() {
		q.unmap()
	}
	p.list.Store(nil)
	p.peers = nil
	for _, w := range p.waiting {
		w.close()
	}
	p.waiting = nil
	p.fresh = closeFDs(p.fresh)
	p.ln = closeFD(p.ln)
	if p.own != nil {
		unix.Munmap(p.own)
		unix.Close(p.bell.fd)
		p.own = nil
	}
	return nil
}

func (q *pairPeer) unmap() {
	q.heap.unmap()
	if q.mem != nil {
		unix.Munmap(q.mem)
		q.mem = nil
	}
	if q.bellMem != nil {
		unix.Munmap(q.bellMem)
		q.bellMem = nil
	}
}

// PairsIdler is Pairs for a process without a node segment: waits sleep
// on the pairs' own bell.
type PairsIdler struct{ *Pairs }

// Idle sleeps until a pair peer rings or d passes (as Module.Idle).
func (p PairsIdler) Idle(d time.Duration) { p.idleFrom(atomic.LoadUint32(p.bell.doorbell), d) }

// Bell, IdleAfter and WakeSelf: pml.BellIdler (MPI_THREAD_MULTIPLE).
func (p PairsIdler) Bell() uint32                        { return atomic.LoadUint32(p.bell.doorbell) }
func (p PairsIdler) IdleAfter(v uint32, d time.Duration) { p.idleFrom(v, d) }
func (p PairsIdler) WakeSelf() {
	atomic.AddUint32(p.bell.doorbell, 1)
	futexWake(p.bell.doorbell)
}

func (p PairsIdler) idleFrom(v uint32, d time.Duration) {
	// Peers commit with a sequentially consistent store before they read
	// the flag, so one look after raising it suffices.
	atomic.AddUint32(p.bell.sleeping, 1)
	if !p.Pending() {
		futexWait(p.bell.doorbell, v, d)
	}
	atomic.AddUint32(p.bell.sleeping, ^uint32(0))
}
