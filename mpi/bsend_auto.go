package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/pml"
)

// BufferAutomatic is MPI_BUFFER_AUTOMATIC (MPI-4.1 3.6): attached instead of
// a user buffer, it makes the library find the space for every buffered
// send itself, so such a send never fails for lack of room. Detach returns
// it, with size 0.
var BufferAutomatic = bufferAutomaticPtr()

var bufferAutomaticAddr = uintptr(1<<64 + abi.BufferAutomaticAddr) // (void *)-2

func bufferAutomaticPtr() unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&bufferAutomaticAddr))
}

// bsendAuto sends a buffered message out of a copy the library allocates
// (from the pack pool, so a steady stream reuses its buffers). A send that
// left at once gives its copy back now; the others stay in b.segs until
// they complete, so flush and detach wait for them as for a user buffer.
func (c *Comm) bsendAuto(b *bpool, buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int) error {
	st.eng.Progress()
	b.reap()
	tmp := getBuf(count * dt.Size)
	dt.Pack(tmp, buf, count, 0)
	r := st.eng.Isend(c.pc, tmpPtr(tmp), len(tmp), dest, tag, pml.ModeStandard)
	if r == nil {
		putBuf(tmp)
		return nil
	}
	b.segs = append(b.segs, bseg{off: -1, r: r, tmp: tmp})
	return nil
}
