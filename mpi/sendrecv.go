package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/internal/mtlock"
)

// Sendrecv sends and receives at once (no deadlock between pairs).
func (c *Comm) Sendrecv(sbuf unsafe.Pointer, scount int, stype *datatype.Type, dest, stag int,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type, src, rtag int) (Status, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if e := c.checkSend("MPI_Sendrecv", sbuf, scount, stype, dest, stag); e != nil {
		return Status{}, c.raise(e)
	}
	if e := c.checkRecv("MPI_Sendrecv", rbuf, rcount, rtype, src, rtag); e != nil {
		return Status{}, c.raise(e)
	}
	r, _ := c.Irecv(rbuf, rcount, rtype, src, rtag)
	if err := c.Send(sbuf, scount, stype, dest, stag); err != nil {
		return Status{}, err
	}
	s, err := c.Wait(r)
	return s, err
}

// SendrecvReplace sends buf and receives into it.
func (c *Comm) SendrecvReplace(buf unsafe.Pointer, count int, dt *datatype.Type, dest, stag, src, rtag int) (Status, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if e := c.checkSend("MPI_Sendrecv_replace", buf, count, dt, dest, stag); e != nil {
		return Status{}, c.raise(e)
	}
	if e := c.checkRecv("MPI_Sendrecv_replace", buf, count, dt, src, rtag); e != nil {
		return Status{}, c.raise(e)
	}
	// The message lands packed and is unpacked once the send has read buf.
	tmp := make([]byte, dt.PackSize(count))
	r, _ := c.Irecv(tmpPtr(tmp), len(tmp), TypeFromHandle(abi.Byte), src, rtag)
	if err := c.Send(buf, count, dt, dest, stag); err != nil {
		return Status{}, err
	}
	s, err := c.Wait(r)
	if src != abi.ProcNull {
		dt.Unpack(buf, count, tmp[:min(s.Count, len(tmp))], 0)
	}
	return s, err
}
