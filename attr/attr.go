// Package attr caches attributes on MPI objects (communicators, datatypes,
// windows): keyvals with copy and delete callbacks, and a per-object store
// that runs the callbacks with the standard's semantics. Callbacks return an
// MPI error code (0 is success); a failing callback stops the operation and
// its code is returned to the caller, which raises it.
package attr

import "gompi/abi"

// Kind is the kind of object a keyval is for; the values are MPICH's object
// kinds, which also appear in the keyval handle.
type Kind uint32

const (
	Comm     Kind = abi.ObjComm
	Datatype Kind = abi.ObjDatatype
	Win      Kind = abi.ObjWin
)

// CopyFn is a copy callback: given the object being duplicated, the keyval,
// its extra state and the attribute value, it returns the value for the new
// object, whether to attach it, and an error code.
type CopyFn func(obj int32, kv int32, extra, val uintptr) (out uintptr, keep bool, rc int)

// DeleteFn is a delete callback; it returns an error code.
type DeleteFn func(obj int32, kv int32, extra, val uintptr) int

// Keyval is an attribute key with its callbacks. Nil callbacks are the
// standard's NULL_COPY_FN (never copied) and NULL_DELETE_FN (nothing to do).
type Keyval struct {
	Handle int32
	Kind   Kind
	Copy   CopyFn
	Delete DeleteFn
	Extra  uintptr
	// refs counts the user's handle and each attribute using the keyval;
	// the keyval goes when the user has freed it and no object uses it.
	refs  int
	freed bool
}

// Freed reports whether the user has freed the keyval's handle.
func (k *Keyval) Freed() bool { return k.freed }

var keyvals struct {
	objs []*Keyval
	free []uint32
}

// The index shares the handle's low 22 bits with nothing: bits 22..25 hold
// the object kind, as in MPICH's keyval handles.
const indexBits = 22

// NewKeyval creates a keyval for objects of the given kind.
func NewKeyval(kind Kind, cp CopyFn, del DeleteFn, extra uintptr) *Keyval {
	k := &Keyval{Kind: kind, Copy: cp, Delete: del, Extra: extra, refs: 1}
	var i uint32
	if n := len(keyvals.free); n > 0 {
		i = keyvals.free[n-1]
		keyvals.free = keyvals.free[:n-1]
		keyvals.objs[i] = k
	} else {
		i = uint32(len(keyvals.objs))
		keyvals.objs = append(keyvals.objs, k)
	}
	k.Handle = abi.MakeHandle(abi.KindDirect, abi.ObjKeyval, uint32(kind)<<indexBits|i)
	return k
}

// Lookup resolves a user keyval handle (nil when it names no live keyval;
// predefined keyvals are the caller's business).
func Lookup(h int32) *Keyval {
	if abi.HandleKind(h) != abi.KindDirect || abi.HandleObj(h) != abi.ObjKeyval {
		return nil
	}
	i := abi.HandleIndex(h) & (1<<indexBits - 1)
	if int(i) >= len(keyvals.objs) {
		return nil
	}
	k := keyvals.objs[i]
	if k == nil || k.Handle != h {
		return nil
	}
	return k
}

// Free drops the user's handle (MPI_Comm_free_keyval); attributes already
// set with the keyval stay and keep their callbacks.
func (k *Keyval) Free() {
	if k.freed {
		return
	}
	k.freed = true
	k.release()
}

func (k *Keyval) release() {
	k.refs--
	if k.refs == 0 {
		i := abi.HandleIndex(k.Handle) & (1<<indexBits - 1)
		keyvals.objs[i] = nil
		keyvals.free = append(keyvals.free, i)
	}
}

// LiveKeyvals is the number of keyvals still held (by the user or an object).
func LiveKeyvals() int { return len(keyvals.objs) - len(keyvals.free) }

// Store holds the attributes cached on one object, in the order they were
// first set. The zero value is empty.
type Store struct {
	vals []entry
}

type entry struct {
	kv  *Keyval
	val uintptr
}

func (s *Store) find(k *Keyval) int {
	for i, e := range s.vals {
		if e.kv == k {
			return i
		}
	}
	return -1
}

// Len is the number of attributes set.
func (s *Store) Len() int { return len(s.vals) }

// Get returns the value set for k.
func (s *Store) Get(k *Keyval) (uintptr, bool) {
	if i := s.find(k); i >= 0 {
		return s.vals[i].val, true
	}
	return 0, false
}

// Set attaches val under k on object obj. A value already there is first
// passed to the delete callback; if that fails, the old value stays and the
// callback's code is returned.
func (s *Store) Set(obj int32, k *Keyval, val uintptr) int {
	if i := s.find(k); i >= 0 {
		if k.Delete != nil {
			if rc := k.Delete(obj, k.Handle, k.Extra, s.vals[i].val); rc != 0 {
				return rc
			}
		}
		// The callback may have changed the store: look again.
		if i = s.find(k); i >= 0 {
			s.vals[i].val = val
			return 0
		}
	}
	k.refs++
	s.vals = append(s.vals, entry{k, val})
	return 0
}

// Delete removes k's attribute after its delete callback succeeds
// (MPI_Comm_delete_attr). Deleting an attribute that is not set does nothing.
func (s *Store) Delete(obj int32, k *Keyval) int {
	i := s.find(k)
	if i < 0 {
		return 0
	}
	if k.Delete != nil {
		if rc := k.Delete(obj, k.Handle, k.Extra, s.vals[i].val); rc != 0 {
			return rc
		}
	}
	s.remove(k)
	return 0
}

func (s *Store) remove(k *Keyval) {
	if i := s.find(k); i >= 0 {
		s.vals = append(s.vals[:i], s.vals[i+1:]...)
		k.release()
	}
}

// DeleteAll runs the delete callbacks of every attribute, the most recently
// set first (as MPI_Finalize must for MPI_COMM_SELF), removing each one whose
// callback succeeds. The first failure stops it and is returned; the
// attributes not yet deleted stay.
func (s *Store) DeleteAll(obj int32) int {
	for len(s.vals) > 0 {
		e := s.vals[len(s.vals)-1]
		if e.kv.Delete != nil {
			if rc := e.kv.Delete(obj, e.kv.Handle, e.kv.Extra, e.val); rc != 0 {
				return rc
			}
		}
		s.remove(e.kv)
	}
	return 0
}

// CopyTo runs the copy callbacks of obj's attributes, in the order they were
// set, attaching to dst (the new object newObj) each value a callback asks
// to keep. If a callback fails, the attributes already copied to dst are
// deleted again (their delete callbacks run) and the code is returned.
func (s *Store) CopyTo(obj int32, dst *Store, newObj int32) int {
	for _, e := range append([]entry(nil), s.vals...) {
		if e.kv.Copy == nil {
			continue
		}
		out, keep, rc := e.kv.Copy(obj, e.kv.Handle, e.kv.Extra, e.val)
		if rc != 0 {
			dst.DeleteAll(newObj)
			return rc
		}
		if keep {
			dst.Set(newObj, e.kv, out)
		}
	}
	return 0
}
