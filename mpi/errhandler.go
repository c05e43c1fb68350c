package mpi

import (
	"fmt"

	"gompi/abi"
)

// Error handler kinds.
const (
	ErrhFatal = iota
	ErrhReturn
	ErrhAbort
	ErrhUser
)

// Objects an error handler can be attached to.
const (
	ErrhForComm = iota
	ErrhForWin
	ErrhForFile
	ErrhForSession
)

// Errhandler decides what an error on a communicator does.
type Errhandler struct {
	Handle int32
	Kind   int
	// For is the kind of object a user handler was created for.
	For int
	// Fn is a user handler (for C, a trampoline to the function pointer).
	Fn func(c *Comm, code int)
	// WinFn is a user handler made for windows: it gets the window.
	WinFn func(w *Win, code int)
	// SessFn is a user handler for sessions (MPI_Session_create_errhandler).
	SessFn func(session int32, code int)
	// FileFn is a user handler created for files (MPI_File_create_errhandler).
	FileFn func(f *File, code int)
	// refs counts the user's live handles to a user handler (create and each
	// get add one, MPI_Errhandler_free removes one). At zero the handle is
	// released; communicators still using the handler keep the Go object.
	refs int
}

var (
	ErrorsAreFatal = &Errhandler{Handle: abi.ErrorsAreFatal, Kind: ErrhFatal}
	ErrorsReturn   = &Errhandler{Handle: abi.ErrorsReturn, Kind: ErrhReturn}
	ErrorsAbort    = &Errhandler{Handle: abi.ErrorsAbort, Kind: ErrhAbort}
)

var errhandlers objTable[Errhandler]

// NewErrhandler makes a user error handler for objects of kind forObj and
// gives it a handle (MPI_Comm_create_errhandler and friends).
func NewErrhandler(forObj int, fn func(c *Comm, code int)) *Errhandler {
	h := &Errhandler{Kind: ErrhUser, For: forObj, Fn: fn}
	h.register()
	return h
}

func (h *Errhandler) register() {
	h.Handle = abi.MakeHandle(abi.KindDirect, abi.ObjErrhandler, uint32(errhandlers.add(h)))
	h.refs = 1
}

// ErrhandlerFromHandle resolves a handle; nil for MPI_ERRHANDLER_NULL and
// anything that is not a live handler.
func ErrhandlerFromHandle(hd int32) *Errhandler {
	switch hd {
	case abi.ErrorsAreFatal:
		return ErrorsAreFatal
	case abi.ErrorsReturn:
		return ErrorsReturn
	case abi.ErrorsAbort:
		return ErrorsAbort
	}
	if abi.HandleKind(hd) != abi.KindDirect || abi.HandleObj(hd) != abi.ObjErrhandler {
		return nil
	}
	return errhandlers.get(int(abi.HandleIndex(hd)))
}

// GetHandle returns a new user reference to h (MPI_Comm_get_errhandler):
// the same handle while the user still holds one, else a fresh handle.
func (h *Errhandler) GetHandle() int32 {
	if h.Kind != ErrhUser {
		return h.Handle
	}
	if h.refs == 0 {
		h.register()
	} else {
		h.refs++
	}
	return h.Handle
}

// FreeErrhandler drops one user reference (MPI_Errhandler_free). Predefined
// handlers are never freed.
func FreeErrhandler(h *Errhandler) {
	if h.Kind != ErrhUser || h.refs == 0 {
		return
	}
	h.refs--
	if h.refs == 0 {
		errhandlers.remove(int(abi.HandleIndex(h.Handle)))
	}
}

// LiveErrhandlers is the number of user error-handler handles not yet freed.
func LiveErrhandlers() int { return errhandlers.live() }

// CallErrhandler invokes c's error handler on code as if an MPI call on c had
// failed with it (MPI_Comm_call_errhandler). The fatal handlers end the job;
// otherwise it returns nil, whatever the handler is.
func (c *Comm) CallErrhandler(code int) error {
	class, ok := ErrorClass(code)
	if !ok {
		class = abi.ErrUnknown
	}
	e := &Error{Class: class, Call: "MPI_Comm_call_errhandler", ErrCode: code}
	if code == abi.Success {
		e.Detail = "called with MPI_SUCCESS"
	} else {
		e.Detail = fmt.Sprintf("error code %d", code)
	}
	c.raise(e)
	return nil
}
