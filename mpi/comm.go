package mpi

import (
	"gompi/abi"
	"gompi/attr"
	"gompi/pml"
)

// Comm is a communicator. Point-to-point and collective traffic use separate
// context ids so they never match each other.
type Comm struct {
	Handle int32
	pc     *pml.Comm
	cc     *pml.Comm
	rank   int
	size   int
	errh   *Errhandler
	name   string
	// Attrs holds the attributes cached on the communicator.
	Attrs attr.Store
}

// Rank is the calling process's rank in c.
func (c *Comm) Rank() int { return c.rank }

// Size is the number of processes in c.
func (c *Comm) Size() int { return c.size }

// Name is the communicator's name (MPI_Comm_get_name).
func (c *Comm) Name() string { return c.name }

// SetName sets the name.
func (c *Comm) SetName(n string) { c.name = n }

// Errhandler returns the error handler.
func (c *Comm) Errhandler() *Errhandler { return c.errh }

// SetErrhandler replaces the error handler.
func (c *Comm) SetErrhandler(h *Errhandler) { c.errh = h }

// World is MPI_COMM_WORLD.
func World() *Comm { return st.world }

// Self is MPI_COMM_SELF.
func Self() *Comm { return st.self }

// CommFromHandle resolves a C handle, or nil when it names no communicator.
func CommFromHandle(h int32) *Comm {
	switch uint32(h) >> 26 {
	case abi.KindBuiltin<<4 | abi.ObjComm:
		switch h {
		case abi.CommWorld:
			return st.world
		case abi.CommSelf:
			return st.self
		}
	case abi.KindDirect<<4 | abi.ObjComm:
		if i := int(abi.HandleIndex(h)); i < len(st.comms) {
			return st.comms[i]
		}
	}
	return nil
}

func newComm(handle int32, pc, cc *pml.Comm, name string) *Comm {
	return &Comm{Handle: handle, pc: pc, cc: cc, rank: pc.Rank, size: pc.Size(), errh: ErrorsAreFatal, name: name}
}
