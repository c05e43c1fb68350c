package pml

import (
	"unsafe"

	"gompi/mpit"
)

// SendImmediate tries the request-free path: the header and payload go out in
// one transport call. It reports false when the message needs a request (too
// large, synchronous, or the transport has no room now).
func (e *Engine) SendImmediate(c *Comm, buf unsafe.Pointer, n int, peer, tag int) bool {
	w := c.World[peer]
	if !e.eagerFits(w, buf, n) {
		return false
	}
	q := &c.seq[peer]
	h := e.hm
	*h = matchHdr{ctx: c.Ctx, src: int32(c.Rank), tag: int32(tag), seq: q.Send}
	if !e.route[w].SendI(w, tagMatch, unsafe.Pointer(h), matchHdrLen, buf, n) {
		return false
	}
	q.Send++
	e.Counters.Immediate++
	e.Counters.ImmediateBytes += uint64(n)
	return true
}

// SlowCopier is a transport whose receivers can find copying through it slow
// (btl/sm: cores far apart), so that messages from SlowFrom bytes are better
// read once from the sender's buffer.
type SlowCopier interface {
	SlowCopies(peer int) bool
	SlowFrom() int
}

// SharedReader is a transport whose receiver can read some send buffers
// with a plain memory copy (sm: those in the sender's shared heap), which
// beats copying through shared memory twice from SharedFrom bytes.
type SharedReader interface {
	SharedBuffer(peer int, buf unsafe.Pointer, n int) bool
	SharedFrom() int
}

// slowProbes: while a peer's copies are slow, one message in this many that
// the verdict moves to single copy goes eager anyway, to be timed.
const slowProbes = 16

// Backlogger is a transport that knows how many bytes wait in flight to a
// peer (sm: unread ring bytes).
type Backlogger interface{ Backlog(peer int) int }

// eagerFits decides eager against single copy for the n bytes at buf to
// world rank w: eager up to the limit, but from 1.5 times the transport's
// crossover single copy, and from the crossover itself single copy too once
// the way to w is crowded: a window of such messages copied twice through
// shared memory lost to the receiver's single copy (bidirectional 32 KiB
// windows, 2 ranks: 8-10 GB/s eager), while a lone exchange wins eager (no
// handshake). A buffer w reads with a plain copy (sharedBuffer) has its own,
// smaller crossover and no 1.5 rule: a lone one still wins eager up to the
// limit (64 KiB ping-pong 3.4 us eager, 5.8 read), a window of them is
// faster read (32 KiB: 42-50 GB/s read, 19-22 eager).
func (e *Engine) eagerFits(w int, buf unsafe.Pointer, n int) bool {
	g := e.getFrom[w]
	switch {
	case n > e.eager[w]:
		return false
	case e.slowFrom[w] > 0 && n >= e.slowFrom[w] && e.slowed[w].SlowCopies(w):
		// One in slowProbes still goes eager: the receiver's timing of it
		// is what clears the verdict.
		e.slowProbe++
		return e.slowProbe%slowProbes == 0
	case e.sharedBuffer(w, buf, n):
		// Oversubscribed, always read it: a mix of eager and single copy
		// in one window cost 4 ranks on 2 cores 300-1000 us per alltoall
		// of 64 KiB blocks, against 42-44 all by single copy.
		return !e.cfg.Oversubscribed && e.roomFor(w, n, false) // traffic unknown: read it
	case g == 0 || n < g:
		return true
	case n >= g+g/2:
		return false
	}
	return e.roomFor(w, n, true)
}

// sharedBuffer reports that w reads the n bytes at buf with a plain copy
// and n is past the size from which that may beat eager.
func (e *Engine) sharedBuffer(w int, buf unsafe.Pointer, n int) bool {
	f := e.sharedFrom[w]
	return f > 0 && n >= f && e.shared[w].SharedBuffer(w, buf, n)
}

