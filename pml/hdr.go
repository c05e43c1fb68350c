package pml

import "unsafe"

// Fragment types, carried as the btl tag.
const (
	tagMatch   uint8 = 1  // eager: matchHdr + the whole message
	tagRndv    uint8 = 2  // rendezvous: rndvHdr, data follows by get or fragments
	tagAck     uint8 = 3  // receiver matched a rendezvous and wants fragments
	tagFrag    uint8 = 4  // one pipelined fragment: fragHdr + data
	tagFin     uint8 = 5  // receiver finished its single-copy get
	tagSyncAck uint8 = 6  // receiver matched a synchronous eager send
	tagCancel  uint8 = 7  // sender asks to withdraw an unmatched message (cancelHdr)
	tagCanAck  uint8 = 8  // receiver's answer: ackHdr{sreq, rreq: 1 when withdrawn}
	tagPutReq  uint8 = 9  // receiver asks the sender to write part of a single-copy message
	tagPutFin  uint8 = 10 // sender wrote its part (ackHdr.sreq: 1 when the write failed)
)

// Header flags.
const (
	flagSync uint16 = 1 << iota // sender waits for the match (MPI_Ssend)
	flagGet                     // sender's buffer may be read directly (single copy)
	flagBusy                    // sender is receiving from this peer: do not ask it to write a part
)

// matchHdr starts every matchable fragment.
type matchHdr struct {
	ctx   uint32
	src   int32 // sender's rank in the communicator
	tag   int32
	seq   uint16
	flags uint16
	sreq  uint32 // sender's request id, for acknowledgements
	_     uint32
}

// rndvHdr announces a message sent by rendezvous.
type rndvHdr struct {
	matchHdr
	size uint64
	addr uint64 // sender buffer, for single copy
	key  uint64 // its memory key for a network read (RemoteReader); 0 on sm
}

// ackHdr asks the sender to stream fragments (or acknowledges a sync send).
// A split transfer's request and answer also name the part: bytes [off,
// off+n) of the message, at addr in the receiver's buffer.
type ackHdr struct {
	sreq uint32
	rreq uint32
	off  uint64
	n    uint64
	addr uint64
}

// fragHdr precedes one pipelined fragment.
type fragHdr struct {
	rreq   uint32
	_      uint32
	offset uint64
}

// cancelHdr names a sent message by its communicator, source and request.
type cancelHdr struct {
	ctx  uint32
	src  int32
	sreq uint32
	_    uint32
}

const (
	cancelHdrLen = int(unsafe.Sizeof(cancelHdr{}))
	matchHdrLen  = int(unsafe.Sizeof(matchHdr{}))
	rndvHdrLen   = int(unsafe.Sizeof(rndvHdr{}))
	ackHdrLen    = int(unsafe.Sizeof(ackHdr{}))
	fragHdrLen   = int(unsafe.Sizeof(fragHdr{}))
)
