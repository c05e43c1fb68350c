package mpi

import (
	"unsafe"

	"gompi/pml"
)

// FastComms lets the library's C fast path serve every intracommunicator,
// not only MPI_COMM_WORLD: a communicator's sequence numbers and matching
// counter then live in memory C allocates (Alloc), and C learns the
// communicator's handle, context id and rank map (Publish) once it is
// registered. MPI_Comm_free first turns the receives C queued into Go
// requests and unpublishes the handle; the memory goes back (Free) when the
// pml state is unregistered. Set by the C API when it enables the fast path
// (nil: communicators keep Go memory and stay off the C path).
type FastComms struct {
	Alloc     func(n int) (seq []pml.SeqPair, sh *pml.Shared, mem unsafe.Pointer)
	Publish   func(h int32, ctx uint32, rank int, world []int, mem unsafe.Pointer)
	Unpublish func(h int32)
	Free      func(mem unsafe.Pointer)
}

var fastComms *FastComms

// SetFastComms installs (or, with nil, removes) the C fast path's hooks.
func SetFastComms(f *FastComms) { fastComms = f }

// newFastPC makes the point-to-point matching state of a new
// intracommunicator, in C memory when the fast path serves it.
func newFastPC(ctx uint32, me int, group []int) (*pml.Comm, unsafe.Pointer) {
	if fastComms == nil {
		return pml.NewComm(ctx, me, group), nil
	}
	seq, sh, mem := fastComms.Alloc(len(group))
	if mem == nil {
		return pml.NewComm(ctx, me, group), nil
	}
	return pml.NewCommShared(ctx, me, group, seq, sh), mem
}

// publishFast makes a registered intracommunicator known to the C path.
func (c *Comm) publishFast() {
	if c.fastMem != nil && fastComms != nil {
		fastComms.Publish(c.Handle, c.pc.Ctx, c.rank, c.group, c.fastMem)
	}
}

// unpublishFast, at MPI_Comm_free: receives the C path queued (on any
// communicator) become Go requests first, so nothing refers to the handle
// from C once it is gone.
func (c *Comm) unpublishFast() {
	if c.fastMem != nil && fastComms != nil {
		st.eng.AdoptForeign()
		fastComms.Unpublish(c.Handle)
	}
}

// freeFast gives the C memory back once the pml state is unregistered.
func (c *Comm) freeFast() {
	if c.fastMem != nil && fastComms != nil {
		fastComms.Free(c.fastMem)
	}
	c.fastMem = nil
}
