package osc

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/op"
)

// Remote carries active messages to window ranks (the mpi layer's pml
// messages on a window-private communicator; a loopback in the tests).
type Remote interface {
	// Send starts request msg to window rank t, whose reply (at most
	// len(reply) bytes, tagged with msg's sequence number) lands in reply.
	Send(t int, msg, reply []byte) any
	// Wait completes what Send started and returns the reply's length.
	Wait(h any) int
}

// amPend is a request whose reply has not been collected.
type amPend struct {
	t     int
	h     any
	reply []byte
	want  int // reply data bytes
	// where fetched data goes: packed bytes [skip, skip+want) of rc
	// elements of rt at res
	res  unsafe.Pointer
	rc   int
	rt   *datatype.Type
	skip int64
}

// Remote reports whether target t is reached by active messages.
func (w *Window) Remote(t int) bool {
	return t >= 0 && t < len(w.Targets) && w.Targets[t].Path == PathAM
}

func (w *Window) nextSeq() uint32 {
	w.seq++
	if w.seq >= AMSeqMax {
		w.seq = 1
	}
	return w.seq
}

// spanOf is the byte range tc elements of tt touch, relative to their
// buffer's start: [lo, lo+span).
func spanOf(tc int, tt *datatype.Type) (lo, span int64) {
	lo = int64(tt.TrueLB)
	span = int64(tc-1)*int64(tt.Extent) + int64(tt.TrueExtent)
	if tt.Extent < 0 {
		lo += int64(tc-1) * int64(tt.Extent)
		span = int64(tc-1)*int64(-tt.Extent) + int64(tt.TrueExtent)
	}
	return lo, span
}

// amAddr checks the target range as far as the origin knows the target's
// window and returns the address the request names: an offset into the
// window, or the absolute address of a dynamic window (checked by the
// target against its regions).
func (w *Window) amAddr(t int, disp int64, tc int, tt *datatype.Type) (uint64, *Error) {
	if w.Flavor == abi.WinFlavorDynamic {
		return uint64(disp), nil
	}
	if disp < 0 {
		return 0, errf(abi.ErrDisp, "negative target displacement")
	}
	tg := &w.Targets[t]
	lo, span := spanOf(tc, tt)
	off := disp * tg.DispUnit
	if off+lo < 0 || off+lo+span > tg.Size {
		return 0, errf(abi.ErrRmaRange, "the target range lies outside the target's window")
	}
	return uint64(off), nil
}

// amRMA sends an operation on tc elements of tt at disp of target t as one
// or more requests of at most AMMaxData bytes and AMMaxBlocks blocks, cut
// at element boundaries of base (accumulates). in is the packed origin
// data (nil for gets and MPI_NO_OP); fetched data goes to rc elements of
// rt at res.
func (w *Window) amRMA(kind, flags uint8, t int, disp int64, tc int, tt *datatype.Type, in []byte,
	res unsafe.Pointer, rc int, rt *datatype.Type, o *op.Op, base *datatype.Type) *Error {
	addr, e := w.amAddr(t, disp, tc, tt)
	if e != nil {
		return e
	}
	bl := w.amBlocks[:0]
	tt.Blocks(tc, func(off, n int64) bool {
		bl = append(bl, off, n)
		return true
	})
	w.amBlocks = bl
	n := int64(tc) * int64(tt.Size)
	unit := int64(1)
	hdr := amHdr{kind: kind, flags: flags, addr: addr}
	if base != nil {
		unit = int64(base.Size)
		hdr.dtype = base.Handle
		hdr.op = uint8(o.Index())
	}
	fetch := kind == AMGet || kind == AMCas || flags&AMFetch != 0
	bi, bo := 0, int64(0) // the next block and the bytes of it already sent
	for p := int64(0); p < n; {
		// how far this request goes
		end, j, jo, nb := p, bi, bo, 0
		for j < len(bl) && nb < AMMaxBlocks && end-p < AMMaxData {
			take := min(bl[j+1]-jo, AMMaxData-(end-p))
			end += take
			nb++
			if jo += take; jo == bl[j+1] {
				j, jo = j+2, 0
			}
		}
		if end < n {
			end -= (end - p) % unit
		}
		if end <= p {
			return errf(abi.ErrType, "the target datatype is too fragmented for one-sided messages")
		}
		// the blocks of [p, end)
		w.amOut = w.amOut[:0]
		for q := p; q < end; {
			take := min(bl[bi+1]-bo, end-q)
			w.amOut = append(w.amOut, bl[bi]+bo, take)
			q += take
			if bo += take; bo == bl[bi+1] {
				bi, bo = bi+2, 0
			}
		}
		var data []byte
		switch {
		case kind == AMCas:
			data = in
		case in != nil:
			data = in[p:end]
		}
		hdr.seq = w.nextSeq()
		hdr.nblk, hdr.dlen = uint32(len(w.amOut)/2), uint32(len(data))
		msg := make([]byte, AMHeader+8*len(w.amOut)+len(data))
		hdr.put(msg)
		for i, v := range w.amOut {
			le.PutUint64(msg[AMHeader+8*i:], uint64(v))
		}
		copy(msg[AMHeader+8*len(w.amOut):], data)
		want := 0
		if fetch {
			want = int(end - p)
		}
		reply := make([]byte, AMReplyHeader+max(want, 256))
		pd := amPend{t: t, reply: reply, want: want, skip: p}
		if fetch {
			pd.res, pd.rc, pd.rt = res, rc, rt
		}
		pd.h = w.Net.Send(t, msg, reply)
		w.pend = append(w.pend, pd)
		p = end
	}
	w.bound()
	return nil
}

