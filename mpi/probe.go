package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/internal/mtlock"
	"gompi/pml"
)

func (c *Comm) checkProbe(call string, src, tag int) *Error {
	if src != abi.ProcNull && src != abi.AnySource && (src < 0 || src >= c.PeerSize()) {
		return errf(abi.ErrRank, call, "source rank %d is not in [0, %d)", src, c.PeerSize())
	}
	if tag != abi.AnyTag && (tag < 0 || tag > abi.TagUB) {
		return errf(abi.ErrTag, call, "tag %d is not in [0, MPI_TAG_UB] nor MPI_ANY_TAG", tag)
	}
	return nil
}

// Probe looks for a matching message (blocking: waits for one).
func (c *Comm) Probe(call string, src, tag int, blocking bool) (Status, bool, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if e := c.checkProbe(call, src, tag); e != nil {
		return Status{}, false, c.raise(e)
	}
	if src == abi.ProcNull {
		return ProcNullStatus, true, nil
	}
	if blocking {
		return st.eng.Probe(c.pc, src, tag), true, nil
	}
	s, ok := st.eng.Iprobe(c.pc, src, tag)
	return s, ok, nil
}

// Matched-probe messages: handles with bit 25 set in the request handle space.
var messages struct {
	all  []*pml.Message
	free []int
}

const msgHandleBase = reqHandleBase | 1<<25

// Mprobe takes a matching message out of matching and returns its handle.
func (c *Comm) Mprobe(call string, src, tag int, blocking bool) (int32, Status, bool, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if e := c.checkProbe(call, src, tag); e != nil {
		return 0, Status{}, false, c.raise(e)
	}
	if src == abi.ProcNull {
		return abi.MessageNoProc, ProcNullStatus, true, nil
	}
	var m *pml.Message
	var s Status
	if blocking {
		m, s = st.eng.Mprobe(c.pc, src, tag)
	} else {
		var ok bool
		if m, s, ok = st.eng.Improbe(c.pc, src, tag); !ok {
			return 0, Status{}, false, nil
		}
	}
	var i int
	if n := len(messages.free); n > 0 {
		i = messages.free[n-1]
		messages.free = messages.free[:n-1]
		messages.all[i] = m
	} else {
		i = len(messages.all)
		messages.all = append(messages.all, m)
	}

	for len(msgComms) <= i {
		msgComms = append(msgComms, nil)
	}
	msgComms[i] = c
	return msgHandleBase | int32(i), s, true, nil
}

var msgComms []*Comm

// Mrecv receives a message taken by Mprobe (blocking, or returns a request).
func Mrecv(call string, buf unsafe.Pointer, count int, dt *datatype.Type, h int32, blocking bool) (*Request, Status, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if h == abi.MessageNoProc {
		return nil, ProcNullStatus, nil
	}
	i := int(h &^ msgHandleBase)
	if h&^0x3ffffff != msgHandleBase&^0x3ffffff || h&(1<<25) == 0 || i >= len(messages.all) || messages.all[i] == nil {
		return nil, Status{}, Raise(nil, abi.ErrRequest, call, "invalid message handle")
	}
	c := msgComms[i]
	if e := c.checkBuf(call, buf, count, dt); e != nil {
		return nil, Status{}, c.raise(e)
	}
	m := messages.all[i]
	messages.all[i] = nil
	messages.free = append(messages.free, i)
	var r *Request
	if dt.Contig {
		r = st.eng.Imrecv(c.pc, m, buf, count*dt.Size)
	} else {
		u := newRecvTarget(c, buf, count, dt)
		r = st.eng.Imrecv(c.pc, m, tmpPtr(u.tmp), len(u.tmp))
		r.User = u
		finishRecv(r)
	}
	if !blocking {
		return r, Status{}, nil
	}
	s, err := c.Wait(r)
	return nil, s, err
}
