package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/attr"
	"gompi/coll"
	"gompi/info"
	"gompi/pml"
	"gompi/shmcoll"
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

	group  []int // world ranks of the (local) group, in rank order
	inter  bool
	remote []int // intercommunicator: world ranks of the remote group
	local  *Comm // intercommunicator: intracommunicator of the local group
	slots  []int // context slots held, returned by Free
	// bpool is the buffer MPI_Comm_attach_buffer attached (nil: none);
	// session the session the communicator derives from (nil: the world).
	bpool   *bpool
	session *Session
	// reserve is a context slot + 1 kept for the first MPI_Comm_idup (0: none).
	reserve int
	// idupSeq numbers the nonblocking idups started on c (ctxid_nb.go).
	idupSeq int
	topo    *Topology
	shm     *shmcoll.Group // shared-memory collectives (nil: not on one node)
	shmMax  *[shmKinds]int // per kind, the largest contribution shm takes
	area    int
	shmRed  *shmReducer
	// direct is set once the first large collective has asked
	// (directAsked) and every member may reach every other's memory
	// (shm_direct.go).
	directAsked bool
	direct      *shmcoll.Direct
	// collTag is the tag of the next collective on cc (all ranks call
	// collectives in the same order, so the counters agree).
	collTag int
	info    *info.Info
	// hier groups the members by node when they span nodes (coll_hier.go).
	hier    *coll.Nodes
	hierSet bool
	// fastMem: C memory of pc's sequence numbers and counter when the C
	// fast path serves c (fastcomm.go), else nil.
	fastMem unsafe.Pointer
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
		if i := int(abi.HandleIndex(h) & commSlotMask); i < len(st.comms) {
			if c := st.comms[i]; c != nil && c.Handle == h {
				return c
			}
		}
	}
	return nil
}

func newComm(handle int32, pc, cc *pml.Comm, name string) *Comm {
	return &Comm{Handle: handle, pc: pc, cc: cc, rank: pc.Rank, size: pc.Size(), errh: ErrorsAreFatal, name: name,
		group: pc.World}
}

// PeerSize is the number of ranks a point-to-point call can name: the size
// of an intracommunicator, the remote group size of an intercommunicator.
func (c *Comm) PeerSize() int { return c.pc.Size() }

// IsInter reports whether c is an intercommunicator.
func (c *Comm) IsInter() bool { return c.inter }

// RemoteSize is the remote group size of an intercommunicator (0 otherwise).
func (c *Comm) RemoteSize() int { return len(c.remote) }

// GroupRanks returns the world ranks of c's (local) group in rank order.
func (c *Comm) GroupRanks() []int { return c.group }

// RemoteGroupRanks returns the world ranks of an intercommunicator's remote group.
func (c *Comm) RemoteGroupRanks() []int { return c.remote }

// LocalComm is the intracommunicator of an intercommunicator's local group
// (c itself for an intracommunicator).
func (c *Comm) LocalComm() *Comm {
	if c.inter {
		return c.local
	}
	return c
}

// CollContext is the pml communicator collective traffic uses.
func (c *Comm) CollContext() *pml.Comm { return c.cc }
