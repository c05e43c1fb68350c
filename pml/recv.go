package pml

import (
	"unsafe"

	"gompi/abi"
	"gompi/btl"
)

// InitRecv fills a receive request without starting it.
func (e *Engine) InitRecv(r *Request, c *Comm, buf unsafe.Pointer, n int, peer, tag int) {
	r.Kind, r.Comm, r.Buf, r.Size, r.Peer, r.Tag = KindRecv, c, buf, n, peer, tag
}

// Irecv posts a receive.
func (e *Engine) Irecv(c *Comm, buf unsafe.Pointer, n int, peer, tag int) *Request {
	return e.irecv(c, buf, n, peer, tag, false)
}

// IrecvWhole posts a receive whose data this process reads entirely itself
// (no split single copy): for data it works on right after, which should
// then sit in this core's cache, not arrive written by the sender's core
// (measured: 2-rank reduce of 256 KiB 39 us with the split, 26 without).
func (e *Engine) IrecvWhole(c *Comm, buf unsafe.Pointer, n int, peer, tag int) *Request {
	return e.irecv(c, buf, n, peer, tag, true)
}

func (e *Engine) irecv(c *Comm, buf unsafe.Pointer, n int, peer, tag int, whole bool) *Request {
	r := e.reqs.alloc()
	e.InitRecv(r, c, buf, n, peer, tag)
	r.whole = whole
	e.StartRecv(r)
	return r
}

// Recv is a blocking receive; it returns the status.
func (e *Engine) Recv(c *Comm, buf unsafe.Pointer, n int, peer, tag int) Status {
	r := e.Irecv(c, buf, n, peer, tag)
	e.Wait(r)
	st := r.Status
	e.reqs.release(r)
	return st
}

// StartRecv matches against unexpected messages or posts the receive.
func (e *Engine) StartRecv(r *Request) {
	e.adoptForeign()
	r.done, r.Active, r.received, r.total = false, true, 0, 0
	r.Status = Status{}
	c := r.Comm
	if u := c.findUnexpected(r.Peer, r.Tag); u != nil {
		c.removeUnexpected(u)
		e.deliverUnexpected(r, u)
		return
	}
	c.post(r)
}

func (e *Engine) deliverUnexpected(r *Request, u *unexp) {
	if u.rndv {
		e.startRndvRecv(r, &u.hdr, u.size, u.addr, u.key, u.srcWorld)
	} else {
		e.deliverEager(r, &u.hdr, u.data, u.srcWorld)
	}
	e.pool.put(u)
}

// onFrag is the transports' handler: dispatch by fragment type.
func (e *Engine) onFrag(src int, tag uint8, data []byte) {
	switch tag {
	case tagMatch, tagRndv:
		e.onMatch(src, tag, data)
	case tagFrag:
		h := (*fragHdr)(unsafe.Pointer(&data[0]))
		e.onFragData(h, data[fragHdrLen:])
	case tagAck:
		a := (*ackHdr)(unsafe.Pointer(&data[0]))
		r := e.reqs.get(a.sreq)
		r.remote = a.rreq
		if !e.pushFrags(r) {
			e.enqueue(r)
		}
	case tagFin, tagSyncAck:
		a := (*ackHdr)(unsafe.Pointer(&data[0]))
		if r := e.reqs.get(a.sreq); !r.done { // a cancelled send completed already
			e.complete(r)
		}
	case tagCancel:
		e.onCancel(src, (*cancelHdr)(unsafe.Pointer(&data[0])))
	case tagCanAck:
		e.onCancelAck((*ackHdr)(unsafe.Pointer(&data[0])))
	case tagPutReq:
		e.onPutReq(src, (*ackHdr)(unsafe.Pointer(&data[0])))
	case tagPutFin:
		e.onPutFin(src, (*ackHdr)(unsafe.Pointer(&data[0])))
	case tagPartInit:
		e.onPartInit(src, data)
	case tagPartCTS:
		e.onPartCTS((*ackHdr)(unsafe.Pointer(&data[0])))
	case tagPartData:
		e.onPartData(data)
	}
}

