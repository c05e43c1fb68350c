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

// The attached buffer holds copies of buffered sends until they complete;
// segments are kept sorted by offset and allocated first-fit.
var bsend struct {
	buf  unsafe.Pointer
	size int
	segs []bseg
}

type bseg struct {
	off, n int
	r      *Request
}

// BufferAttach attaches the user's buffer for buffered sends.
func BufferAttach(buf unsafe.Pointer, size int) error {
	if bsend.buf != nil {
		return Raise(nil, abi.ErrBuffer, "MPI_Buffer_attach", "a buffer is already attached")
	}
	if size < 0 {
		return Raise(nil, abi.ErrArg, "MPI_Buffer_attach", "size is negative")
	}
	bsend.buf, bsend.size = buf, size
	return nil
}

// BufferDetach waits for every buffered send to leave, then detaches.
func BufferDetach() (unsafe.Pointer, int, error) {
	if bsend.buf == nil {
		return nil, 0, Raise(nil, abi.ErrBuffer, "MPI_Buffer_detach", "no buffer is attached")
	}
	for len(bsend.segs) > 0 {
		st.eng.Wait(bsend.segs[0].r)
		reapBsend()
	}
	buf, size := bsend.buf, bsend.size
	bsend.buf, bsend.size = nil, 0
	return buf, size, nil
}

func reapBsend() {
	keep := bsend.segs[:0]
	for _, s := range bsend.segs {
		if s.r.Done() {
			st.eng.Release(s.r)
		} else {
			keep = append(keep, s)
		}
	}
	bsend.segs = keep
}

// allocBsend finds room for n bytes (plus overhead), first-fit.
func allocBsend(n int) (int, bool) {
	need := n + BsendOverhead
	st.eng.Progress()
	reapBsend()
	off := 0
	for _, s := range bsend.segs {
		if s.off-off >= need {
			return off, true
		}
		off = s.off + s.n
	}
	return off, bsend.size-off >= need
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
	off, ok := allocBsend(n)
	if !ok {
		return c.raise(errf(abi.ErrBuffer, call, "attached buffer (%d bytes) has no room for %d bytes plus MPI_BSEND_OVERHEAD", bsend.size, n))
	}
	dst := unsafe.Add(bsend.buf, off)
	dt.Pack(unsafe.Slice((*byte)(dst), n), buf, count, 0)
	r := st.eng.Isend(c.pc, dst, n, dest, tag, pml.ModeStandard)
	if r != nil {
		bsend.segs = append(bsend.segs, bseg{off: off, n: n + BsendOverhead, r: r})
		sort.Slice(bsend.segs, func(i, j int) bool { return bsend.segs[i].off < bsend.segs[j].off })
	}
	return nil
}

// startBsend starts a persistent buffered send: copy, then it is complete.
func (c *Comm) startBsend(r *Request) error {
	err := c.bsendCopy("MPI_Start", r.Buf, r.Size, TypeFromHandle(abi.Byte), r.Peer, r.Tag)
	st.eng.CompleteNow(r, Status{})
	return err
}
