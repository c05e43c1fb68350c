package sm

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Setting up a pair: of two processes the lower pid creates the segment
// and offers it, with its bell, over a SOCK_SEQPACKET connection to the
// other's pair listener; the other maps both and answers with its own bell,
// or refuses. Either side refusing (pairs off, no memory, a mapping that
// fails) leaves the pair to btl/sock, and both sides know it from the same
// two messages. Every process first sends its offers, then answers the
// offers it expects, then reads the answers to its own: each step waits
// only on an earlier step of the other side, so any number of processes
// set up their pairs at once without deadlock.

const helloMagic = 0x72696170706d6f67 // "gompipair"

const (
	kindOffer  = 1 // segment and bell attached
	kindNone   = 2 // the creator offers nothing: use another transport
	kindAccept = 3 // bell attached
	kindRefuse = 4
)

// helloMsg is the whole of one setup message (both ends run this library
// on one machine, so it travels as its memory image).
type helloMsg struct {
	Magic    uint64
	From, To uint64
	Kind     uint32
	Ring     uint32
	BellOff  int64
	Probe    uint64
	HeapFD   int64
	HeapBase uint64
	HeapSize uint64
}

// hello is a received message, its connection and the descriptors it carried.
type hello struct {
	msg  helloMsg
	conn int
	fds  []int
}

// closeFDs closes every descriptor of fds; it returns the emptied list.
func closeFDs(fds []int) []int {
	for _, fd := range fds {
		unix.Close(fd)
	}
	return nil
}

// closeFD closes fd unless it is -1; it returns -1.
func closeFD(fd int) int {
	if fd >= 0 {
		unix.Close(fd)
	}
	return -1
}

func (w *hello) close() {
	w.fds = closeFDs(w.fds)
	w.conn = closeFD(w.conn)
}

func (p *Pairs) msg(to uint64, kind uint32) helloMsg {
	m := helloMsg{Magic: helloMagic, From: p.cfg.Pid, To: to, Kind: kind, Ring: uint32(p.cfg.RingSize),
		BellOff: p.bell.off, Probe: uint64(uintptr(unsafe.Pointer(p.probe))), HeapFD: -1}
	if localHeap.size > 0 {
		m.HeapFD, m.HeapBase, m.HeapSize = int64(localHeap.fd), uint64(localHeap.base), uint64(localHeap.size)
	}
	return m
}

func sendHello(conn int, m helloMsg, fds ...int) error {
	b := unsafe.Slice((*byte)(unsafe.Pointer(&m)), unsafe.Sizeof(m))
	var oob []byte
	if len(fds) > 0 {
		oob = unix.UnixRights(fds...)
	}
	for {
		err := unix.Sendmsg(conn, b, oob, nil, unix.MSG_NOSIGNAL)
		if err != unix.EINTR {
			return err
		}
	}
}

