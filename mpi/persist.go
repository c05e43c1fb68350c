package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/pml"
)

// SendInit makes a persistent send request (MPI_Send_init and friends).
func (c *Comm) SendInit(buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int, mode uint8) (*Request, error) {
	call := [...]string{"MPI_Send_init", "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Bsend_init"}[mode]
	if e := c.checkSend(call, buf, count, dt, dest, tag); e != nil {
		return nil, c.raise(e)
	}
	r := st.eng.NewRequest()
	if dt.Contig {
		st.eng.InitSend(r, c.pc, buf, count*dt.Size, dest, tag, mode)
		r.User = c
	} else { // packed again at every start
		u := &typedReq{comm: c, buf: buf, count: count, dt: dt, tmp: make([]byte, dt.PackSize(count))}
		st.eng.InitSend(r, c.pc, tmpPtr(u.tmp), len(u.tmp), dest, tag, mode)
		r.User = u
	}
	r.Persistent = true
	return r, nil
}

// RecvInit makes a persistent receive request.
func (c *Comm) RecvInit(buf unsafe.Pointer, count int, dt *datatype.Type, src, tag int) (*Request, error) {
	if e := c.checkRecv("MPI_Recv_init", buf, count, dt, src, tag); e != nil {
		return nil, c.raise(e)
	}
	r := st.eng.NewRequest()
	if dt.Contig {
		st.eng.InitRecv(r, c.pc, buf, count*dt.Size, src, tag)
		r.User = c
	} else { // unpacked at every completion
		u := newRecvTarget(c, buf, count, dt)
		st.eng.InitRecv(r, c.pc, tmpPtr(u.tmp), len(u.tmp), src, tag)
		r.User = u
	}
	r.Persistent = true
	return r, nil
}

// Start activates a persistent request.
func Start(r *Request) error {
	if r.Kind == pml.KindColl {
		return startColl(r)
	}
	if r.Kind == pml.KindPart {
		return startPart(r)
	}
	c := reqComm(r)
	if !r.Persistent || c == nil {
		return Raise(c, abi.ErrRequest, "MPI_Start", "request is not persistent")
	}
	if r.Active {
		return c.raise(errf(abi.ErrRequest, "MPI_Start", "request is already active"))
	}
	if r.Peer == abi.ProcNull {
		st.eng.CompleteNow(r, ProcNullStatus)
		return nil
	}
	restartTyped(r)
	if r.Kind == pml.KindSend {
		if r.Mode == pml.ModeBuffered {
			return c.startBsend(r)
		}
		st.eng.StartSend(r)
	} else {
		st.eng.StartRecv(r)
	}
	return nil
}

// CommOf returns the communicator a request belongs to (for error handlers).
func CommOf(r *Request) *Comm {
	if c := reqComm(r); c != nil {
		return c
	}
	for _, c := range append([]*Comm{st.world, st.self}, st.comms...) {
		if c != nil && r.Comm == c.pc {
			return c
		}
	}
	return st.world
}
