package osc

import (
	"encoding/binary"
	"fmt"

	"gompi/abi"
	"gompi/datatype"
	"gompi/op"
)

// Active messages carry RMA to targets on other nodes (PathAM): the origin
// flattens the target datatype into blocks (offset, length) relative to the
// target address, ships them with the packed data through a Remote, and the
// target's progress engine applies them (Serve) and replies. Everything in
// a request is validated before any byte of the target's memory is touched.
//
// Request: a 32-byte header, nblk blocks of two little-endian int64, data.
//   0 kind  1 flags  2 op index  3 unused  4 base datatype handle (int32)
//   8 seq (the reply's tag)  12 nblk  16 data length  20 unused  24 address
// Reply: int32 error class, uint32 length, then the data (or, on error, a
// reason).

// Request kinds.
const (
	AMPut uint8 = iota + 1
	AMGet
	AMAcc // flags&AMFetch: MPI_Get_accumulate / MPI_Fetch_and_op
	AMCas
	AMLock // flags&AMExclusive
	AMUnlock
	AMPost
	AMDone
	amKinds
)

// Request flags.
const (
	AMFetch     = 1
	AMExclusive = 2
)

const (
	AMHeader      = 32
	AMMaxData     = 32 << 10 // data bytes of one request or reply
	AMMaxBlocks   = 2048     // blocks of one request
	AMMax         = AMHeader + AMMaxData + 16*AMMaxBlocks
	AMReplyHeader = 8
	AMMaxReply    = AMReplyHeader + AMMaxData
	// AMSeqMax bounds the sequence numbers, which are reply tags (tag 0 is
	// the requests').
	AMSeqMax = 1 << 20
	amCasMax = 32 // largest predefined element a compare-and-swap names
)

var le = binary.LittleEndian

// amHdr is a decoded request header.
type amHdr struct {
	kind, flags, op uint8
	dtype           int32
	seq             uint32
	nblk, dlen      uint32
	addr            uint64
}

func (h *amHdr) put(b []byte) {
	b[0], b[1], b[2], b[3] = h.kind, h.flags, h.op, 0
	le.PutUint32(b[4:], uint32(h.dtype))
	le.PutUint32(b[8:], h.seq)
	le.PutUint32(b[12:], h.nblk)
	le.PutUint32(b[16:], h.dlen)
	le.PutUint32(b[20:], 0)
	le.PutUint64(b[24:], h.addr)
}

// AMSeq is the sequence number (reply tag) of a request; ok is false when
// the request is too short or the number out of range, and then no reply
// can be addressed.
func AMSeq(msg []byte) (uint32, bool) {
	if len(msg) < AMHeader {
		return 0, false
	}
	s := le.Uint32(msg[8:])
	return s, s > 0 && s < AMSeqMax
}

// amReq is a validated request.
type amReq struct {
	amHdr
	blocks []byte // nblk (offset, length) pairs
	data   []byte
	sum    int64 // bytes the blocks cover
	base   *datatype.Type
	o      *op.Op
}

func (r *amReq) block(i int) (off, n int64) {
	return int64(le.Uint64(r.blocks[16*i:])), int64(le.Uint64(r.blocks[16*i+8:]))
}

func amErr(format string, a ...any) *Error {
	return errf(abi.ErrOther, "corrupt one-sided request: "+fmt.Sprintf(format, a...))
}