// roomFor reports that n more bytes keep the way to w within EagerRoom;
// unknown is the answer when the transport cannot tell.
func (e *Engine) roomFor(w, n int, unknown bool) bool {
	b := e.backlog[w]
	if b == nil {
		return unknown
	}
	return b.Backlog(w)+n <= e.cfg.EagerRoom
}

// Isend starts a send. It returns nil when the message already left through
// the immediate path (nothing to wait for).
func (e *Engine) Isend(c *Comm, buf unsafe.Pointer, n int, peer, tag int, mode uint8) *Request {
	if mode != ModeSync && e.SendImmediate(c, buf, n, peer, tag) {
		return nil
	}
	r := e.reqs.alloc()
	e.InitSend(r, c, buf, n, peer, tag, mode)
	e.StartSend(r)
	return r
}

// Send is a blocking send.
func (e *Engine) Send(c *Comm, buf unsafe.Pointer, n int, peer, tag int, mode uint8) {
	if r := e.Isend(c, buf, n, peer, tag, mode); r != nil {
		e.Wait(r)
		e.reqs.release(r)
	}
}

// InitSend fills a send request without starting it (persistent sends).
func (e *Engine) InitSend(r *Request, c *Comm, buf unsafe.Pointer, n int, peer, tag int, mode uint8) {
	r.Kind, r.Mode, r.Comm, r.Buf, r.Size, r.Peer, r.Tag = KindSend, mode, c, buf, n, peer, tag
	r.Status = Status{Source: c.Rank, Tag: tag, Count: n}
}

// StartSend (re)starts a send request: assigns its sequence number and picks
// the protocol.
func (e *Engine) StartSend(r *Request) {
	c := r.Comm
	r.done, r.Active, r.offset, r.Status.Cancelled, r.Status.Err, r.cancel = false, true, 0, false, 0, false
	r.stage = stageHdr
	w := c.World[r.Peer]
	r.dst = w
	r.remote = uint32(c.nextSendSeq(r.Peer)) // the sequence number until sent
	if e.eagerFits(w, r.Buf, r.Size) || r.Buf == nil && r.Size <= e.eager[w] {
		r.proto = protoEager
		e.Counters.Eager++
		e.Counters.EagerBytes += uint64(r.Size)
	} else {
		r.proto = protoRndvPipe
		m := e.route[w]
		if (e.sharedBuffer(w, r.Buf, r.Size) || m.PreferredProtocol(w, r.Size) == 2 /* btl.ProtoGet */) && m.CanGet(w) && r.Buf != nil {
			r.proto = protoRndvGet
		}
	}
	if !e.sendFirst(r) {
		e.enqueue(r)
	}
}

// sendFirst transmits the match or rendezvous header; false when out of room.
func (e *Engine) sendFirst(r *Request) bool {
	c := r.Comm
	m := e.route[r.dst]
	mh := matchHdr{ctx: c.Ctx, src: int32(c.Rank), tag: int32(r.Tag), seq: uint16(r.remote), sreq: r.ID}
	if r.Mode == ModeSync {
		mh.flags |= flagSync
	}
	if r.proto == protoEager {
		*e.hm = mh
		if !m.SendI(r.dst, tagMatch, unsafe.Pointer(e.hm), matchHdrLen, r.Buf, r.Size) {
			return false
		}
		r.stage = stageWait
		if r.Mode != ModeSync {
			e.complete(r)
		} else if r.cancel {
			e.sendCancel(r)
		}
		return true
	}
	addr, key := uint64(uintptr(r.Buf)), uint64(0)
	if r.proto == protoRndvGet {
		if rd, ok := m.(RemoteReader); ok && !e.expose(r, rd) {
			r.proto = protoRndvPipe // cannot register it: fragments
		} else if ok {
			addr, key = r.raddr, r.key
		}
	}
	if r.proto == protoRndvGet {
		mh.flags |= flagGet
		// Receives a C fast path queued count too (adopted first: this is
		// no fast path any more). A busy sender's answer to a split request
		// would be a refusal (onPutReq), after a round trip the receiver
		// spends waiting.
		e.adoptForeign()
		if c.receiving(r.Peer) {
			mh.flags |= flagBusy
		}
	}
	*e.hr = rndvHdr{matchHdr: mh, size: uint64(r.Size), addr: addr, key: key}
	if !m.SendI(r.dst, tagRndv, unsafe.Pointer(e.hr), rndvHdrLen, nil, 0) {
		return false
	}
	if mpit.On[mpit.EvRendezvous] {
		mpit.RaiseRendezvous(int32(r.Peer), mh.tag, r.Size)
	}
	if r.proto == protoRndvGet {
		r.read = true
		e.readsOut[r.dst]++
	}
	r.stage = stageWait // the receiver answers with ACK or FIN
	if r.cancel {
		e.sendCancel(r)
	}
	return true
}