func (e *Engine) onMatch(src int, tag uint8, data []byte) {
	h := (*matchHdr)(unsafe.Pointer(&data[0]))
	var c *Comm
	if int(h.ctx) < len(e.comms) {
		c = e.comms[h.ctx]
	}
	if c == nil { // the peer created the communicator first: keep it for Register
		e.early = append(e.early, &earlyFrag{src: src, tag: tag, data: append([]byte(nil), data...)})
		return
	}
	if !c.inOrder(h) {
		e.Counters.OutOfOrder++
		c.hold(e.pool.fromFrag(src, tag, data))
		return
	}
	if r := c.matchPosted(h); r != nil {
		if tag == tagRndv {
			rh := (*rndvHdr)(unsafe.Pointer(h))
			e.startRndvRecv(r, h, int(rh.size), rh.addr, rh.key, src)
		} else {
			e.deliverEager(r, h, data[matchHdrLen:], src)
		}
	} else {
		e.Counters.Unexpected++
		c.addUnexpected(e.pool.fromFrag(src, tag, data))
	}
	if c.peers[h.src].held.head != nil {
		e.releaseHeld(c, int(h.src))
	}
}

// releaseHeld matches fragments that were waiting for their sequence number.
func (e *Engine) releaseHeld(c *Comm, src int) {
	for u := c.takeHeld(src); u != nil; u = c.takeHeld(src) {
		if r := c.matchPosted(&u.hdr); r != nil {
			e.deliverUnexpected(r, u)
		} else {
			c.addUnexpected(u)
		}
	}
}

func (e *Engine) setStatus(r *Request, h *matchHdr, n int) {
	r.Status.Source, r.Status.Tag, r.Status.Count = int(h.src), int(h.tag), n
	if n > r.Size {
		r.Status.Count = r.Size
		r.Status.Err = abi.ErrTruncate
	}
}

func (e *Engine) deliverEager(r *Request, h *matchHdr, payload []byte, src int) {
	e.setStatus(r, h, len(payload))
	if k := r.Status.Count; k > 0 {
		copy(unsafe.Slice((*byte)(r.Buf), k), payload[:k])
	}
	if h.flags&flagSync != 0 {
		e.sendCtrl(src, tagSyncAck, ackHdr{sreq: h.sreq})
	}
	e.complete(r)
}

// startRndvRecv takes the data of a matched rendezvous: one single-copy read
// when the sender offered it and the transport can, else ask for fragments.
func (e *Engine) startRndvRecv(r *Request, h *matchHdr, size int, addr, key uint64, src int) {
	e.setStatus(r, h, size)
	r.total = size
	r.srcWorld = src
	m := e.route[src]
	if rd, ok := m.(RemoteReader); ok {
		if h.flags&flagGet != 0 && m.CanGet(src) && e.startRead(r, h, addr, key, src, rd) {
			return
		}
	} else if h.flags&flagGet != 0 && m.CanGet(src) {
		k := r.Status.Count
		if p, ok := m.(btl.Putter); ok && e.cfg.SplitMin > 0 && k >= e.cfg.SplitMin && !r.whole && !e.senderBusy(h, k, src) {
			e.splitGet(r, h, k, addr, src, p)
			return
		}
		if k == 0 || m.Get(src, r.Buf, k, uintptr(addr)) == nil {
			e.Counters.RndvGet++
			e.Counters.RndvGetBytes += uint64(k)
			e.sendCtrl(src, tagFin, ackHdr{sreq: h.sreq})
			e.complete(r)
			return
		}
	}
	e.Counters.RndvPipe++
	e.Counters.RndvPipeBytes += uint64(r.Status.Count)
	e.sendCtrl(src, tagAck, ackHdr{sreq: h.sreq, rreq: r.ID})
}