// amMaxPending bounds the requests an origin keeps in flight: a long epoch
// of small operations does not pile up buffers here and unexpected
// messages at the targets.
const amMaxPending = 4096

// bound completes everything in flight when too much is: completing early
// is allowed; an error waits for the next flush.
func (w *Window) bound() {
	if len(w.pend) >= amMaxPending {
		if e := w.amFlush(-1); e != nil && w.late == nil {
			w.late = e
		}
	}
}

// amCtl sends a control request (lock, unlock, post, done) to t; it is
// collected by the next flush.
func (w *Window) amCtl(t int, kind, flags uint8) {
	hdr := amHdr{kind: kind, flags: flags, seq: w.nextSeq()}
	msg := make([]byte, AMHeader)
	hdr.put(msg)
	reply := make([]byte, AMReplyHeader+256)
	w.pend = append(w.pend, amPend{t: t, reply: reply, h: w.Net.Send(t, msg, reply)})
	w.bound()
}

// amFlush waits for the replies of every request to t (every target for
// t < 0) and delivers fetched data; it returns the first error a target
// reported.
func (w *Window) amFlush(t int) *Error {
	if len(w.pend) == 0 && w.late == nil {
		return nil
	}
	var first *Error
	k := 0
	for i := 0; i < len(w.pend); i++ {
		p := w.pend[i]
		if t >= 0 && p.t != t {
			w.pend[k] = p
			k++
			continue
		}
		got := w.Net.Wait(p.h)
		data, e := decodeReply(p.reply, got, p.want, p.t)
		if e == nil && p.want > 0 {
			p.rt.Unpack(p.res, p.rc, data, p.skip)
		}
		if e != nil && first == nil {
			first = e
		}
	}
	clear(w.pend[k:])
	w.pend = w.pend[:k]
	if first == nil && w.late != nil {
		first, w.late = w.late, nil
	}
	return first
}

// FlushRemote completes every active message to t (all targets for t < 0)
// outside the epoch rules: for fences, request-based operations and free.
func (w *Window) FlushRemote(t int) *Error {
	if w.Net == nil {
		return nil
	}
	return w.amFlush(t)
}

// amLockAll sends lock requests to the remote targets in ts and waits for
// every grant.
func (w *Window) amLock(ts []int, exclusive bool) *Error {
	var flags uint8
	if exclusive {
		flags = AMExclusive
	}
	for _, t := range ts {
		w.amCtl(t, AMLock, flags)
	}
	var first *Error
	for _, t := range ts {
		if e := w.amFlush(t); e != nil && first == nil {
			first = e
		}
	}
	return first
}

// amUnlock completes the operations to t, then releases its lock.
func (w *Window) amUnlock(t int) *Error {
	e := w.amFlush(t)
	w.amCtl(t, AMUnlock, 0)
	if e2 := w.amFlush(t); e == nil {
		e = e2
	}
	return e
}