// decodeAM checks a request's framing and self-consistency (not the target
// ranges, which need the window): lengths agree, blocks are positive and
// fit a reply, accumulates name a predefined type and op that go together.
func decodeAM(msg []byte) (amReq, *Error) {
	var r amReq
	if len(msg) < AMHeader {
		return r, amErr("%d bytes", len(msg))
	}
	r.kind, r.flags, r.op = msg[0], msg[1], msg[2]
	r.dtype = int32(le.Uint32(msg[4:]))
	r.seq, r.nblk, r.dlen = le.Uint32(msg[8:]), le.Uint32(msg[12:]), le.Uint32(msg[16:])
	r.addr = le.Uint64(msg[24:])
	if r.kind == 0 || r.kind >= amKinds {
		return r, amErr("kind %d", r.kind)
	}
	if r.nblk > AMMaxBlocks || r.dlen > AMMaxData {
		return r, amErr("%d blocks, %d data bytes", r.nblk, r.dlen)
	}
	if uint64(len(msg)) != AMHeader+16*uint64(r.nblk)+uint64(r.dlen) {
		return r, amErr("length %d for %d blocks and %d data bytes", len(msg), r.nblk, r.dlen)
	}
	r.blocks = msg[AMHeader : AMHeader+16*r.nblk]
	r.data = msg[AMHeader+16*r.nblk:]
	for i := 0; i < int(r.nblk); i++ {
		_, n := r.block(i)
		if n <= 0 || n > AMMaxData {
			return r, amErr("block of %d bytes", n)
		}
		r.sum += n
		if r.sum > AMMaxData {
			return r, amErr("blocks cover more than %d bytes", AMMaxData)
		}
	}
	switch r.kind {
	case AMPut:
		if int64(r.dlen) != r.sum {
			return r, amErr("put of %d bytes into %d", r.dlen, r.sum)
		}
	case AMGet:
		if r.dlen != 0 {
			return r, amErr("get carries data")
		}
	case AMAcc:
		r.base = datatype.Predefined(r.dtype)
		r.o = op.Lookup(abi.OpMax + int32(r.op))
		if r.base == nil || r.o == nil || !r.o.Predefined() {
			return r, amErr("accumulate datatype %#x op %d", uint32(r.dtype), r.op)
		}
		if r.base.Size <= 0 || r.sum%int64(r.base.Size) != 0 {
			return r, amErr("accumulate of %d bytes of %d-byte elements", r.sum, r.base.Size)
		}
		if r.o.Index() == op.INoOp {
			if r.dlen != 0 {
				return r, amErr("MPI_NO_OP carries data")
			}
		} else if int64(r.dlen) != r.sum || r.o.CheckAccumulate(r.base) != 0 {
			return r, amErr("accumulate of %d bytes into %d, or op %d not for the type", r.dlen, r.sum, r.op)
		}
	case AMCas:
		if r.nblk != 1 || r.sum > amCasMax || int64(r.dlen) != 2*r.sum {
			return r, amErr("compare-and-swap shape")
		}
	default:
		if r.nblk != 0 || r.dlen != 0 {
			return r, amErr("control request with a payload")
		}
	}
	return r, nil
}

// replyLen is the data bytes a request's reply carries.
func (r *amReq) replyLen() int64 {
	switch {
	case r.kind == AMGet, r.kind == AMAcc && r.flags&AMFetch != 0, r.kind == AMCas:
		return r.sum
	}
	return 0
}

// putReply writes a reply header (and, on error, the reason) into reply and
// returns the reply's length.
func putReply(reply []byte, e *Error, n int) int {
	if e == nil {
		le.PutUint32(reply, 0)
		le.PutUint32(reply[4:], uint32(n))
		return AMReplyHeader + n
	}
	msg := e.Msg
	if len(msg) > 200 { // the origin's reply buffers hold at least 256
		msg = msg[:200]
	}
	m := copy(reply[AMReplyHeader:], msg)
	le.PutUint32(reply, uint32(e.Class))
	le.PutUint32(reply[4:], uint32(m))
	return AMReplyHeader + m
}

// decodeReply checks a reply of got bytes that should carry want data bytes.
func decodeReply(reply []byte, got, want int, t int) ([]byte, *Error) {
	if got < AMReplyHeader || got > len(reply) {
		return nil, errf(abi.ErrOther, fmt.Sprintf("window rank %d sent a malformed one-sided reply (%d bytes)", t, got))
	}
	class, n := int32(le.Uint32(reply)), int(le.Uint32(reply[4:]))
	if n != got-AMReplyHeader {
		return nil, errf(abi.ErrOther, fmt.Sprintf("window rank %d sent a malformed one-sided reply", t))
	}
	if class != 0 {
		return nil, errf(int(class), fmt.Sprintf("at window rank %d: %s", t, reply[AMReplyHeader:got]))
	}
	if n != want {
		return nil, errf(abi.ErrOther, fmt.Sprintf("window rank %d replied %d bytes, want %d", t, n, want))
	}
	return reply[AMReplyHeader:got], nil
}
