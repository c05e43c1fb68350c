// Package sock is the transport between processes of different jobs on one
// node (dynamic processes: spawned children, accept/connect, join). Each
// process listens on an abstract Unix socket named after its pid, so nothing
// is left in the file system; a sender dials the peer once and uses that
// stream for everything it sends there (one stream per direction: no race
// between two processes dialling each other). Frames are an 8-byte header
// (length, tag) and the fragment padded to 8 bytes, so headers stay aligned.
package sock

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"gompi/btl"
)

const (
	frameHdr = 8
	// eagerLimit bounds one fragment (header and payload); larger messages
	// go as pipelined fragments of about this size.
	eagerLimit = 64<<10 + 256
	// outMax is how many bytes may wait unsent to one peer before SendI
	// says "not now" (the pml keeps the message and retries).
	outMax = 4 << 20
	// dialPatience: how long a peer may refuse connections before we say so.
	dialPatience = 10 * time.Second
)

// Addr is the abstract socket name (without the leading NUL) of the
// process with id uid.
func Addr(uid uint64) string { return "gompi-ep-" + strconv.FormatUint(uid, 10) }

// Module is one process's socket transport. Peers are endpoint indices of
// the engine; AddPeer says which process each one is.
type Module struct {
	me    uint64
	ln    int
	ep    int
	h     btl.Handler
	out   []*outConn // by endpoint, nil until the first send
	uid   []uint64   // by endpoint, 0 when not ours
	byUID map[uint64]int
	in    map[int32]*inConn // by fd
	dirty []*outConn        // streams with bytes left to write
	evs   []unix.EpollEvent
	warn  bool
	// failSince: when dialling started to fail (zero: it works).
	failSince time.Time
	pend      bool // a parked stream's sender became known: deliver what it holds
	// Frags and Bytes count what we sent (MPI_T).
	Frags, Bytes uint64
}

type outConn struct {
	fd  int
	buf []byte
	off int
}

type inConn struct {
	fd   int
	buf  []uint64 // 8-aligned frames
	r, w int      // bytes consumed, filled
	uid  uint64
	src  int // endpoint; -1 until the hello names a known process
}

// New listens for peers as process uid; h receives fragments.
func New(uid uint64, h btl.Handler) (*Module, error) {
	ln, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("sock: socket: %w", err)
	}
	if err := unix.Bind(ln, &unix.SockaddrUnix{Name: "@" + Addr(uid)}); err != nil {
		unix.Close(ln)
		return nil, fmt.Errorf("sock: bind %s: %w", Addr(uid), err)
	}
	if err := unix.Listen(ln, 1024); err != nil {
		unix.Close(ln)
		return nil, fmt.Errorf("sock: listen: %w", err)
	}
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		unix.Close(ln)
		return nil, fmt.Errorf("sock: epoll: %w", err)
	}
	m := &Module{me: uid, ln: ln, ep: ep, h: h, byUID: map[uint64]int{}, in: map[int32]*inConn{},
		evs: make([]unix.EpollEvent, 32)}
	if err := m.watch(ln); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

func (m *Module) watch(fd int) error {
	ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)}
	if err := unix.EpollCtl(m.ep, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
		return fmt.Errorf("sock: epoll add: %w", err)
	}
	return nil
}

// AddPeer makes endpoint ep the process uid.
func (m *Module) AddPeer(ep int, uid uint64) {
	for len(m.uid) <= ep {
		m.uid = append(m.uid, 0)
		m.out = append(m.out, nil)
	}
	m.uid[ep] = uid
	m.byUID[uid] = ep
	for _, c := range m.in {
		if c.src < 0 && c.uid == uid {
			c.src = ep
			m.watch(c.fd) // parked by deliver until now
			m.pend = true
		}
	}
}

func (m *Module) Name() string { return "sock" }

func (m *Module) EagerLimit() int { return eagerLimit }

func (m *Module) CanGet(peer int) bool { return false }

func (m *Module) Get(peer int, dst unsafe.Pointer, n int, addr uintptr) error {
	return errors.New("sock: no single copy between jobs")
}

func (m *Module) PreferredProtocol(peer int, size int) btl.Protocol { return btl.ProtoSend }

