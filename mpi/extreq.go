package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/pml"
)

// KindExt marks requests this layer completes itself, outside the pml:
// generalized requests (MPI_Grequest_start) and the compound requests of
// MPI_Isendrecv. Wait, Test and friends treat them like any request; the
// engine's wait loop sees them done once CompleteNow runs.
const KindExt uint8 = 4

// Grequest is the user's side of a generalized request (C callbacks behind
// Go closures). Query fills the status and returns an error code; Free and
// Cancel return error codes too.
type Grequest struct {
	Query  func(s *Status) int
	Free   func() int
	Cancel func(complete bool) int
	freed  bool // Free already ran
}

// StartGrequest makes a new active generalized request (MPI_Grequest_start).
func StartGrequest(g *Grequest) *Request {
	r := st.eng.NewRequest()
	r.Kind = KindExt
	r.Comm = st.world.pc
	r.User = g
	st.eng.Activate(r)
	return r
}

// CompleteGrequest marks a generalized request complete (MPI_Grequest_complete).
// A request the user already freed releases at once, after its free callback.
func CompleteGrequest(r *Request) error {
	const call = "MPI_Grequest_complete"
	g, ok := r.User.(*Grequest)
	if !ok || r.Kind != KindExt {
		return Raise(nil, abi.ErrRequest, call, "not a generalized request")
	}
	if r.Done() {
		return Raise(nil, abi.ErrRequest, call, "the generalized request is already complete")
	}
	if r.Freed {
		g.runFree()
	}
	st.eng.CompleteNow(r, Status{})
	return nil
}

func (g *Grequest) runFree() int {
	if g.freed || g.Free == nil {
		return 0
	}
	g.freed = true
	return g.Free()
}

// PeekStatus is a completed request's status without releasing it
// (MPI_Request_get_status): a generalized request asks its query callback.
func PeekStatus(r *Request) Status {
	if g, ok := r.User.(*Grequest); ok && r.Kind == KindExt && g.Query != nil {
		s := Status{}
		if rc := g.Query(&s); rc != 0 {
			s.Err = rc
		}
		return s
	}
	return r.Status
}

// finishExt prepares a completed KindExt request's final status: for a
// generalized request, the query callback's status, then its free callback.
func finishExt(r *Request) {
	g, ok := r.User.(*Grequest)
	if !ok {
		finishFileReq(r)
		return
	}
	r.Status = PeekStatus(r)
	if rc := g.runFree(); rc != 0 && r.Status.Err == 0 {
		r.Status.Err = rc
	}
	r.User = nil
}

// freeExt is MPI_Request_free on a KindExt request: a generalized request
// runs its free callback when it completes (or now, if it has).
func freeExt(r *Request) {
	if g, ok := r.User.(*Grequest); ok && r.Done() {
		g.runFree()
	}
}

// cancelExt is MPI_Cancel: a generalized request's cancel callback learns
// whether the request already completed.
func cancelExt(r *Request) {
	if g, ok := r.User.(*Grequest); ok && g.Cancel != nil {
		g.Cancel(r.Done())
	}
}

// sendrecvOp is an MPI_Isendrecv in flight: its request completes, with the
// receive's status, once both halves have.
type sendrecvOp struct {
	req        *Request
	send, recv *Request
	keep       []byte // Isendrecv_replace: the outgoing copy of the buffer
}

var (
	sendrecvs    []*sendrecvOp
	sendrecvHook pml.Hook
)

func init() { sendrecvHook = advanceSendrecvs }

// Isendrecv starts a send and a receive as one request (MPI_Isendrecv).
func (c *Comm) Isendrecv(sbuf unsafe.Pointer, scount int, stype *datatype.Type, dest, stag int,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type, src, rtag int) (*Request, error) {
	return c.isendrecv("MPI_Isendrecv", sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, nil)
}

// IsendrecvReplace is MPI_Isendrecv_replace: the outgoing data is copied
// first, so the receive may land in the same buffer.
func (c *Comm) IsendrecvReplace(buf unsafe.Pointer, count int, dt *datatype.Type, dest, stag, src, rtag int) (*Request, error) {
	const call = "MPI_Isendrecv_replace"
	if e := c.checkBuf(call, buf, count, dt); e != nil {
		return nil, c.raise(e)
	}
	n := count * dt.Size
	tmp := make([]byte, max(n, 1))
	if n > 0 {
		dt.Pack(tmp[:n], buf, count, 0)
	}
	return c.isendrecv(call, unsafe.Pointer(&tmp[0]), n, datatype.Predefined(abi.Byte), dest, stag, buf, count, dt, src, rtag, tmp)
}

func (c *Comm) isendrecv(call string, sbuf unsafe.Pointer, scount int, stype *datatype.Type, dest, stag int,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type, src, rtag int, keep []byte) (*Request, error) {
	if e := c.checkSend(call, sbuf, scount, stype, dest, stag); e != nil {
		return nil, c.raise(e)
	}
	if e := c.checkRecv(call, rbuf, rcount, rtype, src, rtag); e != nil {
		return nil, c.raise(e)
	}
	recv, err := c.Irecv(rbuf, rcount, rtype, src, rtag)
	if err != nil {
		return nil, err
	}
	send, err := c.Isend(sbuf, scount, stype, dest, stag, pml.ModeStandard)
	if err != nil {
		return nil, err
	}
	r := st.eng.NewRequest()
	r.Kind = KindExt
	r.Comm = c.pc
	r.User = c
	st.eng.Activate(r)
	op := &sendrecvOp{req: r, send: send, recv: recv, keep: keep}
	if !op.advance() {
		if len(sendrecvs) == 0 {
			st.eng.AddHook(&sendrecvHook)
		}
		sendrecvs = append(sendrecvs, op)
	}
	return r, nil
}

// advance completes op's request once both halves are done.
func (op *sendrecvOp) advance() bool {
	if op.send != nil && op.send.Done() {
		Finish(op.send)
		op.send = nil
	}
	if op.send != nil || op.recv != nil && !op.recv.Done() {
		return false
	}
	s := ProcNullStatus // a nil receive request: from MPI_PROC_NULL
	if op.recv != nil {
		s = Finish(op.recv)
		op.recv = nil
	}
	op.keep = nil
	st.eng.CompleteNow(op.req, s)
	return true
}

func advanceSendrecvs() int {
	n := 0
	kept := sendrecvs[:0]
	for _, op := range sendrecvs {
		if op.advance() {
			n++
		} else {
			kept = append(kept, op)
		}
	}
	clear(sendrecvs[len(kept):])
	sendrecvs = kept
	if len(sendrecvs) == 0 {
		st.eng.RemoveHook(&sendrecvHook)
	}
	return n
}