// recvHello reads one message from conn without blocking; ok is false
// when none is there yet.
func recvHello(conn int) (w *hello, ok bool, err error) {
	var m helloMsg
	b := unsafe.Slice((*byte)(unsafe.Pointer(&m)), unsafe.Sizeof(m))
	oob := make([]byte, unix.CmsgSpace(4*4))
	n, oobn, _, _, err := unix.Recvmsg(conn, b, oob, unix.MSG_DONTWAIT|unix.MSG_CMSG_CLOEXEC)
	if err == unix.EAGAIN || err == unix.EINTR {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	w = &hello{msg: m, conn: conn}
	if oobn > 0 {
		cms, perr := unix.ParseSocketControlMessage(oob[:oobn])
		if perr == nil {
			for _, cm := range cms {
				if fds, e := unix.ParseUnixRights(&cm); e == nil {
					w.fds = append(w.fds, fds...)
				}
			}
		}
	}
	if n != len(b) || m.Magic != helloMagic {
		w.conn = -1
		w.close()
		return nil, false, errors.New("sm: a malformed pair message")
	}
	return w, true, nil
}

// Connect sets up a pair with each process of pids (the engine's endpoints
// eps), none of which has one with us yet; every one of them calls Connect
// with us at about the same time. ok[i] tells that pids[i] is served by a
// pair now; otherwise both sides route it elsewhere. wait(fd) waits briefly
// for fd to become readable while keeping the caller's progress going. An
// error means a peer did not answer by the deadline.
func (p *Pairs) Connect(eps []int, pids []uint64, wait func(fd int), deadline time.Time) ([]bool, error) {
	ok := make([]bool, len(pids))
	// Pairs take traffic only once the caller can route it: Progress
	// sees them when Connect returns.
	var ready []*pairPeer
	defer func() {
		for _, q := range ready {
			p.add(q)
		}
	}()
	type offer struct {
		i    int
		conn int
		q    *pairPeer
	}
	var offers []offer
	defer func() {
		for _, o := range offers {
			if o.conn >= 0 {
				unix.Close(o.conn)
			}
			if o.q != nil && !ok[o.i] {
				o.q.unmap()
			}
		}
	}()
	for i, pid := range pids {
		if pid <= p.cfg.Pid {
			continue
		}
		conn, err := dialPair(pid, deadline)
		if err != nil {
			return ok, err
		}
		q, seg := p.create(eps[i], pid)
		offers = append(offers, offer{i: i, conn: conn, q: q})
		if q != nil {
			err = sendHello(conn, p.msg(pid, kindOffer), seg, p.bell.fd)
			unix.Close(seg)
		} else {
			err = sendHello(conn, p.msg(pid, kindNone))
		}
		if err != nil {
			return ok, fmt.Errorf("sm: offering a pair to process %d: %w", pid, err)
		}
	}
	for i, pid := range pids {
		if pid >= p.cfg.Pid {
			continue
		}
		w, err := p.await(pid, wait, deadline)
		if err != nil {
			return ok, err
		}
		q := p.take(eps[i], w)
		if q != nil {
			err = sendHello(w.conn, p.msg(pid, kindAccept), p.bell.fd)
		} else {
			err = sendHello(w.conn, p.msg(pid, kindRefuse))
		}
		w.close()
		if err != nil {
			if q != nil {
				q.unmap()
			}
			return ok, fmt.Errorf("sm: answering process %d's pair: %w", pid, err)
		}
		if q != nil {
			ready = append(ready, q)
			ok[i] = true
		}
	}
	for k := range offers {
		o := &offers[k]
		var w *hello
		for {
			var got bool
			var err error
			if w, got, err = recvHello(o.conn); err != nil {
				return ok, fmt.Errorf("sm: process %d's answer: %w", pids[o.i], err)
			}
			if got {
				break
			}
			if time.Now().After(deadline) {
				return ok, fmt.Errorf("sm: process %d never answered the pair offer", pids[o.i])
			}
			wait(o.conn)
		}
		w.conn = -1 // closed with the offer
		if o.q != nil && w.msg.Kind == kindAccept {
			// The peer routes us through the pair from now on: failing
			// here cannot fall back, it fails the call.
			if len(w.fds) != 1 {
				w.close()
				return ok, fmt.Errorf("sm: process %d accepted the pair without its bell", pids[o.i])
			}
			err := p.finish(o.q, w.fds[0], &w.msg)
			w.close()
			if err != nil {
				return ok, err
			}
			ready = append(ready, o.q)
			ok[o.i] = true
		}
		w.close()
	}
	return ok, nil
}

// dialPair connects to process pid's pair listener.
func dialPair(pid uint64, deadline time.Time) (int, error) {
	for {
		conn, err := unix.Socket(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return -1, fmt.Errorf("sm: pair socket: %w", err)
		}
		err = unix.Connect(conn, &unix.SockaddrUnix{Name: pairAddr(pid)})
		if err == nil {
			return conn, nil
		}
		unix.Close(conn)
		if err != unix.EINTR && err != unix.EAGAIN || time.Now().After(deadline) {
			return -1, fmt.Errorf("sm: no pair listener of process %d: %w", pid, err)
		}
		time.Sleep(time.Millisecond)
	}
}

// create makes a pair segment for endpoint ep (process pid) and returns it
// with the segment's descriptor, nil when pairs are off or it fails.
func (p *Pairs) create(ep int, pid uint64) (*pairPeer, int) {
	if p.cfg.Off || p.bell.doorbell == nil && p.ownBell() != nil {
		return nil, -1
	}
	fd, err := unix.MemfdCreate("gompi-pair", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, -1
	}
	size := pairSize(p.cfg.RingSize)
	if fallocate(fd, int64(size)) != nil {
		unix.Close(fd)
		return nil, -1
	}
	mem, err := unix.Mmap(fd, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		unix.Close(fd)
		return nil, -1
	}
	q := &pairPeer{ep: ep, pid: int(pid), mem: mem}
	q.attach(p.cfg.RingSize, true)
	return q, fd
}

// take maps the pair process w offers (endpoint ep), nil when it offers
// none or it cannot be used.
func (p *Pairs) take(ep int, w *hello) *pairPeer {
	m := &w.msg
	if p.cfg.Off || m.Kind != kindOffer || len(w.fds) != 2 || m.To != p.cfg.Pid ||
		p.bell.doorbell == nil && p.ownBell() != nil {
		return nil
	}
	ring := int(m.Ring)
	if ring < 4096 || ring&(ring-1) != 0 {
		return nil
	}
	var st unix.Stat_t
	if unix.Fstat(w.fds[0], &st) != nil || st.Size < int64(pairSize(ring)) {
		return nil
	}
	mem, err := unix.Mmap(w.fds[0], 0, pairSize(ring), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return nil
	}
	q := &pairPeer{ep: ep, pid: int(m.From), mem: mem}
	q.attach(ring, false)
	if p.finish(q, w.fds[1], m) != nil {
		q.unmap()
		return nil
	}
	return q
}

// finish maps the peer's bell and probes single copy to it.
func (p *Pairs) finish(q *pairPeer, bellFD int, m *helloMsg) error {
	var err error
	q.bellMem, q.sleeping, q.doorbell, err = mapBell(bellFD, m.BellOff)
	if err != nil {
		return err
	}
	if p.cfg.GetMin > 0 {
		var v uint64
		err := cmaRead(q.pid, unsafe.Pointer(&v), 8, uintptr(m.Probe))
		q.canGet = err == nil && v == probeValue
		if q.canGet && m.HeapSize > 0 && m.HeapFD >= 0 {
			q.heap = peerHeap{pid: q.pid, heapRange: heapRange{fd: int(m.HeapFD), base: uintptr(m.HeapBase), size: uintptr(m.HeapSize)}}
		}
	}
	return nil
}

// await returns the offer of process pid, accepting connections and
// reading messages until it is there.
func (p *Pairs) await(pid uint64, wait func(fd int), deadline time.Time) (*hello, error) {
	for {
		if w := p.waiting[pid]; w != nil {
			delete(p.waiting, pid)
			return w, nil
		}
		if err := p.acceptSome(); err != nil {
			return nil, err
		}
		if w := p.waiting[pid]; w != nil {
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("sm: process %d never offered its pair", pid)
		}
		wait(p.ln)
	}
}

// acceptSome accepts pending connections and files their messages by
// sender; a connection whose message has not come yet is kept.
func (p *Pairs) acceptSome() error {
	for {
		fd, _, err := unix.Accept4(p.ln, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
		if err != nil {
			if err == unix.EAGAIN || err == unix.EINTR || err == unix.ECONNABORTED {
				break
			}
			return fmt.Errorf("sm: pair accept: %w", err)
		}
		p.fresh = append(p.fresh, fd)
	}
	kept := p.fresh[:0]
	for _, fd := range p.fresh {
		w, got, err := recvHello(fd)
		switch {
		case err != nil:
			unix.Close(fd) // not ours to judge: that process sees its own error
		case !got:
			kept = append(kept, fd)
		default:
			if old := p.waiting[w.msg.From]; old != nil {
				old.close()
			}
			p.waiting[w.msg.From] = w
		}
	}
	p.fresh = kept
	return nil
}
