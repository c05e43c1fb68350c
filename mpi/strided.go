package mpi

import (
	"unsafe"

	"gompi/datatype"
)

// Predefined types whose extent exceeds their size (MPI_DOUBLE_INT...) are
// packed element by element; derived types get their own engine later.
func packStrided(buf unsafe.Pointer, count int, dt *datatype.Type) []byte {
	out := make([]byte, count*dt.Size)
	for i := 0; i < count; i++ {
		copy(out[i*dt.Size:(i+1)*dt.Size], unsafe.Slice((*byte)(unsafe.Add(buf, i*dt.Extent)), dt.Size))
	}
	return out
}

type unpackTarget struct {
	buf   unsafe.Pointer
	count int
	dt    *datatype.Type
	tmp   []byte
}

// finishRecv unpacks a completed strided receive into the user buffer.
func finishRecv(r *Request) {
	u, ok := r.User.(*unpackTarget)
	if !ok || !r.Done() {
		return
	}
	n := r.Status.Count / u.dt.Size
	for i := 0; i < n; i++ {
		copy(unsafe.Slice((*byte)(unsafe.Add(u.buf, i*u.dt.Extent)), u.dt.Size), u.tmp[i*u.dt.Size:(i+1)*u.dt.Size])
	}
	r.User = nil
}
