package mpit

import "gompi/abi"

// MPI_T is initialised by reference count, independently of MPI_Init.
var initCount int

// Init is MPI_T_init_thread; it returns the thread level provided.
func Init(required int) int {
	initCount++
	return min(max(required, abi.ThreadSingle), abi.ThreadSerialized)
}

// Finalize is MPI_T_finalize.
func Finalize() int {
	if initCount == 0 {
		return abi.TErrNotInitialized
	}
	initCount--
	if initCount == 0 {
		// Handles do not outlive the last finalize; timers stop.
		for _, s := range sessions {
			if s != nil {
				s.free()
			}
		}
		sessions = sessions[:0]
		cvarHandles = cvarHandles[:0]
	}
	return 0
}

// Active reports whether MPI_T calls are allowed.
func Active() bool { return initCount > 0 }

// Session is an MPI_T pvar session; Handle a performance variable handle.
type Session struct {
	handles []*Handle
}

type Handle struct {
	s       *Session
	v       *Pvar
	started bool
	base    uint64 // counter value when started or reset
	accum   uint64 // value gathered in earlier started periods
}

// Handle numbers seen by C: session i is i+1, handle ids are index+2 (1 is
// MPI_T_PVAR_ALL_HANDLES), cvar handles index+1; 0 is always NULL.
var (
	sessions    []*Session
	handles     []*Handle
	cvarHandles []*Cvar
)

// AllHandles is MPI_T_PVAR_ALL_HANDLES.
const AllHandles = 1

// NewSession is MPI_T_pvar_session_create.
func NewSession() int {
	sessions = append(sessions, &Session{})
	return len(sessions)
}

// SessionAt resolves a session number (nil: invalid or freed).
func SessionAt(id int) *Session {
	if id < 1 || id > len(sessions) {
		return nil
	}
	return sessions[id-1]
}

// FreeSession is MPI_T_pvar_session_free.
func FreeSession(id int) int {
	s := SessionAt(id)
	if s == nil {
		return abi.TErrInvalidSession
	}
	s.free()
	sessions[id-1] = nil
	return 0
}

func (s *Session) free() {
	for _, h := range s.handles {
		h.stop()
		handles[h.id()-2] = nil
	}
	s.handles = nil
}

func (h *Handle) id() int {
	for i, x := range handles {
		if x == h {
			return i + 2
		}
	}
	return 0
}

// AllocHandle is MPI_T_pvar_handle_alloc (every variable is unbound, count 1).
func AllocHandle(sid, index int) (int, int) {
	s := SessionAt(sid)
	if s == nil {
		return 0, abi.TErrInvalidSession
	}
	v := PvarAt(index)
	if v == nil {
		return 0, abi.TErrInvalidIndex
	}
	h := &Handle{s: s, v: v}
	if v.Continuous() {
		h.started = true
	}
	s.handles = append(s.handles, h)
	handles = append(handles, h)
	return len(handles) + 1, 0
}

// HandleAt resolves a handle number within session sid.
func HandleAt(sid, hid int) (*Handle, int) {
	s := SessionAt(sid)
	if s == nil {
		return nil, abi.TErrInvalidSession
	}
	if hid < 2 || hid-2 >= len(handles) || handles[hid-2] == nil || handles[hid-2].s != s {
		return nil, abi.TErrInvalidHandle
	}
	return handles[hid-2], 0
}

// FreeHandle is MPI_T_pvar_handle_free.
func FreeHandle(sid, hid int) int {
	h, rc := HandleAt(sid, hid)
	if h == nil {
		return rc
	}
	h.stop()
	handles[hid-2] = nil
	for i, x := range h.s.handles {
		if x == h {
			h.s.handles = append(h.s.handles[:i], h.s.handles[i+1:]...)
			break
		}
	}
	return 0
}

// each applies f to one handle, or to every handle of the session for
// MPI_T_PVAR_ALL_HANDLES skipping those f does not apply to.
func each(sid, hid int, f func(*Handle) int) int {
	if hid == AllHandles {
		s := SessionAt(sid)
		if s == nil {
			return abi.TErrInvalidSession
		}
		for _, h := range s.handles {
			if rc := f(h); rc != 0 && rc != abi.TErrPvarNoStartstop && rc != abi.TErrPvarNoWrite {
				return rc
			}
		}
		return 0
	}
	h, rc := HandleAt(sid, hid)
	if h == nil {
		return rc
	}
	return f(h)
}

// Start, Stop and Reset are MPI_T_pvar_start, _stop and _reset.
func Start(sid, hid int) int { return each(sid, hid, (*Handle).start) }
func Stop(sid, hid int) int  { return each(sid, hid, (*Handle).stopErr) }
func Reset(sid, hid int) int { return each(sid, hid, (*Handle).reset) }

func (h *Handle) start() int {
	if h.v.Continuous() {
		return abi.TErrPvarNoStartstop
	}
	if !h.started {
		h.started = true
		if h.v.Timing != nil && h.v.started == 0 {
			h.v.Timing(true)
		}
		h.v.started++
		h.base = h.v.Read()
	}
	return 0
}

func (h *Handle) stopErr() int {
	if h.v.Continuous() {
		return abi.TErrPvarNoStartstop
	}
	h.stop()
	return 0
}

func (h *Handle) stop() {
	if !h.started || h.v.Continuous() {
		return
	}
	h.accum += h.v.Read() - h.base
	h.started = false
	h.v.started--
	if h.v.Timing != nil && h.v.started == 0 {
		h.v.Timing(false)
	}
}

func (h *Handle) reset() int {
	if h.v.Readonly() {
		return abi.TErrPvarNoWrite
	}
	h.accum = 0
	h.base = h.v.Read()
	return 0
}

// Value is the handle's current value (raw: nanoseconds for timers).
func (h *Handle) Value() uint64 {
	if h.v.Continuous() {
		return h.v.Read()
	}
	if h.started {
		return h.accum + h.v.Read() - h.base
	}
	return h.accum
}

// Pvar is the variable behind the handle.
func (h *Handle) Pvar() *Pvar { return h.v }

// Write sets the handle's value (MPI_T_pvar_write).
func (h *Handle) Write(x uint64) int {
	if h.v.Readonly() {
		return abi.TErrPvarNoWrite
	}
	h.accum = x
	h.base = h.v.Read()
	return 0
}

// AllocCvarHandle is MPI_T_cvar_handle_alloc.
func AllocCvarHandle(index int) (int, int) {
	v := CvarAt(index)
	if v == nil {
		return 0, abi.TErrInvalidIndex
	}
	cvarHandles = append(cvarHandles, v)
	return len(cvarHandles), 0
}

// CvarHandleAt resolves a cvar handle number.
func CvarHandleAt(id int) *Cvar {
	if id < 1 || id > len(cvarHandles) {
		return nil
	}
	return cvarHandles[id-1]
}

// FreeCvarHandle is MPI_T_cvar_handle_free.
func FreeCvarHandle(id int) int {
	if CvarHandleAt(id) == nil {
		return abi.TErrInvalidHandle
	}
	cvarHandles[id-1] = nil
	return 0
}
