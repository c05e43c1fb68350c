package mpi

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"gompi/abi"
	"gompi/group"
	"gompi/info"
)

// MPI-4 sessions. The runtime (PMI, transports, the world's matching state)
// is one per process: the first of MPI_Init and MPI_Session_init starts it,
// later ones share it. It stops at MPI_Finalize when no session is open, at
// the last MPI_Session_finalize after MPI_Finalize, or at exit when only
// sessions were used (SessionsAtExit), so that a program may open and close
// sessions any number of times.

// Session is an MPI_Session.
type Session struct {
	Handle int32
	errh   *Errhandler
	thread int
	info   *info.Info // the hints given at init (nil when none)
	bpool  *bpool     // MPI_Session_attach_buffer (nil: none)
}

var (
	sessions     objTable[Session]
	openSessions int
)

// Process set names every process knows (MPI-4 §11.3.2).
const (
	PsetWorld = "mpi://WORLD"
	PsetSelf  = "mpi://SELF"
)

var psets = []string{PsetWorld, PsetSelf}

// NewSession starts a session (MPI_Session_init), starting the runtime if
// this is its first user. The hint "thread_level" asks for a thread level.
func NewSession(in *info.Info, eh *Errhandler) (*Session, error) {
	const call = "MPI_Session_init"
	if eh == nil {
		eh = ErrorsAreFatal
	}
	s := &Session{errh: eh, thread: abi.ThreadSingle}
	if in != nil {
		s.info = in.Dup()
		if v, ok := in.Lookup("thread_level"); ok {
			lvl, ok := threadLevelByName(v)
			if !ok {
				return nil, s.raise(errf(abi.ErrArg, call, "thread_level %q is not an MPI thread level", v))
			}
			s.thread = lvl
		}
	}
	if st.stopped {
		return nil, s.raise(errf(abi.ErrOther, call, "the runtime was shut down (MPI_Finalize with no session open) and cannot start again"))
	}
	s.thread = providedLevel(s.thread)
	if !st.ready {
		st.thread = s.thread
		startRuntime(call)
	}
	if s.thread == abi.ThreadMultiple {
		enableMultiple()
	}
	s.Handle = abi.MakeHandle(abi.KindDirect, abi.ObjSession, uint32(sessions.add(s)))
	openSessions++
	return s, nil
}

// SessionFromHandle resolves a session handle; nil for MPI_SESSION_NULL and
// anything that is not an open session.
func SessionFromHandle(h int32) *Session {
	if abi.HandleKind(h) != abi.KindDirect || abi.HandleObj(h) != abi.ObjSession {
		return nil
	}
	return sessions.get(int(abi.HandleIndex(h)))
}

// Finalize ends s (MPI_Session_finalize). The runtime stops with the last
// session when the world model is already finalized.
func (s *Session) Finalize() error {
	forgetSession(s)
	sessions.remove(int(abi.HandleIndex(s.Handle)))
	s.Handle = abi.SessionNull
	openSessions--
	if openSessions == 0 && st.finalized && st.ready {
		stopRuntime()
	}
	return nil
}

// SessionsAtExit stops, at a normal exit, a runtime the world model does
// not hold (never initialised, or finalised): the launcher counts a process
// that leaves without PMI finalize as failed. Sessions still open are
// finalised implicitly, as MPICH does (its processes exit 0 silently).
// The C layer calls it from an atexit handler.
func SessionsAtExit() {
	if Stopping() {
		openSessions = 0
		stopRuntime()
	}
}

// Stopping reports whether SessionsAtExit would stop the runtime.
func Stopping() bool { return st.ready && (!st.initialized || st.finalized) }

// LiveSessions is the number of open sessions.
func LiveSessions() int { return openSessions }

// ThreadLevel is the thread level s provides.
func (s *Session) ThreadLevel() int { return s.thread }

// Errhandler returns s's error handler.
func (s *Session) Errhandler() *Errhandler { return s.errh }

// SetErrhandler replaces s's error handler.
func (s *Session) SetErrhandler(h *Errhandler) { s.errh = h }

// Info returns the hints s was started with and what it provides
// (MPI_Session_get_info): at least "thread_level".
func (s *Session) Info() *info.Info {
	out := info.New()
	if s.info != nil {
		out = s.info.Dup()
	}
	out.Set("thread_level", threadLevelName(s.thread))
	return out
}