// dial opens the stream to endpoint peer and introduces us.
func (m *Module) dial(peer int) (*outConn, error) {
	if peer >= len(m.uid) || m.uid[peer] == 0 {
		return nil, fmt.Errorf("sock: endpoint %d is not a known process", peer)
	}
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	if err := unix.Connect(fd, &unix.SockaddrUnix{Name: "@" + Addr(m.uid[peer])}); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("sock: connect to process %d: %w", m.uid[peer], err)
	}
	var hello [8]byte
	binary.LittleEndian.PutUint64(hello[:], m.me)
	if err := writeAll(fd, hello[:]); err != nil {
		unix.Close(fd)
		return nil, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return &outConn{fd: fd}, nil
}

func writeAll(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.SendmsgN(fd, b, nil, nil, unix.MSG_NOSIGNAL)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN {
			wait(fd, unix.POLLOUT, 10)
			continue
		}
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

func wait(fd int, ev int16, ms int) {
	p := []unix.PollFd{{Fd: int32(fd), Events: ev}}
	unix.Poll(p, ms)
}

// SendI queues the fragment on the peer's stream and writes what the socket
// takes now; false only while too much waits unsent.
func (m *Module) SendI(peer int, tag uint8, hdr unsafe.Pointer, hdrLen int, payload unsafe.Pointer, n int) bool {
	o := m.out[peer]
	if o == nil {
		var err error
		if o, err = m.dial(peer); err != nil {
			// The pml retries; a peer that never listens is reported once.
			if m.failSince.IsZero() {
				m.failSince = time.Now()
			} else if !m.warn && time.Since(m.failSince) > dialPatience {
				m.warn = true
				fmt.Fprintf(os.Stderr, "gompi: %v\n", err)
			}
			return false
		}
		m.failSince = time.Time{}
		m.out[peer] = o
	}
	if len(o.buf)-o.off > outMax {
		m.flush(o)
		if len(o.buf)-o.off > outMax {
			return false
		}
	}
	total := hdrLen + n
	var fh [frameHdr]byte
	binary.LittleEndian.PutUint32(fh[:], uint32(total))
	fh[4] = tag
	wasEmpty := len(o.buf) == o.off
	o.buf = append(o.buf, fh[:]...)
	o.buf = append(o.buf, unsafe.Slice((*byte)(hdr), hdrLen)...)
	if n > 0 {
		o.buf = append(o.buf, unsafe.Slice((*byte)(payload), n)...)
	}
	if pad := (8 - total%8) % 8; pad > 0 {
		o.buf = append(o.buf, make([]byte, pad)...)
	}
	m.Frags++
	m.Bytes += uint64(n)
	m.flush(o)
	if wasEmpty && len(o.buf) > o.off {
		m.dirty = append(m.dirty, o)
	}
	return true
}

// flush writes what the socket accepts without blocking.
func (m *Module) flush(o *outConn) {
	for o.off < len(o.buf) {
		k, err := unix.SendmsgN(o.fd, o.buf[o.off:], nil, nil, unix.MSG_NOSIGNAL|unix.MSG_DONTWAIT)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN {
			break // later
		}
		if err != nil {
			// The peer is gone (it finalized, or died: then the launcher
			// ends the job): what it did not read cannot arrive.
			o.off = len(o.buf)
			break
		}
		o.off += k
	}
	if o.off == len(o.buf) {
		o.buf, o.off = o.buf[:0], 0
	} else if o.off > 1<<20 {
		o.buf = o.buf[:copy(o.buf, o.buf[o.off:])]
		o.off = 0
	}
}

// Progress accepts new streams, reads arrived frames and writes queued ones.
func (m *Module) Progress() int {
	n := 0
	if len(m.dirty) > 0 {
		kept := m.dirty[:0]
		for _, o := range m.dirty {
			m.flush(o)
			if o.off < len(o.buf) {
				kept = append(kept, o)
			}
		}
		n += len(m.dirty) - len(kept)
		m.dirty = kept
	}
	if m.pend {
		m.pend = false
		n += m.readPending()
	}
	return n + m.poll(0)
}

func (m *Module) poll(ms int) int {
	k, err := unix.EpollWait(m.ep, m.evs, ms)
	if err != nil || k <= 0 {
		return 0
	}
	n := 0
	for _, ev := range m.evs[:k] {
		if int(ev.Fd) == m.ln {
			m.acceptAll()
			continue
		}
		if c := m.in[ev.Fd]; c != nil {
			n += m.read(c)
		}
	}
	return n
}

// readPending delivers frames of streams whose sender became known after
// they arrived (the hello came before AddPeer).
func (m *Module) readPending() int {
	n := 0
	for _, c := range m.in {
		if c.src >= 0 && c.r < c.w {
			n += m.deliver(c)
		}
	}
	return n
}

func (m *Module) acceptAll() {
	for {
		fd, _, err := unix.Accept4(m.ln, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
		if err != nil {
			return
		}
		c := &inConn{fd: fd, buf: make([]uint64, (eagerLimit+frameHdr)/8*2), src: -1}
		m.in[int32(fd)] = c
		if m.watch(fd) != nil {
			unix.Close(fd)
			delete(m.in, int32(fd))
		}
	}
}

func (c *inConn) bytes() []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&c.buf[0])), 8*len(c.buf))
}

