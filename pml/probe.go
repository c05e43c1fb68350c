package pml

import "unsafe"

// Message is a matched-probe handle: an unexpected message removed from
// matching, to be received with Mrecv.
type Message = unexp

// Iprobe looks for a matching message without receiving it.
func (e *Engine) Iprobe(c *Comm, peer, tag int) (Status, bool) {
	e.Progress()
	u := c.findUnexpected(peer, tag)
	if u == nil {
		return Status{}, false
	}
	return Status{Source: int(u.hdr.src), Tag: int(u.hdr.tag), Count: u.size}, true
}

// Probe blocks until a matching message is there.
func (e *Engine) Probe(c *Comm, peer, tag int) Status {
	spins := 0
	for {
		if st, ok := e.Iprobe(c, peer, tag); ok {
			return st
		}
		e.Backoff(&spins)
	}
}

// Improbe removes a matching message from matching and returns it.
func (e *Engine) Improbe(c *Comm, peer, tag int) (*Message, Status, bool) {
	e.Progress()
	u := c.findUnexpected(peer, tag)
	if u == nil {
		return nil, Status{}, false
	}
	c.removeUnexpected(u)
	return u, Status{Source: int(u.hdr.src), Tag: int(u.hdr.tag), Count: u.size}, true
}

// Mprobe blocks until Improbe succeeds.
func (e *Engine) Mprobe(c *Comm, peer, tag int) (*Message, Status) {
	spins := 0
	for {
		if m, st, ok := e.Improbe(c, peer, tag); ok {
			return m, st
		}
		e.Backoff(&spins)
	}
}

// Imrecv receives a message taken by Improbe/Mprobe.
func (e *Engine) Imrecv(c *Comm, m *Message, buf unsafe.Pointer, n int) *Request {
	r := e.reqs.alloc()
	e.InitRecv(r, c, buf, n, int(m.hdr.src), int(m.hdr.tag))
	r.done, r.Active = false, true
	e.deliverUnexpected(r, m)
	return r
}

// CancelRecv cancels a posted receive that has not matched.
func (e *Engine) CancelRecv(r *Request) bool {
	if r.done || r.Kind != KindRecv || !r.Comm.unpost(r) {
		return false
	}
	r.Status.Cancelled = true
	e.complete(r)
	return true
}
