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
	raddr    uint64 // split transfer: the sender's buffer address
	postSeq  uint64
	srcWorld int
	prev     *Request
	next     *Request
	queued   bool // on the pending-send list
	cancel   bool // a send cancel was requested
	whole    bool // receive: read all of a single-copy message here, never split
	read     bool // single-copy send whose receiver may be reading it (Engine.readsOut)
	pendNext *Request
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

// requestTable hands out requests by id with a free list.
type requestTable struct {
	all  []*Request
	free []uint32
}

func (t *requestTable) alloc() *Request {
	if n := len(t.free); n > 0 {
		id := t.free[n-1]
		t.free = t.free[:n-1]
		r := t.all[id]
		*r = Request{ID: id}
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
	t.free = append(t.free, r.ID)
}

func (t *requestTable) get(id uint32) *Request {
	if int(id) >= len(t.all) {
		return nil
	}
	return t.all[id]
}
