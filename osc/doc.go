// Package osc is one-sided communication on one node: windows whose
// targets' memory the origin reaches itself, directly through shared
// mappings or by single copy, so passive targets never need to call MPI.
//
// A window has one shared segment (a memfd made by the window's rank 0 and
// mapped by every member) holding a control block per rank: the lock word,
// the accumulate mutex, PSCW counters and the dynamic region table; for
// MPI_Win_allocate(_shared) it also holds every rank's window memory.
// Operations complete when the call returns; the synchronisation calls only
// order them (fences) and enforce the epoch rules of MPI (epoch.go).
//
// osc does not import btl/sm: a Mover (which *sm.Module satisfies) gives
// access to a peer's memory, so the logic is testable without processes and
// another path (active messages through the pml) can be added per target.
package osc

import "unsafe"

// Mover reaches a peer's memory: through a shared mapping (PeerAt) or by
// single copy (Get/Put, process_vm_readv/writev).
type Mover interface {
	PeerAt(peer int, addr uintptr, n int) unsafe.Pointer
	CanGet(peer int) bool
	Get(peer int, dst unsafe.Pointer, n int, addr uintptr) error
	Put(peer int, src unsafe.Pointer, n int, addr uintptr) error
}

// Error is an MPI error class and what was wrong; the mpi layer raises it
// through the window's error handler.
type Error struct {
	Class int
	Msg   string
}

func (e *Error) Error() string { return e.Msg }

func errf(class int, msg string) *Error { return &Error{Class: class, Msg: msg} }

// ptrAt turns an address of this process into a pointer (memory that is
// not Go's: user buffers, mappings).
func ptrAt(addr uintptr) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(nil), addr) }
