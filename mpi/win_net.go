package mpi

import (
	"unsafe"

	"gompi/osc"
	"gompi/pml"
)

// winNet carries a window's operations to targets on other nodes: pml
// messages on a private communicator (a dup of the window's), requests on
// tag 0 received by one posted receive that the progress hook serves (so
// a target applies them inside any MPI call or wait), replies on the
// request's sequence number.
type winNet struct {
	w     *osc.Window
	c     *Comm
	rbuf  []byte
	rreq  *pml.Request
	rep   []byte
	sends []netSend // replies in flight
	hook  pml.Hook
	send  func(to int, seq uint32, b []byte) // n.reply, made once
}

type netSend struct {
	r   *pml.Request
	buf []byte
}

// netOp is one request in flight from this origin.
type netOp struct {
	s, r       *pml.Request
	msg, reply []byte // kept alive until both complete
}

func newWinNet(w *osc.Window, c *Comm) *winNet {
	n := &winNet{w: w, c: c, rbuf: make([]byte, osc.AMMax), rep: make([]byte, osc.AMMaxReply)}
	n.hook = n.progress
	n.send = n.reply
	n.post()
	st.eng.AddHook(&n.hook)
	return n
}

func (n *winNet) post() {
	n.rreq = st.eng.Irecv(n.c.pc, unsafe.Pointer(&n.rbuf[0]), len(n.rbuf), pml.AnySource, 0)
}

// Send starts a request to window rank t (osc.Remote).
func (n *winNet) Send(t int, msg, reply []byte) any {
	seq, _ := osc.AMSeq(msg)
	o := &netOp{msg: msg, reply: reply}
	o.r = st.eng.Irecv(n.c.pc, unsafe.Pointer(&reply[0]), len(reply), t, int(seq))
	o.s = st.eng.Isend(n.c.pc, unsafe.Pointer(&msg[0]), len(msg), t, 0, 0)
	return o
}

// Wait completes a request and returns its reply's length (osc.Remote).
func (n *winNet) Wait(h any) int {
	o := h.(*netOp)
	if o.s != nil {
		st.eng.Wait(o.s)
		st.eng.Release(o.s)
	}
	st.eng.Wait(o.r)
	got := o.r.Status.Count
	if o.r.Status.Err != 0 {
		got = -1 // truncated: reported as a malformed reply
	}
	st.eng.Release(o.r)
	return got
}

// progress serves the requests that arrived and grants waiting locks.
func (n *winNet) progress() int {
	k := 0
	for n.rreq != nil && n.rreq.Done() {
		s := n.rreq.Status
		st.eng.Release(n.rreq)
		n.rreq = nil
		m := min(max(s.Count, 0), len(n.rbuf))
		if l := n.w.Serve(s.Source, n.rbuf[:m], n.rep); l >= 0 {
			seq, _ := osc.AMSeq(n.rbuf[:m])
			n.reply(s.Source, seq, n.rep[:l])
		}
		n.post()
		k++
	}
	k += n.w.GrantLocks(n.send)
	j := 0
	for _, x := range n.sends {
		if x.r.Done() {
			st.eng.Release(x.r)
			continue
		}
		n.sends[j] = x
		j++
	}
	clear(n.sends[j:])
	n.sends = n.sends[:j]
	return k
}

func (n *winNet) reply(to int, seq uint32, b []byte) {
	buf := append([]byte(nil), b...)
	if r := st.eng.Isend(n.c.pc, unsafe.Pointer(&buf[0]), len(buf), to, int(seq), 0); r != nil {
		n.sends = append(n.sends, netSend{r, buf})
	}
}

// close ends the service once every member flushed and passed a barrier:
// no request is in flight to this rank any more.
func (n *winNet) close() {
	for _, x := range n.sends {
		st.eng.Wait(x.r)
		st.eng.Release(x.r)
	}
	n.sends = nil
	st.eng.RemoveHook(&n.hook)
	if n.rreq != nil {
		st.eng.CancelRecv(n.rreq)
		st.eng.Wait(n.rreq)
		st.eng.Release(n.rreq)
		n.rreq = nil
	}
	n.c.release()
}
