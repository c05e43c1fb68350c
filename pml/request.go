package pml

import (
	"unsafe"
)

// Request kinds.
const (
	KindSend uint8 = iota + 1
	KindRecv
)

// Send modes.
const (
	ModeStandard uint8 = iota
	ModeSync
	ModeReady
	ModeBuffered
)

// Status is what a completed operation reports (counts in bytes).
type Status struct {
	Source    int
	Tag       int
	Count     int
	Err       int
	Cancelled bool
}

// Request is one nonblocking operation. Requests live in a table and are
// recycled; the id is what remote peers and the C handles refer to.
type Request struct {
	ID         uint32
	Kind       uint8
	Mode       uint8
	done       bool
	Persistent bool
	Active     bool // persistent: started and not yet completed
	Freed      bool // MPI_Request_free while active: release at completion
	Comm       *Comm
	Buf        unsafe.Pointer
	Size       int // bytes to send, or receive capacity
	Peer       int // communicator rank (or AnySource)
	Tag        int
	Status     Status
	// User is the upper layer's per-request state (datatype bookkeeping).
	User any
	// Part is the state of a partitioned request (part.go), else nil.
	Part *PartState

	dst      int // destination world rank (send)
	proto    uint8
	stage    uint8
	offset   int    // bytes handed to the transport (pipelined send)
	remote   uint32 // peer's request id
	total    int    // rendezvous: bytes the sender announced
	received int
	raddr    uint64 // split transfer: the sender's buffer address; network read: what the header announces
	key      uint64 // network read: the send buffer's memory key (exposed)
	exposed  bool   // send buffer registered for a network read: Unexpose on completion
	postSeq  uint64
	srcWorld int
	prev     *Request
	next     *Request
	queued   bool // on the pending-send list
	cancel   bool // a send cancel was requested
	whole    bool // receive: read all of a single-copy message here, never split
	read     bool // single-copy send whose receiver may be reading it (Engine.readsOut)
	pendNext *Request
	released bool // back on the free list: its id resolves to nothing
	// Waiter: a thread waits for r with the MULTIPLE lock released; another
	// thread's Wait or Test of r is then MPI_ERR_REQUEST.
	Waiter bool
}

// Done reports completion.
func (r *Request) Done() bool { return r.done }

// send protocols in flight.
const (
	protoNone uint8 = iota
	protoEager
	protoRndvGet
	protoRndvPipe
)

// send stages.
const (
	stageHdr   uint8 = iota // match or rendezvous header not yet sent
	stageWait               // waiting for the receiver (sync ack, ACK or FIN)
	stageFrags              // streaming pipelined fragments
)

// An id is a slot of the table (low ReqSlotBits) and a generation that
// changes each time the slot is reused, so a stale copy of a completed
// request's handle names no request (MPI_ERR_REQUEST) instead of whatever
// request reuses its slot next. Ids fit the 25 bits C handles give them.
const (
	ReqSlotBits = 21
	reqSlotMask = 1<<ReqSlotBits - 1
	reqGenMask  = 1<<(25-ReqSlotBits) - 1
)

// requestTable hands out requests by id with a free list.
type requestTable struct {
	all  []*Request
	free []uint32
}

func (t *requestTable) alloc() *Request {
	if n := len(t.free); n > 0 {
		slot := t.free[n-1]
		t.free = t.free[:n-1]
		r := t.all[slot]
		gen := (r.ID>>ReqSlotBits + 1) & reqGenMask
		*r = Request{ID: gen<<ReqSlotBits | slot}
		return r
	}
	r := &Request{ID: uint32(len(t.all))}
	t.all = append(t.all, r)
	return r
}

func (t *requestTable) release(r *Request) {
	r.Comm = nil
	r.User = nil
	r.Buf = nil
	r.Part = nil
	r.released = true
	t.free = append(t.free, r.ID&reqSlotMask)
}

// get is the request in id's slot, whatever its generation: protocol
// messages name requests by id and the handlers check the state they find.
func (t *requestTable) get(id uint32) *Request {
	if slot := id & reqSlotMask; int(slot) < len(t.all) {
		return t.all[slot]
	}
	return nil
}

// lookup is the live request id names exactly (C handles).
func (t *requestTable) lookup(id uint32) *Request {
	if r := t.get(id); r != nil && r.ID == id && !r.released {
		return r
	}
	return nil
}
