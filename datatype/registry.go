package datatype

import (
	"sync"
	"sync/atomic"

	"gompi/abi"
)

// Derived types get indirect handles (MPICH's encoding: kind 3, object
// datatype), so they never collide with builtin handles or with the direct
// handles of the pair types. The table is read without a lock: chunks never
// move once published and each slot is an atomic pointer.
const chunkBits = 10

type chunk [1 << chunkBits]atomic.Pointer[Type]

var reg struct {
	mu     sync.Mutex
	chunks atomic.Pointer[[]*chunk]
	next   uint32
	free   []uint32
}

func handleOf(i uint32) int32 { return abi.MakeHandle(abi.KindIndirect, abi.ObjDatatype, i) }

// Register gives t a handle and the user's reference to it.
func Register(t *Type) int32 {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	var i uint32
	if n := len(reg.free); n > 0 {
		i = reg.free[n-1]
		reg.free = reg.free[:n-1]
	} else {
		i = reg.next
		reg.next++
	}
	var cs []*chunk
	if p := reg.chunks.Load(); p != nil {
		cs = *p
	}
	if int(i>>chunkBits) >= len(cs) {
		cs = append(append([]*chunk(nil), cs...), new(chunk))
		reg.chunks.Store(&cs)
	}
	t.Handle = handleOf(i)
	t.refs = 1
	cs[i>>chunkBits][i&(1<<chunkBits-1)].Store(t)
	return t.Handle
}

// Lookup resolves a datatype handle, predefined or derived (nil when the
// handle names no live type).
func Lookup(h int32) *Type {
	if abi.HandleKind(h) != abi.KindIndirect || abi.HandleObj(h) != abi.ObjDatatype {
		return Predefined(h)
	}
	i := abi.HandleIndex(h)
	p := reg.chunks.Load()
	if p == nil || int(i>>chunkBits) >= len(*p) {
		return nil
	}
	return (*p)[i>>chunkBits][i&(1<<chunkBits-1)].Load()
}

// hold takes one more reference on a derived type: a type built from it,
// or a handle handed out again by MPI_Type_get_contents.
func (t *Type) hold() {
	if t.Named {
		return
	}
	reg.mu.Lock()
	t.refs++
	reg.mu.Unlock()
}

// Hold is hold for callers outside the package (MPI_Type_get_contents).
func (t *Type) Hold() { t.hold() }

// Release drops one reference (MPI_Type_free drops the user's). At zero the
// handle is freed and the types t was built from lose their reference. Go
// pointers held by pending operations keep the Type itself valid, so a type
// freed while a nonblocking operation uses it stays usable until then.
func (t *Type) Release() {
	if t.Named {
		return
	}
	reg.mu.Lock()
	t.refs--
	dead := t.refs == 0
	if dead && t.Handle != 0 && abi.HandleKind(t.Handle) == abi.KindIndirect {
		i := abi.HandleIndex(t.Handle)
		(*reg.chunks.Load())[i>>chunkBits][i&(1<<chunkBits-1)].Store(nil)
		reg.free = append(reg.free, i)
	}
	reg.mu.Unlock()
	if dead {
		for _, o := range t.types {
			o.Release()
		}
	}
}

// Live counts registered derived types (for leak tests).
func Live() int {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	return int(reg.next) - len(reg.free)
}