// read takes what the stream holds and delivers complete frames.
func (m *Module) read(c *inConn) int {
	b := c.bytes()
	if c.w == len(b) {
		if c.r > 0 {
			c.w = copy(b, b[c.r:c.w])
			c.r = 0
		} else {
			nb := make([]uint64, 2*len(c.buf))
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&nb[0])), 8*len(nb)), b)
			c.buf = nb
			b = c.bytes()
		}
	}
	k, err := unix.Read(c.fd, b[c.w:])
	if k == 0 && err == nil || err != nil && err != unix.EAGAIN && err != unix.EINTR {
		// The peer closed its stream (it finalized or died; a death ends
		// the job through the launcher).
		unix.EpollCtl(m.ep, unix.EPOLL_CTL_DEL, c.fd, nil)
		unix.Close(c.fd)
		delete(m.in, int32(c.fd))
		return m.deliver(c)
	}
	if k > 0 {
		c.w += k
	}
	return m.deliver(c)
}

func (m *Module) deliver(c *inConn) int {
	b := c.bytes()
	if c.uid == 0 {
		if c.w-c.r < 8 {
			return 0
		}
		c.uid = binary.LittleEndian.Uint64(b[c.r:])
		c.r += 8
		if ep, ok := m.byUID[c.uid]; ok {
			c.src = ep
		} else {
			// Not introduced yet (its job connected to ours first): park
			// the stream until AddPeer names the sender.
			unix.EpollCtl(m.ep, unix.EPOLL_CTL_DEL, c.fd, nil)
		}
	}
	if c.src < 0 {
		return 0
	}
	n := 0
	for c.w-c.r >= frameHdr {
		total := int(binary.LittleEndian.Uint32(b[c.r:]))
		tag := b[c.r+4]
		padded := (total + 7) &^ 7
		if c.w-c.r < frameHdr+padded {
			if frameHdr+padded > len(b) { // a frame larger than the buffer
				nb := make([]uint64, (frameHdr+padded)/8+1)
				copy(unsafe.Slice((*byte)(unsafe.Pointer(&nb[0])), 8*len(nb)), b[c.r:c.w])
				c.buf, c.w, c.r = nb, c.w-c.r, 0
			}
			break
		}
		start := c.r + frameHdr
		c.r = start + padded
		m.h(c.src, tag, b[start:start+total])
		b = c.bytes() // the handler does not resize, but stay safe
		n++
	}
	if c.r == c.w {
		c.r, c.w = 0, 0
	}
	return n
}

// Idle sleeps until a stream has data, at most d.
func (m *Module) Idle(d time.Duration) {
	if len(m.dirty) > 0 {
		return
	}
	m.poll(int(max(d/time.Millisecond, 1)))
}

// Close writes what is still queued (bounded wait) and closes every stream.
func (m *Module) Close() error {
	deadline := time.Now().Add(10 * time.Second)
	for _, o := range m.out {
		if o == nil {
			continue
		}
		for o.off < len(o.buf) && time.Now().Before(deadline) {
			m.flush(o)
			if o.off < len(o.buf) {
				wait(o.fd, unix.POLLOUT, 10)
			}
		}
		unix.Close(o.fd)
	}
	m.out = nil
	for fd := range m.in {
		unix.Close(int(fd))
	}
	m.in = nil
	if m.ln >= 0 {
		unix.Close(m.ln)
	}
	if m.ep >= 0 {
		unix.Close(m.ep)
	}
	m.ln, m.ep = -1, -1
	return nil
}