// Psets lists the process set names s knows, in a fixed order.
func (s *Session) Psets() []string { return psets }

// PsetGroup returns the processes of a process set (world ranks), or an
// error of class MPI_ERR_ARG for a name s does not know.
func (s *Session) PsetGroup(call, name string) (*group.Group, error) {
	switch strings.ToLower(name) {
	case strings.ToLower(PsetWorld):
		return WorldGroup(), nil
	case strings.ToLower(PsetSelf):
		return group.New([]int{st.rank}), nil
	}
	return nil, s.raise(errf(abi.ErrArg, call, "unknown process set %q (this library knows %s and %s)", name, PsetWorld, PsetSelf))
}

// PsetInfo describes a process set (MPI_Session_get_pset_info): "mpi_size".
func (s *Session) PsetInfo(call, name string) (*info.Info, error) {
	g, err := s.PsetGroup(call, name)
	if err != nil {
		return nil, err
	}
	out := info.New()
	out.Set("mpi_size", strconv.Itoa(g.Size()))
	return out, nil
}

// Raise applies s's error handler to a new error of class.
func (s *Session) Raise(class int, call, detail string) error {
	return s.raise(&Error{Class: class, Call: call, Detail: detail})
}

// CallErrhandler invokes s's error handler on code (MPI_Session_call_errhandler).
func (s *Session) CallErrhandler(code int) error {
	class, ok := ErrorClass(code)
	if !ok {
		class = abi.ErrUnknown
	}
	s.raise(&Error{Class: class, Call: "MPI_Session_call_errhandler", ErrCode: code,
		Detail: fmt.Sprintf("error code %d", code)})
	return nil
}

func (s *Session) raise(err *Error) error {
	h := s.errh
	if h == nil {
		h = ErrorsAreFatal
	}
	if h.Kind == ErrhUser && h.SessFn != nil {
		if err.ErrCode == 0 || err.ErrCode == err.Class {
			lastError[err.Class] = err.Error()
		}
		h.SessFn(s.Handle, err.code())
		return err
	}
	if h.Kind == ErrhFatal || h.Kind == ErrhAbort {
		fatal(err.Class, fmt.Sprintf("%s on session %#x", err.Error(), uint32(s.Handle)))
	}
	return raiseWith(h, nil, err)
}

// RaiseWith applies h (MPI_ERRORS_ARE_FATAL when nil) to a new error that
// belongs to no object yet (MPI_Comm_create_from_group, MPI_Session_init).
func RaiseWith(h *Errhandler, class int, call, detail string) error {
	if h == nil {
		h = ErrorsAreFatal
	}
	s := &Session{Handle: abi.SessionNull, errh: h}
	return s.raise(&Error{Class: class, Call: call, Detail: detail})
}

func threadLevelByName(v string) (int, bool) {
	for _, l := range []int{abi.ThreadSingle, abi.ThreadFunneled, abi.ThreadSerialized, abi.ThreadMultiple} {
		if strings.EqualFold(v, threadLevelName(l)) || v == strconv.Itoa(l) {
			return l, true
		}
	}
	return 0, false
}

// CreateFromGroup makes a communicator of g's processes, called by each of
// them with the same tag (MPI_Comm_create_from_group). There is no parent
// communicator: the members agree on a context over the world's collective
// context, on a tag hashed from the string tag.
func CreateFromGroup(gr *group.Group, tag string, in *info.Info, eh *Errhandler) (*Comm, error) {
	g := gr.WorldRanks()
	const call = "MPI_Comm_create_from_group"
	if eh == nil {
		eh = ErrorsAreFatal
	}
	me := slices.Index(g, st.rank)
	if me < 0 {
		return nil, RaiseWith(eh, abi.ErrGroup, call, "the calling process is not in the group")
	}
	h := fnv.New32a()
	h.Write([]byte(tag))
	v := &xview{pc: st.world.cc, ranks: slices.Clone(g), me: me,
		tag: tagGroupBase - 3<<20 - int(h.Sum32()%(1<<20))}
	s, area, e := st.world.agreeIntra(call, v)
	if e != nil {
		return nil, RaiseWith(eh, e.Class, call, e.Detail)
	}
	c := newIntra(s, slices.Clone(g), me, nil, area)
	c.errh = eh
	c.session = psetGroups[gr]
	if in != nil {
		c.info = in.Dup()
	}
	return c, nil
}
