package pml

import (
	"unsafe"

	"gompi/abi"
)

// Partitioned communication (MPI_Psend_init / MPI_Precv_init). A pair of
// partitioned requests is matched once, in the order of their init calls per
// (communicator, sender, tag), by a hello the sender posts at init time.
// Every round (MPI_Start ... completion) the receiver then sends a
// clear-to-send (CTS) naming its request; from then on each partition the
// sender readies goes at once, as its own run of fragments written at its
// byte offset in the receiver's buffer (no matching per partition), and the
// receiver counts the bytes that arrived per receive-side partition. The two
// sides may partition the same number of bytes differently.
//
// Thread safety: the per-request counters (ready flags, bytes sent and
// arrived, credits) are plain words each touched by one kind of event, so
// that MPI_THREAD_MULTIPLE can make them atomic (Pready from several
// threads: atomic flag per partition and atomic add on the byte counts)
// without changing the layout.

// KindPart marks partitioned requests (a value apart from the other kinds).
const KindPart uint8 = 0x10

// Fragment types of the partitioned protocol (btl tags).
const (
	tagPartInit uint8 = 32 // sender -> receiver at init: partInitHdr
	tagPartCTS  uint8 = 33 // receiver -> sender each round: ackHdr{sreq, rreq, off: sender cookie, n: receiver cookie}
	tagPartData uint8 = 34 // sender -> receiver: partDataHdr + bytes at offset
)

type partInitHdr struct {
	ctx    uint32
	src    int32
	tag    int32
	sreq   uint32
	cookie uint32
	_      uint32
	size   uint64
}

type partDataHdr struct {
	rreq   uint32
	cookie uint32
	offset uint64
}

const (
	partInitHdrLen = int(unsafe.Sizeof(partInitHdr{}))
	partDataHdrLen = int(unsafe.Sizeof(partDataHdr{}))
)

// PartState is the partitioned part of a request.
type PartState struct {
	Send      bool
	Parts     int // partitions on this side
	PartBytes int // bytes per partition
	cookie    uint32
	peerReq   uint32 // the other side's request id (known once matched / CTS seen)
	peerCook  uint32
	matched   bool
	// sender
	ready   []uint8 // per partition, this round: 1 readied, 2 handed to the transport
	cts     bool    // the receiver is ready for this round's data
	credits int     // CTSs that arrived before the round they belong to started
	sent    int     // bytes handed to the transport this round
	// receiver
	arrived  []int // per partition, bytes arrived this round
	got      int   // bytes arrived this round
	expect   int   // bytes the sender sends per round (its size, capped at ours)
	ctsSent  bool  // this round's CTS is out
	peerSize int   // the sender's total size
}

// Total is the request's size in bytes.
func (p *PartState) Total() int { return p.Parts * p.PartBytes }

type partInit struct {
	h   partInitHdr
	src int // world rank
}

// partRun is a run of a sender's bytes still to hand to the transport.
type partRun struct {
	r        *Request
	off, end int
}

type partEngine struct {
	inits  []partInit // hellos no Precv_init has taken yet, in arrival order
	posted []*Request // Precv_init requests not yet matched, in init order
	runs   []partRun  // sender bytes waiting for transport room
	cookie uint32
	hook   Hook
	hooked bool
}

func (e *Engine) nextCookie() uint32 {
	e.part.cookie++
	if e.part.cookie == 0 {
		e.part.cookie = 1
	}
	return e.part.cookie
}

// PsendInit makes a partitioned send request of parts partitions of
// partBytes bytes each from buf to peer, and announces it to the receiver.
func (e *Engine) PsendInit(c *Comm, buf unsafe.Pointer, parts, partBytes, peer, tag int) *Request {
	r := e.reqs.alloc()
	r.Kind, r.Comm, r.Buf, r.Size, r.Peer, r.Tag, r.Persistent = KindPart, c, buf, parts*partBytes, peer, tag, true
	r.dst = c.World[peer]
	p := &PartState{Send: true, Parts: parts, PartBytes: partBytes, cookie: e.nextCookie(), ready: make([]uint8, parts)}
	r.Part = p
	r.Status = Status{Source: c.Rank, Tag: tag}
	h := partInitHdr{ctx: c.Ctx, src: int32(c.Rank), tag: int32(tag), sreq: r.ID, cookie: p.cookie, size: uint64(r.Size)}
	e.sendPartCtrl(r.dst, tagPartInit, unsafe.Pointer(&h), partInitHdrLen)
	return r
}

