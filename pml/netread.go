package pml

import "unsafe"

// RemoteReader is a transport whose receivers read large messages from the
// sender's memory asynchronously (btl/ofi: fi_read from a registered
// buffer). The sender exposes its buffer and announces key and address in
// the rendezvous header; the receiver starts the read, and when the
// transport reports it done sends the FIN that frees the sender.
type RemoteReader interface {
	// Expose makes n bytes at buf readable by peer: the key and address
	// the reader names. Each successful Expose is matched by Unexpose.
	Expose(peer int, buf unsafe.Pointer, n int) (key, addr uint64, ok bool)
	Unexpose(key uint64)
	// ReadAsync starts reading n bytes at addr (key) of peer into dst; the
	// function set with OnRead is called with id when it ends. false: not
	// started (the receiver asks for fragments instead).
	ReadAsync(peer int, dst unsafe.Pointer, n int, addr, key uint64, id uint32) bool
	OnRead(func(id uint32, ok bool))
}

// expose registers a single-copy send's buffer once (sendFirst may be
// retried when the transport has no room).
func (e *Engine) expose(r *Request, rd RemoteReader) bool {
	if r.exposed {
		return true
	}
	key, addr, ok := rd.Expose(r.dst, r.Buf, r.Size)
	if !ok {
		return false
	}
	r.key, r.raddr, r.exposed = key, addr, true
	return true
}

func (e *Engine) unexpose(r *Request) {
	r.exposed = false
	if rd, ok := e.route[r.dst].(RemoteReader); ok {
		rd.Unexpose(r.key)
	}
}

// startRead starts the network read of a matched rendezvous; false when
// it cannot (the caller falls back to fragments).
func (e *Engine) startRead(r *Request, h *matchHdr, addr, key uint64, src int, rd RemoteReader) bool {
	k := r.Status.Count
	r.remote = h.sreq
	if k > 0 && !rd.ReadAsync(src, r.Buf, k, addr, key, r.ID) {
		return false
	}
	e.Counters.RndvGet++
	e.Counters.RndvGetBytes += uint64(k)
	if k == 0 {
		e.sendCtrl(src, tagFin, ackHdr{sreq: h.sreq})
		e.complete(r)
	}
	return true
}

// onReadDone finishes a network read: FIN to the sender, or, when the read
// failed (a bad key or address from the peer, a provider error), the
// fragments asked for instead, so the message still arrives.
func (e *Engine) onReadDone(id uint32, ok bool) {
	r := e.reqs.lookup(id)
	if r == nil || r.Kind != KindRecv || r.done {
		return
	}
	if ok {
		e.sendCtrl(r.srcWorld, tagFin, ackHdr{sreq: r.remote})
		e.complete(r)
		return
	}
	e.Counters.RndvGet--
	e.Counters.RndvGetBytes -= uint64(r.Status.Count)
	e.Counters.RndvPipe++
	e.Counters.RndvPipeBytes += uint64(r.Status.Count)
	r.received = 0
	e.sendCtrl(r.srcWorld, tagAck, ackHdr{sreq: r.remote, rreq: r.ID})
}
