package main

/*
#include "gompi.h"
extern int gompi_world_model;
void gompi_call_session_errh(void *fn, int session, int code);
void gompi_session_register_atexit(void);
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/group"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// runtimeStarted publishes the runtime's state to the C side once, for
// whichever of MPI_Init and MPI_Session_init started it.
func runtimeStarted(level int) {
	C.gompi_world_rank = C.int(mpi.WorldRank())
	C.gompi_world_size = C.int(mpi.WorldSize())
	C.gompi_thread_level = C.int(level)
	enableFast(level)
	C.gompi_state = C.GOMPI_READY
}

// runtimeStopping turns the C fast paths off before the runtime stops.
func runtimeStopping() { disableFast() }

// runtimeStopped tells the C side nothing runs any more.
func runtimeStopped() {
	if mpi.Stopped() {
		C.gompi_state = C.GOMPI_FINALIZED
	}
}

// sessionArg resolves a session handle; a bad one is MPI_ERR_SESSION,
// raised on the initial handler (no session to raise it on).
func sessionArg(call string, h C.int) (*mpi.Session, C.int) {
	s := mpi.SessionFromHandle(int32(h))
	if s == nil || !mpi.Ready() {
		what := "invalid session handle"
		if int32(h) == abi.SessionNull {
			what = "session is MPI_SESSION_NULL"
		}
		return nil, argErr(nil, call, abi.ErrSession, what)
	}
	return s, 0
}

func sessErr(s *mpi.Session, call string, class int, detail string) C.int {
	return C.int(mpi.Code(s.Raise(class, call, detail)))
}

// infoOrNull resolves an info argument that may be MPI_INFO_NULL.
func infoOrNull(h C.int) (*info.Info, bool) {
	if int32(h) == abi.InfoNull {
		return nil, true
	}
	in := mpi.InfoFromHandle(int32(h))
	return in, in != nil
}

//export gompi_Session_init
func gompi_Session_init(inh, eh C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Session_init"
	h := mpi.ErrhandlerFromHandle(int32(eh))
	if h == nil {
		return C.int(mpi.Code(mpi.RaiseWith(nil, abi.ErrErrhandler, call, "invalid error handler")))
	}
	if h.Kind == mpi.ErrhUser && h.For != mpi.ErrhForSession {
		return C.int(mpi.Code(mpi.RaiseWith(h, abi.ErrErrhandler, call, "the error handler was not created for sessions")))
	}
	in, ok := infoOrNull(inh)
	if !ok {
		return C.int(mpi.Code(mpi.RaiseWith(h, abi.ErrInfo, call, "invalid info handle")))
	}
	if out == nil {
		return C.int(mpi.Code(mpi.RaiseWith(h, abi.ErrArg, call, "session pointer is NULL")))
	}
	running := mpi.Ready()
	if !running {
		mpi.SetCurrentCPU(currentCPU)
	}
	s, err := mpi.NewSession(in, h)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	if !running {
		runtimeStarted(mpi.ThreadLevel())
	}
	C.gompi_session_register_atexit()
	*out = C.int(s.Handle)
	return 0
}

//export gompi_Session_finalize
func gompi_Session_finalize(p *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Session_finalize"
	if p == nil {
		return argErr(nil, call, abi.ErrArg, "session pointer is NULL")
	}
	s, rc := sessionArg(call, *p)
	if s == nil {
		return rc
	}
	if mpi.LiveSessions() == 1 && mpi.Finalized() {
		runtimeStopping()
	}
	err := s.Finalize()
	runtimeStopped()
	*p = C.int(abi.SessionNull)
	return C.int(mpi.Code(err))
}

//export gompi_Session_atexit
func gompi_Session_atexit() {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if mpi.Stopping() {
		runtimeStopping()
		mpi.SessionsAtExit()
		runtimeStopped()
	}
}

//export gompi_Session_get_num_psets
func gompi_Session_get_num_psets(sh, inh C.int, n *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Session_get_num_psets"
	s, rc := sessionArg(call, sh)
	if s == nil {
		return rc
	}
	if _, ok := infoOrNull(inh); !ok {
		return sessErr(s, call, abi.ErrInfo, "invalid info handle")
	}
	if n == nil {
		return sessErr(s, call, abi.ErrArg, "npset_names pointer is NULL")
	}
	*n = C.int(len(s.Psets()))
	return 0
}

//export gompi_Session_get_nth_pset
func gompi_Session_get_nth_pset(sh, inh, n C.int, plen *C.int, name *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Session_get_nth_pset"
	s, rc := sessionArg(call, sh)
	if s == nil {
		return rc
	}
	if _, ok := infoOrNull(inh); !ok {
		return sessErr(s, call, abi.ErrInfo, "invalid info handle")
	}
	ps := s.Psets()
	if n < 0 || int(n) >= len(ps) {
		return sessErr(s, call, abi.ErrArg, "n is not in [0, number of process sets)")
	}
	if plen == nil {
		return sessErr(s, call, abi.ErrArg, "pset_len pointer is NULL")
	}
	if *plen < 0 {
		return sessErr(s, call, abi.ErrArg, "pset_len is negative")
	}
	p := ps[n]
	if *plen == 0 { // a query of the length needed, with the terminating NUL
		*plen = C.int(len(p) + 1)
		return 0
	}
	if name == nil {
		return sessErr(s, call, abi.ErrArg, "pset_name is NULL")
	}
	putTrunc(name, p, int(*plen)-1)
	*plen = C.int(len(p) + 1)
	return 0
}

//export gompi_Session_get_pset_info
func gompi_Session_get_pset_info(sh C.int, name *C.char, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Session_get_pset_info"
	s, rc := sessionArg(call, sh)
	if s == nil {
		return rc
	}
	if name == nil || out == nil {
		return sessErr(s, call, abi.ErrArg, "pset_name or info pointer is NULL")
	}
	in, err := s.PsetInfo(call, C.GoString(name))
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*out = C.int(mpi.NewInfoHandle(in))
	return 0
}

//export gompi_Session_get_info
func gompi_Session_get_info(sh C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Session_get_info"
	s, rc := sessionArg(call, sh)
	if s == nil {
		return rc
	}
	if out == nil {
		return sessErr(s, call, abi.ErrArg, "info pointer is NULL")
	}
	*out = C.int(mpi.NewInfoHandle(s.Info()))
	return 0
}

//export gompi_Group_from_session_pset
func gompi_Group_from_session_pset(sh C.int, name *C.char, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Group_from_session_pset"
	s, rc := sessionArg(call, sh)
	if s == nil {
		return rc
	}
	if name == nil || out == nil {
		return sessErr(s, call, abi.ErrArg, "pset_name or group pointer is NULL")
	}
	g, err := s.PsetGroup(call, C.GoString(name))
	if err != nil {
		return C.int(mpi.Code(err))
	}
	ng := group.New(g.WorldRanks())
	s.NotePsetGroup(ng)
	*out = C.int(mpi.NewGroupHandle(ng))
	return 0
}

//export gompi_Comm_create_from_group
func gompi_Comm_create_from_group(gh C.int, tag *C.char, inh, eh C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Comm_create_from_group"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	h, fail, rc := newCommErrh(call, eh)
	if h == nil {
		return rc
	}
	g := mpi.GroupFromHandle(int32(gh))
	if g == nil {
		return fail(abi.ErrGroup, "invalid group handle")
	}
	if g.Size() == 0 {
		return fail(abi.ErrGroup, "the group is empty")
	}
	if tag == nil {
		return fail(abi.ErrArg, "stringtag is NULL")
	}
	in, ok := infoOrNull(inh)
	if !ok {
		return fail(abi.ErrInfo, "invalid info handle")
	}
	if out == nil {
		return fail(abi.ErrArg, "newcomm pointer is NULL")
	}
	if !g.Contains(mpi.WorldRank()) {
		return fail(abi.ErrGroup, "the calling process is not in the group")
	}
	c, err := mpi.CreateFromGroup(g, C.GoString(tag), in, h)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(out, c)
	return 0
}

//export gompi_Session_create_errhandler
func gompi_Session_create_errhandler(fn unsafe.Pointer, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Session_create_errhandler"
	if fn == nil {
		return argErr(nil, call, abi.ErrArg, "the handler function is NULL")
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "errhandler pointer is NULL")
	}
	h := mpi.NewErrhandler(mpi.ErrhForSession, nil)
	h.SessFn = func(s int32, code int) { C.gompi_call_session_errh(fn, C.int(s), C.int(code)) }
	*out = C.int(h.Handle)
	return 0
}

// gompi_Session_errhandler sets (set != 0) or gets a session's handler.
//
//export gompi_Session_errhandler
func gompi_Session_errhandler(sh C.int, eh *C.int, set C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Session_get_errhandler"
	if set != 0 {
		call = "MPI_Session_set_errhandler"
	}
	s, rc := sessionArg(call, sh)
	if s == nil {
		return rc
	}
	if eh == nil {
		return sessErr(s, call, abi.ErrArg, "errhandler pointer is NULL")
	}
	if set == 0 {
		*eh = C.int(s.Errhandler().GetHandle())
		return 0
	}
	h := mpi.ErrhandlerFromHandle(int32(*eh))
	if h == nil {
		return sessErr(s, call, abi.ErrErrhandler, "invalid error handler")
	}
	if h.Kind == mpi.ErrhUser && h.For != mpi.ErrhForSession {
		return sessErr(s, call, abi.ErrErrhandler, "the error handler was not created for sessions")
	}
	s.SetErrhandler(h)
	return 0
}

//export gompi_Session_call_errhandler
func gompi_Session_call_errhandler(sh, code C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	s, rc := sessionArg("MPI_Session_call_errhandler", sh)
	if s == nil {
		return rc
	}
	return C.int(mpi.Code(s.CallErrhandler(int(code))))
}

// newCommErrh checks the error handler given to a call that makes a
// communicator from groups, and returns it with the function that raises the
// call's errors through it (a user communicator handler has no communicator
// yet, so such errors are returned).
func newCommErrh(call string, eh C.int) (*mpi.Errhandler, func(int, string) C.int, C.int) {
	h := mpi.ErrhandlerFromHandle(int32(eh))
	if h == nil {
		return nil, nil, C.int(mpi.Code(mpi.RaiseWith(nil, abi.ErrErrhandler, call, "invalid error handler")))
	}
	if h.Kind == mpi.ErrhUser && h.For != mpi.ErrhForComm {
		return nil, nil, C.int(mpi.Code(mpi.RaiseWith(h, abi.ErrErrhandler, call, "the error handler was not created for communicators")))
	}
	fail := func(class int, detail string) C.int {
		if h.Kind == mpi.ErrhUser {
			return C.int(mpi.Code(mpi.RaiseWith(mpi.ErrorsReturn, class, call, detail)))
		}
		return C.int(mpi.Code(mpi.RaiseWith(h, class, call, detail)))
	}
	return h, fail, 0
}