// busySplitMin: from this size a sender still reading our own sends is
// asked for a part anyway. It refuses while it receives from us, so the
// receiver reads the two halves apart, and in windows reusing one buffer
// (benchmarks) each half stays in cache between messages: 2-rank
// bidirectional 1 MiB windows 22-26 GB/s read whole, 32-34 in halves;
// up to 512 KiB reading whole is faster (64 KiB: 20-23 against 12-17).
const busySplitMin = 1 << 20

// senderBusy reports whether the sender of a k-byte single-copy message is
// copying already (it receives from us, or reads our own sends): a split
// request would wait behind that work.
func (e *Engine) senderBusy(h *matchHdr, k, src int) bool {
	return h.flags&flagBusy != 0 || e.readsOut[src] > 0 && k < busySplitMin
}

// splitGet copies a single-copy message with both processes working: the
// sender is asked to write the second half while the receiver reads the
// first; the receive completes when both halves are in.
func (e *Engine) splitGet(r *Request, h *matchHdr, k int, addr uint64, src int, p btl.Putter) {
	half := k / 2 &^ 4095
	r.total, r.received, r.raddr, r.remote = k, 0, addr, h.sreq
	e.sendCtrl(src, tagPutReq, ackHdr{sreq: h.sreq, rreq: r.ID, off: uint64(half), n: uint64(k - half),
		addr: uint64(uintptr(r.Buf)) + uint64(half)})
	if err := e.route[src].Get(src, r.Buf, half, uintptr(addr)); err != nil {
		r.Status.Err = abi.ErrOther // the probe at startup said this works; the buffer must be bad
	}
	e.Counters.RndvGet++
	e.Counters.RndvGetBytes += uint64(k)
	e.Counters.SplitAsked++
	e.Counters.SplitBytes += uint64(k)
	e.addReceived(r, half)
}

// onPutReq writes the part a receiver asked for and reports it written. A
// sender that is itself waiting to receive from that peer declines: both
// cores are copying already (bidirectional traffic), and the receiver then
// reads the rest faster alone than the two of them contending.
func (e *Engine) onPutReq(src int, a *ackHdr) {
	r := e.reqs.get(a.sreq)
	failed := uint32(0)
	p, ok := e.route[src].(btl.Putter)
	if !ok || r.Comm.receiving(r.Peer) || p.Put(src, unsafe.Add(r.Buf, a.off), int(a.n), uintptr(a.addr)) != nil {
		failed = 1
	}
	e.sendCtrl(src, tagPutFin, ackHdr{sreq: failed, rreq: a.rreq, off: a.off, n: a.n})
}

// onPutFin completes the receiver's side of a split transfer; if the sender
// could not write, the receiver reads that part itself.
func (e *Engine) onPutFin(src int, a *ackHdr) {
	r := e.reqs.get(a.rreq)
	if a.sreq != 0 {
		if err := e.route[src].Get(src, unsafe.Add(r.Buf, a.off), int(a.n), uintptr(r.raddr+a.off)); err != nil {
			r.Status.Err = abi.ErrOther
		}
	}
	e.addReceived(r, int(a.n))
}

// addReceived counts bytes of a split transfer in. When all are in, the
// sender learns its buffer is free (FIN): not before, since a sender that
// declined its half leaves the receiver reading it after the PutFin.
func (e *Engine) addReceived(r *Request, n int) {
	r.received += n
	if r.received >= r.total {
		e.sendCtrl(r.srcWorld, tagFin, ackHdr{sreq: r.remote})
		e.complete(r)
	}
}

func (e *Engine) onFragData(h *fragHdr, payload []byte) {
	r := e.reqs.get(h.rreq)
	off := int(h.offset)
	if off < r.Size {
		k := min(len(payload), r.Size-off)
		copy(unsafe.Slice((*byte)(unsafe.Add(r.Buf, off)), k), payload[:k])
	}
	r.received += len(payload)
	if r.received >= r.total {
		e.complete(r)
	}
}
