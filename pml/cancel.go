package pml

import "unsafe"

// CancelSend asks the receiver to withdraw a send that has not completed.
// The receiver answers whether the message was still unmatched; if so the
// send completes as cancelled, otherwise it completes normally. Either way a
// wait on it returns, as the standard requires.
func (e *Engine) CancelSend(r *Request) {
	if r.done || r.Kind != KindSend || r.cancel {
		return
	}
	r.cancel = true
	if r.stage != stageHdr { // else sendFirst sends the cancel right after the header
		e.sendCancel(r)
	}
}

func (e *Engine) sendCancel(r *Request) {
	h := &cancelHdr{ctx: r.Comm.Ctx, src: int32(r.Comm.Rank), sreq: r.ID}
	if e.route[r.dst].SendI(r.dst, tagCancel, unsafe.Pointer(h), cancelHdrLen, nil, 0) {
		return
	}
	// Rare: no room. Retry from the pending queue as a control message.
	e.ctrlQ = append(e.ctrlQ, ctrlMsg{dst: r.dst, tag: tagCancel, a: ackHdr{sreq: r.ID, rreq: r.Comm.Ctx}, src: int32(r.Comm.Rank)})
	*e.pending = 1
}

// onCancel withdraws the named message if it is still unexpected here.
func (e *Engine) onCancel(src int, h *cancelHdr) {
	ok := uint32(0)
	if int(h.ctx) < len(e.comms) && e.comms[h.ctx] != nil {
		c := e.comms[h.ctx]
		p := &c.peers[h.src]
		for u := p.unexp.head; u != nil; u = u.next {
			if u.hdr.sreq == h.sreq && (u.rndv || u.hdr.flags&flagSync != 0) {
				c.removeUnexpected(u)
				e.pool.put(u)
				ok = 1
				break
			}
		}
	}
	e.sendCtrl(src, tagCanAck, ackHdr{sreq: h.sreq, rreq: ok})
}

func (e *Engine) onCancelAck(a *ackHdr) {
	r := e.reqs.get(a.sreq)
	if r == nil || r.done || a.rreq == 0 {
		return
	}
	r.Status.Cancelled = true
	e.complete(r)
}
