// Package attr caches attributes on MPI objects (communicators, datatypes,
// windows): keyvals with copy and delete callbacks, and a per-object store.
package attr

// Store holds the attributes cached on one object. The zero value is empty.
type Store struct {
	vals []entry
}

type entry struct {
	key int32
	val uintptr
}
