package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/internal/mtlock"
	"gompi/pml"
)

func (c *Comm) checkBuf(call string, buf unsafe.Pointer, count int, dt *datatype.Type) *Error {
	if count < 0 {
		return errf(abi.ErrCount, call, "count %d is negative", count)
	}
	if dt == nil {
		return errf(abi.ErrType, call, "invalid datatype")
	}
	if !dt.Committed {
		return errf(abi.ErrType, call, "datatype %s is not committed", dt.Name)
	}
	if buf == nil && count > 0 && dt.Size > 0 && dt.Builtin {
		return errf(abi.ErrBuffer, call, "buffer is NULL")
	}
	return nil
}

func (c *Comm) checkSend(call string, buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int) *Error {
	if e := c.checkBuf(call, buf, count, dt); e != nil {
		return e
	}
	if dest != abi.ProcNull && (dest < 0 || dest >= c.PeerSize()) {
		return errf(abi.ErrRank, call, "destination rank %d is not in [0, %d)", dest, c.PeerSize())
	}
	if tag < 0 || tag > abi.TagUB {
		return errf(abi.ErrTag, call, "tag %d is not in [0, MPI_TAG_UB]", tag)
	}
	return nil
}

func (c *Comm) checkRecv(call string, buf unsafe.Pointer, count int, dt *datatype.Type, src, tag int) *Error {
	if e := c.checkBuf(call, buf, count, dt); e != nil {
		return e
	}
	if src != abi.ProcNull && src != abi.AnySource && (src < 0 || src >= c.PeerSize()) {
		return errf(abi.ErrRank, call, "source rank %d is not in [0, %d)", src, c.PeerSize())
	}
	if tag != abi.AnyTag && (tag < 0 || tag > abi.TagUB) {
		return errf(abi.ErrTag, call, "tag %d is not in [0, MPI_TAG_UB] nor MPI_ANY_TAG", tag)
	}
	return nil
}

// Send is a blocking standard-mode send (mode selects Ssend/Rsend/Bsend).
func (c *Comm) Send(buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int) error {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return c.send("MPI_Send", buf, count, dt, dest, tag, pml.ModeStandard)
}

// Ssend is a synchronous send: it returns once the receive has matched.
func (c *Comm) Ssend(buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int) error {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return c.send("MPI_Ssend", buf, count, dt, dest, tag, pml.ModeSync)
}

// Rsend is a ready-mode send (the receive must already be posted).
func (c *Comm) Rsend(buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int) error {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return c.send("MPI_Rsend", buf, count, dt, dest, tag, pml.ModeReady)
}

func (c *Comm) send(call string, buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int, mode uint8) error {
	if e := c.checkSend(call, buf, count, dt, dest, tag); e != nil {
		return c.raise(e)
	}
	if dest == abi.ProcNull {
		return nil
	}
	if dt.Contig {
		st.eng.Send(c.pc, buf, count*dt.Size, dest, tag, mode)
		return nil
	}
	c.sendPacked(buf, count, dt, dest, tag, mode)
	return nil
}

// Isend starts a nonblocking send; mode picks Issend/Irsend.
func (c *Comm) Isend(buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int, mode uint8) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := [...]string{"MPI_Isend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend"}[mode]
	if e := c.checkSend(call, buf, count, dt, dest, tag); e != nil {
		return nil, c.raise(e)
	}
	if dest == abi.ProcNull {
		return nil, nil
	}
	if dt.Contig {
		return st.eng.Isend(c.pc, buf, count*dt.Size, dest, tag, mode), nil
	}
	tmp := packSend(buf, count, dt)
	r := st.eng.Isend(c.pc, tmpPtr(tmp), len(tmp), dest, tag, mode)
	if r != nil {
		r.User = tmp // keep the packed copy alive until completion
	}
	return r, nil
}

// Recv is a blocking receive.
func (c *Comm) Recv(buf unsafe.Pointer, count int, dt *datatype.Type, src, tag int) (Status, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if e := c.checkRecv("MPI_Recv", buf, count, dt, src, tag); e != nil {
		return Status{}, c.raise(e)
	}
	if src == abi.ProcNull {
		return ProcNullStatus, nil
	}
	if dt.Contig {
		s := st.eng.Recv(c.pc, buf, count*dt.Size, src, tag)
		return s, c.statusErr("MPI_Recv", s)
	}
	r, _ := c.Irecv(buf, count, dt, src, tag)
	s, err := c.Wait(r)
	return s, err
}

func (c *Comm) statusErr(call string, s Status) error {
	if s.Err == 0 {
		return nil
	}
	return c.raise(errf(s.Err, call, "message from rank %d with tag %d is longer than the receive buffer", s.Source, s.Tag))
}

// Irecv posts a nonblocking receive.
func (c *Comm) Irecv(buf unsafe.Pointer, count int, dt *datatype.Type, src, tag int) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if e := c.checkRecv("MPI_Irecv", buf, count, dt, src, tag); e != nil {
		return nil, c.raise(e)
	}
	if src == abi.ProcNull {
		return nil, nil
	}
	if dt.Contig {
		return st.eng.Irecv(c.pc, buf, count*dt.Size, src, tag), nil
	}
	u := newRecvTarget(c, buf, count, dt)
	r := st.eng.Irecv(c.pc, tmpPtr(u.tmp), len(u.tmp), src, tag)
	r.User = u
	finishRecv(r)
	return r, nil
}

// Wait completes r and reports its status; a nil r is already complete.
func (c *Comm) Wait(r *Request) (Status, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if r == nil {
		return ProcNullStatus, nil
	}
	st.eng.Wait(r)
	s := Finish(r)
	return s, c.statusErr("MPI_Wait", s)
}