func (e *Engine) enqueue(r *Request) {
	if r.queued {
		return
	}
	r.queued = true
	*e.pending = 1
	r.pendNext = nil
	if e.pendTail == nil {
		e.pendHead = r
	} else {
		e.pendTail.pendNext = r
	}
	e.pendTail = r
}

// pushPending retries queued sends in order; those still without room stay
// queued (the receiver reorders by sequence number if a later one overtakes).
func (e *Engine) pushPending() int {
	n := 0
	var keepHead, keepTail *Request
	for r := e.pendHead; r != nil; {
		next := r.pendNext
		r.pendNext = nil
		finished := false
		if r.stage == stageHdr {
			finished = e.sendFirst(r)
		} else {
			finished = e.pushFrags(r)
		}
		if finished {
			r.queued = false
			n++
		} else {
			if keepTail == nil {
				keepHead = r
			} else {
				keepTail.pendNext = r
			}
			keepTail = r
		}
		r = next
	}
	e.pendHead, e.pendTail = keepHead, keepTail
	return n
}

// pushFrags streams pipelined fragments until done (true) or out of room.
func (e *Engine) pushFrags(r *Request) bool {
	r.stage = stageFrags
	m := e.route[r.dst]
	fs := e.frag[r.dst]
	for r.offset < r.Size {
		k := min(fs, r.Size-r.offset)
		*e.hf = fragHdr{rreq: r.remote, offset: uint64(r.offset)}
		if !m.SendI(r.dst, tagFrag, unsafe.Pointer(e.hf), fragHdrLen, unsafe.Add(r.Buf, r.offset), k) {
			return false
		}
		r.offset += k
	}
	e.complete(r)
	return true
}

// sendCtrl sends a small control message, queueing it when there is no room.
func (e *Engine) sendCtrl(dst int, tag uint8, a ackHdr) {
	*e.ha = a
	if len(e.ctrlQ) == 0 && e.route[dst].SendI(dst, tag, unsafe.Pointer(e.ha), ackHdrLen, nil, 0) {
		return
	}
	e.ctrlQ = append(e.ctrlQ, ctrlMsg{dst: dst, tag: tag, a: a})
	*e.pending = 1
}

func (e *Engine) flushCtrl() int {
	n := 0
	for n < len(e.ctrlQ) {
		cm := e.ctrlQ[n]
		hdr, hlen := unsafe.Pointer(e.ha), ackHdrLen
		*e.ha = cm.a
		if cm.tag == tagCancel {
			hdr, hlen = unsafe.Pointer(&cancelHdr{ctx: cm.a.rreq, src: cm.src, sreq: cm.a.sreq}), cancelHdrLen
		}
		if !e.route[cm.dst].SendI(cm.dst, cm.tag, hdr, hlen, nil, 0) {
			break
		}
		n++
	}
	e.ctrlQ = append(e.ctrlQ[:0], e.ctrlQ[n:]...)
	return n
}