// PrecvInit makes a partitioned receive request and matches it with the
// earliest unmatched hello from (c, peer, tag).
func (e *Engine) PrecvInit(c *Comm, buf unsafe.Pointer, parts, partBytes, peer, tag int) *Request {
	r := e.reqs.alloc()
	r.Kind, r.Comm, r.Buf, r.Size, r.Peer, r.Tag, r.Persistent = KindPart, c, buf, parts*partBytes, peer, tag, true
	r.srcWorld = c.World[peer]
	r.Part = &PartState{Parts: parts, PartBytes: partBytes, cookie: e.nextCookie(), arrived: make([]int, parts)}
	pe := &e.part
	for i := range pe.inits {
		in := &pe.inits[i]
		if in.h.ctx == c.Ctx && int(in.h.src) == peer && int(in.h.tag) == tag {
			e.partMatch(r, &in.h)
			pe.inits = append(pe.inits[:i], pe.inits[i+1:]...)
			return r
		}
	}
	pe.posted = append(pe.posted, r)
	return r
}

func (e *Engine) partMatch(r *Request, h *partInitHdr) {
	p := r.Part
	p.matched, p.peerReq, p.peerCook, p.peerSize = true, h.sreq, h.cookie, int(h.size)
	p.expect = min(p.peerSize, r.Size)
	if r.Active && !r.done {
		e.partRoundStart(r)
	}
}

// StartPart starts a round of a partitioned request.
func (e *Engine) StartPart(r *Request) {
	p := r.Part
	r.done, r.Active = false, true
	r.Status.Err, r.Status.Cancelled = 0, false
	if p.Send {
		for i := range p.ready {
			p.ready[i] = 0
		}
		p.sent, p.cts = 0, false
		if r.Size == 0 {
			e.complete(r)
			return
		}
		if p.credits > 0 {
			p.credits--
			p.cts = true
		}
		return
	}
	for i := range p.arrived {
		p.arrived[i] = 0
	}
	p.got, p.ctsSent = 0, false
	r.Status = Status{Source: r.Peer, Tag: r.Tag}
	if p.matched {
		e.partRoundStart(r)
	}
}

// partRoundStart: a matched, started receiver asks for this round's data.
func (e *Engine) partRoundStart(r *Request) {
	p := r.Part
	if p.ctsSent {
		return
	}
	p.ctsSent = true
	if p.peerSize > r.Size {
		r.Status.Err = abi.ErrTruncate
	}
	r.Status.Count = p.expect
	if p.peerSize == 0 {
		e.complete(r)
		return
	}
	a := ackHdr{sreq: p.peerReq, rreq: r.ID, off: uint64(p.peerCook), n: uint64(p.cookie)}
	e.sendPartCtrl(r.srcWorld, tagPartCTS, unsafe.Pointer(&a), ackHdrLen)
	if p.expect == 0 {
		e.complete(r)
	}
}

// PartReady marks partitions [lo, hi] ready; the run goes now when the
// receiver is ready for it. It reports false when one was ready already.
func (e *Engine) PartReady(r *Request, lo, hi int) bool {
	p := r.Part
	for i := lo; i <= hi; i++ {
		if p.ready[i] != 0 {
			return false
		}
	}
	for i := lo; i <= hi; i++ {
		p.ready[i] = 1
	}
	if p.cts {
		e.partSendRun(r, lo, hi)
	}
	return true
}

// partSendRun hands partitions [lo, hi] (ready, not sent) to the transport.
func (e *Engine) partSendRun(r *Request, lo, hi int) {
	p := r.Part
	for i := lo; i <= hi; i++ {
		p.ready[i] = 2
	}
	e.partPush(partRun{r: r, off: lo * p.PartBytes, end: (hi + 1) * p.PartBytes})
}

// partPush streams a run in fragments; what finds no room waits in runs.
func (e *Engine) partPush(run partRun) bool {
	r := run.r
	p := r.Part
	m := e.route[r.dst]
	fs := e.frag[r.dst]
	h := partDataHdr{rreq: p.peerReq, cookie: p.peerCook}
	for run.off < run.end {
		k := min(fs, run.end-run.off)
		h.offset = uint64(run.off)
		if !m.SendI(r.dst, tagPartData, unsafe.Pointer(&h), partDataHdrLen, unsafe.Add(r.Buf, run.off), k) {
			e.part.runs = append(e.part.runs, run)
			e.partHook()
			return false
		}
		e.Counters.PartBytes += uint64(k)
		run.off += k
		p.sent += k
	}
	e.Counters.PartRuns++
	if p.sent >= r.Size {
		p.cts = false
		e.complete(r)
	}
	return true
}

