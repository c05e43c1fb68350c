package osc

import (
	"math"
	"sync/atomic"
	"unsafe"

	"gompi/abi"
	"gompi/mem"
	"gompi/op"
)

// The target side of active messages: Serve applies one request to this
// rank's own memory with the primitives local origins use on it (the
// control block's lock word and accumulate mutex), so remote and
// shared-memory accesses to one target exclude each other.

// amLock is a lock request not granted yet.
type amLock struct {
	from      int
	seq       uint32
	exclusive bool
}

// Remote lock states per origin (Window.held).
const (
	heldShared    = 1
	heldExclusive = 2
)

// span checks that [addr+off, addr+off+n) lies in this rank's window (or
// an attached region) and returns where it starts.
func (w *Window) span(addr uint64, off, n int64) (unsafe.Pointer, *Error) {
	if w.Flavor == abi.WinFlavorDynamic {
		a := addr + uint64(off)
		if !w.Targets[w.Me].ctl.Covers(a, uint64(n), amIdle) {
			return nil, errf(abi.ErrRmaRange, "the target range is not in a region attached at the target")
		}
		return ptrAt(uintptr(a)), nil
	}
	me := &w.Targets[w.Me]
	const lim = math.MaxInt64 / 4
	if addr > lim || off < -lim || off > lim {
		return nil, errf(abi.ErrRmaRange, "the target range lies outside the target's window")
	}
	s := int64(addr) + off
	if s < 0 || s+n > me.Size || me.Ptr == nil {
		return nil, errf(abi.ErrRmaRange, "the target range lies outside the target's window")
	}
	return unsafe.Add(me.Ptr, s), nil
}

// amIdle spins for the target side, which runs inside the progress engine
// and must not re-enter it.
func amIdle(spins int) int { return DefaultIdle(spins) }

// ptrs resolves every block of r, so nothing is written unless all are in
// range.
func (w *Window) ptrs(r *amReq) *Error {
	w.amPtrs = w.amPtrs[:0]
	for i := 0; i < int(r.nblk); i++ {
		off, n := r.block(i)
		p, e := w.span(r.addr, off, n)
		if e != nil {
			return e
		}
		w.amPtrs = append(w.amPtrs, p)
	}
	return nil
}

// gather copies the blocks into b (packed); scatter the other way.
func (w *Window) gather(r *amReq, b []byte) {
	pos := 0
	for i, p := range w.amPtrs {
		_, n := r.block(i)
		mem.Copy(unsafe.Pointer(&b[pos]), p, int(n))
		pos += int(n)
	}
}

func (w *Window) scatter(r *amReq, b []byte) {
	pos := 0
	for i, p := range w.amPtrs {
		_, n := r.block(i)
		mem.Copy(p, unsafe.Pointer(&b[pos]), int(n))
		pos += int(n)
	}
}

// Serve applies the request msg from window rank from and writes the reply
// into reply (AMMaxReply bytes). It returns the reply's length, or -1 when
// there is no reply now: a lock to be granted later (GrantLocks), or a
// request too damaged to address one.
func (w *Window) Serve(from int, msg, reply []byte) int {
	if _, ok := AMSeq(msg); !ok || from < 0 || from >= len(w.Targets) || len(reply) < AMMaxReply {
		return -1
	}
	r, e := decodeAM(msg)
	if e != nil {
		return putReply(reply, e, 0)
	}
	n, e := w.serve(from, &r, reply[AMReplyHeader:])
	if n < 0 {
		return -1
	}
	return putReply(reply, e, n)
}

func (w *Window) serve(from int, r *amReq, out []byte) (int, *Error) {
	me := w.Targets[w.Me].ctl
	switch r.kind {
	case AMLock:
		if w.held[from] != 0 {
			return 0, errf(abi.ErrRmaSync, "the origin already holds a lock on this target")
		}
		x := r.flags&AMExclusive != 0
		if x {
			atomic.AddUint64(&me.lock, waitOne) // announced: new readers wait
			w.held[from] = heldExclusive
		} else {
			w.held[from] = heldShared
		}
		w.lockQ = append(w.lockQ, amLock{from: from, seq: r.seq, exclusive: x})
		return -1, nil
	case AMUnlock:
		switch w.held[from] {
		case heldShared:
			me.UnlockShared()
		case heldExclusive:
			me.UnlockExclusive()
		default:
			return 0, errf(abi.ErrRmaSync, "the origin holds no lock on this target")
		}
		w.held[from] = 0
		return 0, nil
	case AMPost:
		atomic.AddUint32(me.post(from), 1)
		return 0, nil
	case AMDone:
		atomic.AddUint32(&me.done, 1)
		return 0, nil
	}
	if e := w.ptrs(r); e != nil {
		return 0, e
	}
	switch r.kind {
	case AMPut:
		w.scatter(r, r.data)
		return 0, nil
	case AMGet:
		w.gather(r, out)
		return int(r.sum), nil
	case AMCas:
		n := int(r.sum)
		me.Lock(amIdle)
		w.gather(r, out[:n])
		if string(out[:n]) == string(r.data[n:]) {
			w.scatter(r, r.data[:n])
		}
		me.Unlock()
		return n, nil
	}
	// Accumulate: gather the target elements packed, fold, scatter back,
	// under the accumulate mutex (every origin of a window with a remote
	// target uses it: Atomics is off).
	n := int(r.sum)
	if cap(w.amCur) < n {
		w.amCur = make([]byte, AMMaxData)
	}
	cur := w.amCur[:n]
	me.Lock(amIdle)
	w.gather(r, cur)
	fetched := 0
	if r.flags&AMFetch != 0 {
		fetched = copy(out, cur)
	}
	if r.o.Index() != op.INoOp {
		r.o.ApplyPacked(unsafe.Pointer(&r.data[0]), unsafe.Pointer(&cur[0]), n/r.base.Size, r.base)
		w.scatter(r, cur)
	}
	me.Unlock()
	return fetched, nil
}

// GrantLocks grants the queued lock requests that can be now, calling send
// with each one's origin, reply tag and reply. It returns how many it
// granted.
func (w *Window) GrantLocks(send func(to int, seq uint32, reply []byte)) int {
	if len(w.lockQ) == 0 {
		return 0
	}
	me := w.Targets[w.Me].ctl
	k, granted := 0, 0
	for _, q := range w.lockQ {
		ok := false
		v := atomic.LoadUint64(&me.lock)
		if q.exclusive {
			ok = v&(writer|readers) == 0 && atomic.CompareAndSwapUint64(&me.lock, v, v-waitOne+writer)
		} else {
			ok = v&blockers == 0 && atomic.CompareAndSwapUint64(&me.lock, v, v+1)
		}
		if !ok {
			w.lockQ[k] = q
			k++
			continue
		}
		granted++
		var rep [AMReplyHeader]byte
		send(q.from, q.seq, rep[:putReply(rep[:], nil, 0)])
	}
	w.lockQ = w.lockQ[:k]
	return granted
}
