package mpi

import (
	"sort"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/pml"
)

// BsendOverhead is the per-message space MPI_Bsend needs beyond the data
// (MPICH's MPI_BSEND_OVERHEAD, so programs size buffers the same way).
const BsendOverhead = 96

// An attached buffer holds copies of buffered sends until they complete;
// segments are kept sorted by offset and allocated first-fit. There is one
// for the process (MPI_Buffer_attach) and, since MPI-4.1, one per
// communicator and per session; a buffered send uses its communicator's,
// else its session's, else the process's (bsend_pools.go).
type bpool struct {
	buf      unsafe.Pointer
	size     int
	attached bool
	auto     bool // MPI_BUFFER_AUTOMATIC: the library allocates (bsend_auto.go)
	segs     []bseg
}

var bsend bpool // the process's buffer

type bseg struct {
	off, n int
	r      *Request
	tmp    []byte // the library's copy, under MPI_BUFFER_AUTOMATIC
}

// BufferAttach attaches the user's buffer for buffered sends.
func BufferAttach(buf unsafe.Pointer, size int) error {
	if e := bsend.attach("MPI_Buffer_attach", buf, size); e != nil {
		return Raise(nil, e.Class, e.Call, e.Detail)
	}
	return nil
}

func (b *bpool) attach(call string, buf unsafe.Pointer, size int) *Error {
	if b.attached {
		return errf(abi.ErrBuffer, call, "a buffer is already attached")
	}
	if size < 0 {
		return errf(abi.ErrArg, call, "size is negative")
	}
	b.buf, b.size, b.attached = buf, size, true
	if buf == BufferAutomatic {
		b.size, b.auto = 0, true
	}
	return nil
}

// BufferDetach waits for every buffered send to leave, then detaches.
func BufferDetach() (unsafe.Pointer, int, error) {
	buf, size, e := bsend.detach("MPI_Buffer_detach")
	if e != nil {
		return nil, 0, Raise(nil, e.Class, e.Call, e.Detail)
	}
	return buf, size, nil
}

func (b *bpool) detach(call string) (unsafe.Pointer, int, *Error) {
	if !b.attached {
		return nil, 0, errf(abi.ErrBuffer, call, "no buffer is attached")
	}
	b.flush()
	buf, size := b.buf, b.size
	b.buf, b.size, b.attached, b.auto = nil, 0, false, false
	return buf, size, nil
}

// flush waits until every buffered send out of b has left it.
func (b *bpool) flush() {
	for len(b.segs) > 0 {
		st.eng.Wait(b.segs[0].r)
		b.reap()
	}
}

func (b *bpool) reap() {
	keep := b.segs[:0]
	for _, s := range b.segs {
		if s.r.Done() {
			st.eng.Release(s.r)
			putBuf(s.tmp)
		} else {
			keep = append(keep, s)
		}
	}
	b.segs = keep
}

// alloc finds room for n bytes (plus overhead), first-fit.
func (b *bpool) alloc(n int) (int, bool) {
	need := n + BsendOverhead
	st.eng.Progress()
	b.reap()
	off := 0
	for _, s := range b.segs {
		if s.off-off >= need {
			return off, true
		}
		off = s.off + s.n
	}
	return off, b.size-off >= need
}

// Bsend copies the message into the attached buffer and sends from there.
func (c *Comm) Bsend(buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int) error {
	if e := c.checkSend("MPI_Bsend", buf, count, dt, dest, tag); e != nil {
		return c.raise(e)
	}
	if dest == abi.ProcNull {
		return nil
	}
	return c.bsendCopy("MPI_Bsend", buf, count, dt, dest, tag)
}

func (c *Comm) bsendCopy(call string, buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int) error {
	n := count * dt.Size
	b := c.bsendPool()
	if b.auto {
		return c.bsendAuto(b, buf, count, dt, dest, tag)
	}
	off, ok := b.alloc(n)
	if !ok {
		return c.raise(errf(abi.ErrBuffer, call, "attached buffer (%d bytes) has no room for %d bytes plus MPI_BSEND_OVERHEAD", b.size, n))
	}
	dst := unsafe.Add(b.buf, off)
	dt.Pack(unsafe.Slice((*byte)(dst), n), buf, count, 0)
	r := st.eng.Isend(c.pc, dst, n, dest, tag, pml.ModeStandard)
	if r != nil {
		b.segs = append(b.segs, bseg{off: off, n: n + BsendOverhead, r: r})
		sort.Slice(b.segs, func(i, j int) bool { return b.segs[i].off < b.segs[j].off })
	}
	return nil
}

// startBsend starts a persistent buffered send: copy, then it is complete.
func (c *Comm) startBsend(r *Request) error {
	err := c.bsendCopy("MPI_Start", r.Buf, r.Size, TypeFromHandle(abi.Byte), r.Peer, r.Tag)
	st.eng.CompleteNow(r, Status{})
	return err
}