// sendPartCtrl sends a small partitioned-protocol message; one that finds no
// room is retried from the progress hook (order per peer is kept: later ones
// queue behind it).
func (e *Engine) sendPartCtrl(dst int, tag uint8, hdr unsafe.Pointer, n int) {
	if len(e.partCtrl) == 0 && e.route[dst].SendI(dst, tag, hdr, n, nil, 0) {
		return
	}
	e.partCtrl = append(e.partCtrl, partCtrlMsg{dst: dst, tag: tag, b: append([]byte(nil), unsafe.Slice((*byte)(hdr), n)...)})
	e.partHook()
}

type partCtrlMsg struct {
	dst int
	tag uint8
	b   []byte
}

func (e *Engine) partHook() {
	if e.part.hooked {
		return
	}
	e.part.hooked = true
	e.part.hook = e.partProgress
	e.AddHook(&e.part.hook)
}

// partProgress retries queued control messages and runs.
func (e *Engine) partProgress() int {
	n := 0
	for len(e.partCtrl) > 0 {
		m := e.partCtrl[0]
		if !e.route[m.dst].SendI(m.dst, m.tag, unsafe.Pointer(&m.b[0]), len(m.b), nil, 0) {
			break
		}
		e.partCtrl = e.partCtrl[1:]
		n++
	}
	runs := e.part.runs
	e.part.runs = nil
	for i, run := range runs {
		if !e.partPush(run) {
			e.part.runs = append(e.part.runs, runs[i+1:]...)
			break
		}
		n++
	}
	if len(e.partCtrl) == 0 && len(e.part.runs) == 0 {
		e.part.hooked = false
		e.RemoveHook(&e.part.hook)
	}
	return n
}

func (e *Engine) onPartInit(src int, data []byte) {
	h := *(*partInitHdr)(unsafe.Pointer(&data[0]))
	pe := &e.part
	for i, r := range pe.posted {
		if r.Comm.Ctx == h.ctx && r.Peer == int(h.src) && r.Tag == int(h.tag) {
			pe.posted = append(pe.posted[:i], pe.posted[i+1:]...)
			e.partMatch(r, &h)
			return
		}
	}
	pe.inits = append(pe.inits, partInit{h: h, src: src})
}

func (e *Engine) onPartCTS(a *ackHdr) {
	r := e.reqs.get(a.sreq)
	if r == nil || r.Kind != KindPart || r.Part == nil || !r.Part.Send || r.Part.cookie != uint32(a.off) {
		return // the request was freed: nothing to send
	}
	p := r.Part
	p.peerReq, p.peerCook, p.matched = a.rreq, uint32(a.n), true
	if !r.Active || r.done || p.cts {
		p.credits++
		return
	}
	p.cts = true
	// Everything readied before the CTS goes now, in runs of consecutive
	// partitions.
	for i := 0; i < p.Parts; {
		if p.ready[i] != 1 {
			i++
			continue
		}
		j := i
		for j+1 < p.Parts && p.ready[j+1] == 1 {
			j++
		}
		e.partSendRun(r, i, j)
		i = j + 1
	}
}

func (e *Engine) onPartData(data []byte) {
	h := (*partDataHdr)(unsafe.Pointer(&data[0]))
	r := e.reqs.get(h.rreq)
	if r == nil || r.Kind != KindPart || r.Part == nil || r.Part.Send || r.Part.cookie != h.cookie || r.done {
		return
	}
	p := r.Part
	payload := data[partDataHdrLen:]
	off := int(h.offset)
	end := min(off+len(payload), p.expect)
	if off >= end {
		return
	}
	copy(unsafe.Slice((*byte)(unsafe.Add(r.Buf, off)), end-off), payload[:end-off])
	pb := p.PartBytes
	for i := off / pb; i < p.Parts && i*pb < end; i++ {
		lo, hi := max(off, i*pb), min(end, (i+1)*pb)
		p.arrived[i] += hi - lo
	}
	p.got += end - off
	if p.got >= p.expect {
		e.complete(r)
	}
}

// PartArrived reports whether receive-side partition i is complete.
func (e *Engine) PartArrived(r *Request, i int) bool {
	p := r.Part
	if r.done || !r.Active {
		return true
	}
	// Partitions past what the sender sends never come: they count as
	// arrived once everything else has.
	lo, hi := i*p.PartBytes, min((i+1)*p.PartBytes, p.expect)
	return p.ctsSent && (hi <= lo || p.arrived[i] >= hi-lo)
}

// FreePart forgets an unmatched partitioned receive (MPI_Request_free).
func (e *Engine) FreePart(r *Request) {
	pe := &e.part
	for i, x := range pe.posted {
		if x == r {
			pe.posted = append(pe.posted[:i], pe.posted[i+1:]...)
			break
		}
	}
}
