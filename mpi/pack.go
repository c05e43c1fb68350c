package mpi

import (
	"math/bits"
	"sync"
	"unsafe"

	"gompi/datatype"
)

// Non-contiguous types travel packed: a send packs into a temporary buffer
// and sends that contiguously; a receive lands in a temporary buffer and is
// unpacked into the user's memory when the request completes (a short
// message fills a prefix of the typemap). The request's User field holds a
// typedReq for as long as the operation needs the buffers; it keeps the
// datatype alive too, so a type freed meanwhile stays valid.
type typedReq struct {
	comm  *Comm // persistent requests: the communicator Start needs
	buf   unsafe.Pointer
	count int
	dt    *datatype.Type
	tmp   []byte
	recv  bool
	done  bool // receive data already unpacked
}

// packSend packs count elements of dt at buf into a new buffer.
func packSend(buf unsafe.Pointer, count int, dt *datatype.Type) []byte {
	tmp := make([]byte, dt.PackSize(count))
	dt.Pack(tmp, buf, count, 0)
	return tmp
}

// Packed buffers of 4 KiB and more are recycled by power-of-two class once
// the operation using them is over, so large strided messages neither
// allocate nor zero memory each time.
const poolMin = 4096

var packPool [64]sync.Pool

func getBuf(n int) []byte {
	if n < poolMin {
		return make([]byte, n)
	}
	k := bits.Len(uint(n - 1))
	if b, ok := packPool[k].Get().(*[]byte); ok {
		return (*b)[:n]
	}
	return make([]byte, n, 1<<k)
}

func putBuf(b []byte) {
	c := cap(b)
	if c < poolMin || c&(c-1) != 0 {
		return
	}
	packPool[bits.Len(uint(c-1))].Put(&b)
}

// sendPacked is a blocking send of a non-contiguous type: the buffer goes
// back to the pool when the send returns.
func (c *Comm) sendPacked(buf unsafe.Pointer, count int, dt *datatype.Type, dest, tag int, mode uint8) {
	tmp := getBuf(dt.PackSize(count))
	dt.Pack(tmp, buf, count, 0)
	st.eng.Send(c.pc, tmpPtr(tmp), len(tmp), dest, tag, mode)
	putBuf(tmp)
}

// tmpPtr is the address of a packed buffer (a valid pointer even when empty).
func tmpPtr(b []byte) unsafe.Pointer {
	if cap(b) == 0 {
		return unsafe.Pointer(&zeroByte)
	}
	return unsafe.Pointer(unsafe.SliceData(b))
}

var zeroByte byte

// newRecvTarget makes the receive-side state for a non-contiguous type.
func newRecvTarget(c *Comm, buf unsafe.Pointer, count int, dt *datatype.Type) *typedReq {
	return &typedReq{comm: c, buf: buf, count: count, dt: dt, tmp: getBuf(dt.PackSize(count)), recv: true}
}

// finishRecv unpacks a completed non-contiguous receive into the user
// buffer (once; later calls do nothing).
func finishRecv(r *Request) {
	u, ok := r.User.(*typedReq)
	if !ok || !u.recv || u.done || !r.Done() {
		return
	}
	n := min(r.Status.Count, len(u.tmp))
	u.dt.Unpack(u.buf, u.count, u.tmp[:n], 0)
	u.done = true
	if !r.Persistent {
		r.User = nil
		putBuf(u.tmp)
		u.tmp = nil
	}
}

// FinishData makes a completed receive's data visible in the user buffer
// without releasing the request (MPI_Request_get_status).
func FinishData(r *Request) {
	finishRecv(r)
	finishPart(r)
}

// restartTyped prepares a persistent request on a non-contiguous type for
// another start: a send packs the current data, a receive rearms its unpack.
func restartTyped(r *Request) {
	u, ok := r.User.(*typedReq)
	if !ok {
		return
	}
	if u.recv {
		u.done = false
		return
	}
	u.dt.Pack(u.tmp, u.buf, u.count, 0)
}

// reqComm is the communicator stored with a persistent request.
func reqComm(r *Request) *Comm {
	switch u := r.User.(type) {
	case *Comm:
		return u
	case *typedReq:
		return u.comm
	}
	return nil
}
