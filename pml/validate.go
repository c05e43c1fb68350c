package pml

import (
	"fmt"
	"unsafe"
)

// maxMsg bounds the sizes a peer may announce (far beyond any memory).
const maxMsg = 1 << 62

// CheckFrag validates a fragment from a transport that cannot be trusted
// (the network) before it reaches onFrag: its length covers its header,
// the communicator rank it names is the world rank it came from, sizes and
// offsets stay in range, and the requests it names are live ones of ours
// with that peer. Protocol messages that only a shared-memory peer may
// send (split single-copy requests) are refused. A nil error means onFrag
// may take it; the error says what was wrong.
func (e *Engine) CheckFrag(src int, tag uint8, data []byte) error {
	need := 0
	switch tag {
	case tagMatch:
		need = matchHdrLen
	case tagRndv:
		need = rndvHdrLen
	case tagAck, tagFin, tagSyncAck, tagCanAck, tagPartCTS:
		need = ackHdrLen
	case tagFrag:
		need = fragHdrLen
	case tagCancel:
		need = cancelHdrLen
	case tagPartInit:
		need = partInitHdrLen
	case tagPartData:
		need = partDataHdrLen
	default:
		return fmt.Errorf("fragment type %d is not accepted from the network", tag)
	}
	if len(data) < need {
		return fmt.Errorf("fragment type %d of %d bytes is shorter than its %d-byte header", tag, len(data), need)
	}
	if src < 0 || src >= len(e.route) {
		return fmt.Errorf("source %d is not a peer", src)
	}
	if uintptr(unsafe.Pointer(&data[0]))%8 != 0 {
		return fmt.Errorf("fragment is not 8-byte aligned")
	}
	p := unsafe.Pointer(&data[0])
	switch tag {
	case tagMatch, tagRndv:
		h := (*matchHdr)(p)
		if err := e.checkSender(h.ctx, h.src, src); err != nil {
			return err
		}
		if tag == tagRndv && (*rndvHdr)(p).size > maxMsg {
			return fmt.Errorf("rendezvous of %d bytes", (*rndvHdr)(p).size)
		}
	case tagCancel:
		h := (*cancelHdr)(p)
		return e.checkSender(h.ctx, h.src, src)
	case tagAck, tagFin, tagSyncAck, tagCanAck:
		a := (*ackHdr)(p)
		if r := e.reqs.lookup(a.sreq); r == nil || r.Kind != KindSend || r.dst != src {
			return fmt.Errorf("fragment type %d names request %#x, not a send of ours to rank %d", tag, a.sreq, src)
		}
	case tagPartCTS:
		a := (*ackHdr)(p)
		if r := e.reqs.lookup(a.sreq); r == nil || r.Kind != KindPart {
			return fmt.Errorf("partitioned clear-to-send names request %#x, not ours", a.sreq)
		}
	case tagFrag:
		h := (*fragHdr)(p)
		r := e.reqs.lookup(h.rreq)
		if r == nil || r.Kind != KindRecv || r.done || r.srcWorld != src {
			return fmt.Errorf("fragment names request %#x, not a receive of ours from rank %d", h.rreq, src)
		}
		if h.offset > uint64(r.total) || uint64(len(data)-fragHdrLen) > uint64(r.total)-h.offset {
			return fmt.Errorf("fragment [%d, +%d) lies outside the %d-byte message", h.offset, len(data)-fragHdrLen, r.total)
		}
	case tagPartInit:
		h := (*partInitHdr)(p)
		if err := e.checkSender(h.ctx, h.src, src); err != nil {
			return err
		}
		if h.size > maxMsg {
			return fmt.Errorf("partitioned message of %d bytes", h.size)
		}
	case tagPartData:
		h := (*partDataHdr)(p)
		r := e.reqs.lookup(h.rreq)
		if r == nil || r.Kind != KindPart || r.Part == nil || r.Part.Send {
			return fmt.Errorf("partitioned data names request %#x, not a partitioned receive of ours", h.rreq)
		}
		if h.offset > uint64(r.Part.expect) {
			return fmt.Errorf("partitioned data at offset %d beyond the %d-byte message", h.offset, r.Part.expect)
		}
	}
	return nil
}

// checkSender: a communicator's fragment from world rank src must carry
// src's rank in that communicator. Fragments for a communicator not yet
// created here are checked when it is (Register).
func (e *Engine) checkSender(ctx uint32, rank int32, src int) error {
	if int(ctx) >= len(e.comms) || e.comms[ctx] == nil {
		if ctx > 1<<24 {
			return fmt.Errorf("context id %d is out of range", ctx)
		}
		return nil
	}
	c := e.comms[ctx]
	if rank < 0 || int(rank) >= len(c.World) || c.World[rank] != src {
		return fmt.Errorf("fragment from rank %d names itself rank %d of context %d", src, rank, ctx)
	}
	return nil
}
