package pml

import (
	"unsafe"

	"gompi/abi"
)

// InitRecv fills a receive request without starting it.
func (e *Engine) InitRecv(r *Request, c *Comm, buf unsafe.Pointer, n int, peer, tag int) {
	r.Kind, r.Comm, r.Buf, r.Size, r.Peer, r.Tag = KindRecv, c, buf, n, peer, tag
}

// Irecv posts a receive.
func (e *Engine) Irecv(c *Comm, buf unsafe.Pointer, n int, peer, tag int) *Request {
	r := e.reqs.alloc()
	e.InitRecv(r, c, buf, n, peer, tag)
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
		e.startRndvRecv(r, &u.hdr, u.size, u.addr, u.srcWorld)
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
			e.startRndvRecv(r, h, int(rh.size), rh.addr, src)
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
func (e *Engine) startRndvRecv(r *Request, h *matchHdr, size int, addr uint64, src int) {
	e.setStatus(r, h, size)
	r.total = size
	r.srcWorld = src
	m := e.route[src]
	if h.flags&flagGet != 0 && m.CanGet(src) {
		k := r.Status.Count
		if k == 0 || m.Get(src, r.Buf, k, uintptr(addr)) == nil {
			e.Counters.RndvGet++
			e.sendCtrl(src, tagFin, ackHdr{sreq: h.sreq})
			e.complete(r)
			return
		}
	}
	e.Counters.RndvPipe++
	e.sendCtrl(src, tagAck, ackHdr{sreq: h.sreq, rreq: r.ID})
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
