package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/pml"
)

// partReq is the typed side of a partitioned request: the communicator, and
// for a non-contiguous datatype the packed staging buffer (partitions are
// packed when readied, unpacked when they arrive).
type partReq struct {
	comm     *Comm
	buf      unsafe.Pointer
	count    int // elements per partition
	dt       *datatype.Type
	tmp      []byte
	unpacked []bool // receiver: partitions already unpacked this round
	procNull bool
}

func (c *Comm) checkPart(call string, buf unsafe.Pointer, parts int, count int, dt *datatype.Type, peer, tag int, recv bool) *Error {
	if parts < 1 {
		return errf(abi.ErrArg, call, "partitions %d is not positive", parts)
	}
	if e := c.checkBuf(call, buf, count, dt); e != nil {
		return e
	}
	if peer != abi.ProcNull && (peer < 0 || peer >= c.PeerSize()) {
		return errf(abi.ErrRank, call, "rank %d is not in [0, %d)", peer, c.PeerSize())
	}
	if tag < 0 || tag > abi.TagUB {
		return errf(abi.ErrTag, call, "tag %d is not in [0, MPI_TAG_UB]", tag)
	}
	return nil
}

// PsendInit is MPI_Psend_init: parts partitions of count elements of dt.
func (c *Comm) PsendInit(buf unsafe.Pointer, parts, count int, dt *datatype.Type, dest, tag int) (*Request, error) {
	return c.partInit("MPI_Psend_init", buf, parts, count, dt, dest, tag, false)
}

// PrecvInit is MPI_Precv_init.
func (c *Comm) PrecvInit(buf unsafe.Pointer, parts, count int, dt *datatype.Type, src, tag int) (*Request, error) {
	return c.partInit("MPI_Precv_init", buf, parts, count, dt, src, tag, true)
}

func (c *Comm) partInit(call string, buf unsafe.Pointer, parts, count int, dt *datatype.Type, peer, tag int, recv bool) (*Request, error) {
	if e := c.checkPart(call, buf, parts, count, dt, peer, tag, recv); e != nil {
		return nil, c.raise(e)
	}
	u := &partReq{comm: c, buf: buf, count: count, dt: dt}
	if peer == abi.ProcNull {
		r := st.eng.NewRequest()
		r.Kind, r.Comm, r.Persistent, r.Peer, r.Tag = pml.KindPart, c.pc, true, peer, tag
		r.Part = &pml.PartState{Send: !recv, Parts: parts}
		r.User = u
		u.procNull = true
		return r, nil
	}
	p, pb := buf, count*dt.Size
	if !dt.Contig && pb > 0 {
		u.tmp = make([]byte, parts*pb)
		p = tmpPtr(u.tmp)
		u.unpacked = make([]bool, parts)
	}
	var r *Request
	if recv {
		r = st.eng.PrecvInit(c.pc, p, parts, pb, peer, tag)
	} else {
		r = st.eng.PsendInit(c.pc, p, parts, pb, peer, tag)
	}
	r.User = u
	return r, nil
}

// partOf returns the typed state of a partitioned request, nil otherwise.
func partOf(r *Request) *partReq {
	if r == nil || r.Kind != pml.KindPart {
		return nil
	}
	u, _ := r.User.(*partReq)
	return u
}

func startPart(r *Request) error {
	u := partOf(r)
	if r.Active {
		return u.comm.raise(errf(abi.ErrRequest, "MPI_Start", "partitioned request is already active"))
	}
	if u.procNull {
		st.eng.CompleteNow(r, ProcNullStatus)
		return nil
	}
	for i := range u.unpacked {
		u.unpacked[i] = false
	}
	st.eng.StartPart(r)
	return nil
}

// IsPartitioned reports whether r is a partitioned request (sender or not).
func IsPartitioned(r *Request) (ok, send bool) {
	if partOf(r) == nil {
		return false, false
	}
	return true, r.Part.Send
}

// Pready is MPI_Pready_range for partitions [lo, hi] (MPI_Pready: lo == hi).
func Pready(call string, r *Request, lo, hi int) error {
	u := partOf(r)
	if u == nil || !r.Part.Send {
		return Raise(CommOf(r), abi.ErrRequest, call, "not a partitioned send request")
	}
	if lo < 0 || hi >= r.Part.Parts || lo > hi {
		return u.comm.raise(errf(abi.ErrArg, call, "partitions [%d, %d] are not within [0, %d)", lo, hi, r.Part.Parts))
	}
	if !r.Active {
		return u.comm.raise(errf(abi.ErrRequest, call, "partitioned request is not active (MPI_Start it first)"))
	}
	if u.procNull {
		return nil
	}
	if u.tmp != nil {
		pb := r.Part.PartBytes
		u.dt.Pack(u.tmp[lo*pb:(hi+1)*pb], u.buf, r.Part.Parts*u.count, int64(lo*pb))
	}
	if !st.eng.PartReady(r, lo, hi) {
		return u.comm.raise(errf(abi.ErrArg, call, "a partition in [%d, %d] is ready already in this round", lo, hi))
	}
	return nil
}

// PreadyList is MPI_Pready_list.
func PreadyList(r *Request, parts []int32) error {
	for _, p := range parts {
		if err := Pready("MPI_Pready_list", r, int(p), int(p)); err != nil {
			return err
		}
	}
	return nil
}

// Parrived is MPI_Parrived: whether receive partition i has arrived.
func Parrived(r *Request, i int) (bool, error) {
	u := partOf(r)
	if u == nil || r.Part.Send {
		return false, Raise(CommOf(r), abi.ErrRequest, "MPI_Parrived", "not a partitioned receive request")
	}
	if i < 0 || i >= r.Part.Parts {
		return false, u.comm.raise(errf(abi.ErrArg, "MPI_Parrived", "partition %d is not within [0, %d)", i, r.Part.Parts))
	}
	if u.procNull {
		return true, nil
	}
	if !st.eng.PartArrived(r, i) {
		st.eng.Progress()
		if !st.eng.PartArrived(r, i) {
			return false, nil
		}
	}
	if u.tmp != nil && r.Active && !u.unpacked[i] {
		u.unpackPart(r, i)
	}
	return true, nil
}

func (u *partReq) unpackPart(r *Request, i int) {
	pb := r.Part.PartBytes
	lo, hi := i*pb, min((i+1)*pb, r.Status.Count)
	if hi > lo {
		u.dt.Unpack(u.buf, r.Part.Parts*u.count, u.tmp[lo:hi], int64(lo))
	}
	u.unpacked[i] = true
}

// finishPart unpacks what is still packed when a partitioned receive
// completes.
func finishPart(r *Request) {
	u := partOf(r)
	if u == nil || u.tmp == nil || r.Part.Send || !r.Done() || !r.Active {
		return
	}
	for i := range u.unpacked {
		if !u.unpacked[i] {
			u.unpackPart(r, i)
		}
	}
}

// freePart drops an unmatched partitioned receive from the matching list.
func freePart(r *Request) {
	if partOf(r) != nil && !r.Part.Send {
		st.eng.FreePart(r)
	}
}
