package mpi

import (
	"fmt"
	"os"
	"unsafe"

	"gompi/abi"
	"gompi/attr"
	"gompi/group"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/osc"
	"gompi/pml"
)

// Win is a one-sided communication window. The work is osc's; Win adds the
// private communicator (its barriers and the creation's exchanges never
// match the user's traffic), handles, names, attributes, hints and the
// window's error handler.
type Win struct {
	Handle   int32
	comm     *Comm
	w        *osc.Window
	errh     *Errhandler
	name     string
	Attrs    attr.Store
	hints    winHints
	Flavor   int
	Base     unsafe.Pointer
	Size     int64
	DispUnit int
	// Extra is C memory the C binding keeps with the window (the values
	// of the predefined attributes); it frees it after Free.
	Extra unsafe.Pointer
	// multiNode: the members span nodes; net serves this rank as a target
	// of the others' active messages.
	multiNode bool
	net       *winNet
}

type winHints struct {
	noLocks, sameSize, sameDisp, noncontig bool
	ordering, ops                          string
}

var wins objTable[Win]

// WinFromHandle resolves a window handle; nil for MPI_WIN_NULL and anything
// that is not a live window.
func WinFromHandle(h int32) *Win {
	if abi.HandleKind(h) != abi.KindDirect || abi.HandleObj(h) != abi.ObjWin {
		return nil
	}
	return wins.get(int(abi.HandleIndex(h)))
}

// LiveWins is the number of windows not yet freed.
func LiveWins() int { return wins.live() }

func (w *Win) Name() string            { return w.name }
func (w *Win) SetName(n string)        { w.name = n }
func (w *Win) Comm() *Comm             { return w.comm }
func (w *Win) Rank() int               { return w.comm.rank }
func (w *Win) Errhandler() *Errhandler { return w.errh }

// Osc is the engine's view of the window (the C fast path reads it).
func (w *Win) Osc() *osc.Window { return w.w }

// SetErrhandler attaches h to w (MPI_Win_set_errhandler).
func (w *Win) SetErrhandler(h *Errhandler) { w.errh = h }

// Group is the group of the window's processes (MPI_Win_get_group).
func (w *Win) Group() *group.Group { return group.New(w.comm.group) }

// raise applies w's error handler to an error of call.
func (w *Win) raise(call string, class int, detail string) error {
	return raiseWin(w, &Error{Class: class, Call: call, Detail: detail})
}

func (w *Win) raiseOsc(call string, e *osc.Error) error { return w.raise(call, e.Class, e.Msg) }

func raiseWin(w *Win, err *Error) error {
	h := ErrorsAreFatal
	if w != nil && w.errh != nil {
		h = w.errh
	}
	if err.ErrCode == 0 || err.ErrCode == err.Class {
		lastError[err.Class] = err.Error()
	}
	switch h.Kind {
	case ErrhReturn:
	case ErrhUser:
		if h.WinFn != nil {
			h.WinFn(w, err.code())
		} else if h.Fn != nil {
			h.Fn(nil, err.code())
		}
	default:
		where := "a window"
		if w != nil {
			if where = w.name; where == "" {
				where = fmt.Sprintf("window %#x", uint32(w.Handle))
			}
		}
		fatal(err.Class, fmt.Sprintf("%s on %s", err.Error(), where))
	}
	return err
}

// RaiseWin raises an argument error of call on w (MPI_COMM_WORLD's handler
// when w is nil: the window handle itself was bad).
func RaiseWin(w *Win, class int, call, detail string) error {
	if w == nil {
		return Raise(nil, class, call, detail)
	}
	return w.raise(call, class, detail)
}

// CallErrhandler invokes w's error handler on code (MPI_Win_call_errhandler).
func (w *Win) CallErrhandler(code int) error {
	class, ok := ErrorClass(code)
	if !ok {
		class = abi.ErrUnknown
	}
	raiseWin(w, &Error{Class: class, Call: "MPI_Win_call_errhandler", ErrCode: code, Detail: fmt.Sprintf("error code %d", code)})
	return nil
}

// winIdle is a window wait loop's step: keep point-to-point moving, give
// the core away after a while (ranks may outnumber cores).
func winIdle(spins int) int {
	if mtlock.On {
		d := mtlock.Release() // let other threads in while we wait
		defer mtlock.Reacquire(d)
	}
	spins++
	if spins&63 == 0 && st.eng.Progress() > 0 {
		return spins
	}
	if spins >= shmSpins {
		pml.YieldCore()
	}
	return spins
}

// noMover is the transport of a job without shared memory (one process).
type noMover struct{}

func (noMover) PeerAt(int, uintptr, int) unsafe.Pointer { return nil }
func (noMover) CanGet(int) bool                         { return false }
func (noMover) Get(int, unsafe.Pointer, int, uintptr) error {
	return fmt.Errorf("no shared-memory transport")
}
func (noMover) Put(int, unsafe.Pointer, int, uintptr) error {
	return fmt.Errorf("no shared-memory transport")
}

func winMover() osc.Mover {
	if st.sm != nil {
		return st.sm
	}
	return noMover{}
}

func parseHints(in *info.Info) winHints {
	h := winHints{ordering: "rar,raw,war,waw", ops: "same_op_no_op"}
	if in == nil {
		return h
	}
	get := func(k string) string { v, _ := in.Lookup(k); return v }
	h.noLocks = get("no_locks") == "true"
	h.sameSize = get("same_size") == "true"
	h.sameDisp = get("same_disp_unit") == "true"
	h.noncontig = get("alloc_shared_noncontig") == "true"
	if v := get("accumulate_ordering"); v != "" {
		h.ordering = v
	}
	if v := get("accumulate_ops"); v != "" {
		h.ops = v
	}
	return h
}

// Info returns the hints in use (MPI_Win_get_info): a new object.
func (w *Win) Info() *info.Info {
	in := info.New()
	b := func(v bool) string {
		if v {
			return "true"
		}
		return "false"
	}
	in.Set("no_locks", b(w.hints.noLocks))
	in.Set("accumulate_ordering", w.hints.ordering)
	in.Set("accumulate_ops", w.hints.ops)
	in.Set("same_size", b(w.hints.sameSize))
	in.Set("same_disp_unit", b(w.hints.sameDisp))
	in.Set("alloc_shared_noncontig", b(w.hints.noncontig))
	return in
}

// SetInfo replaces the hints (MPI_Win_set_info).
func (w *Win) SetInfo(in *info.Info) {
	if in == nil {
		return
	}
	old := w.hints
	w.hints = parseHints(in)
	w.hints.noncontig = old.noncontig // fixed at creation
	if _, ok := in.Lookup("no_locks"); !ok {
		w.hints.noLocks = old.noLocks
	}
}

// --- creation ---

// descriptor fields exchanged at creation.
const (
	dPid = iota
	dBase
	dSize
	dDisp
	dLeader // the lowest window rank on this rank's node (shares its segment)
	dLen
)

// WinCreate exposes [base, base+size) of each process (MPI_Win_create).
func (c *Comm) WinCreate(base unsafe.Pointer, size int64, dispUnit int, in *info.Info) (*Win, error) {
	return c.newWin("MPI_Win_create", abi.WinFlavorCreate, base, size, dispUnit, in)
}

// WinAllocate allocates each process's window memory in shared memory
// (MPI_Win_allocate); the memory is w.Base.
func (c *Comm) WinAllocate(size int64, dispUnit int, in *info.Info) (*Win, error) {
	return c.newWin("MPI_Win_allocate", abi.WinFlavorAllocate, nil, size, dispUnit, in)
}

// WinAllocateShared is MPI_Win_allocate_shared: memory every member may
// load and store directly (see SharedQuery).
func (c *Comm) WinAllocateShared(size int64, dispUnit int, in *info.Info) (*Win, error) {
	return c.newWin("MPI_Win_allocate_shared", abi.WinFlavorShared, nil, size, dispUnit, in)
}

// WinCreateDynamic makes a window without memory; see Attach.
func (c *Comm) WinCreateDynamic(in *info.Info) (*Win, error) {
	return c.newWin("MPI_Win_create_dynamic", abi.WinFlavorDynamic, nil, 0, 1, in)
}

func (c *Comm) newWin(call string, flavor int, base unsafe.Pointer, size int64, du int, in *info.Info) (*Win, error) {
	if c.inter {
		return nil, c.raise(errf(abi.ErrComm, call, "windows need an intracommunicator"))
	}
	if size < 0 {
		return nil, c.raise(errf(abi.ErrSize, call, "negative window size %d", size))
	}
	if du <= 0 {
		return nil, c.raise(errf(abi.ErrDisp, call, "displacement unit %d is not positive", du))
	}
	s, area, e := c.agreeIntra(call, viewOf(c))
	if e != nil {
		return nil, c.raise(e)
	}
	d := newIntra(s, c.group, c.rank, c, area)
	d.errh = ErrorsReturn
	w := &Win{comm: d, errh: ErrorsAreFatal, hints: parseHints(in), Flavor: flavor, Base: base, Size: size, DispUnit: du}
	if err := w.build(); err != "" {
		d.release()
		return nil, c.raise(errf(abi.ErrWin, call, "%s", err))
	}
	w.Handle = abi.MakeHandle(abi.KindDirect, abi.ObjWin, uint32(wins.add(w)))
	return w, nil
}

// build exchanges the descriptors, makes and maps each node's segment
// and works out how each target is reached; every member gets the same
// verdict. Ranks of one node share a segment made by their lowest rank;
// targets on other nodes are reached by active messages (winNet).
func (w *Win) build() string {
	d := w.comm
	v := viewOf(d)
	n, me := d.size, d.rank
	leader := me
	for r, wr := range d.group {
		if r < me && wr != st.rank && st.sm != nil && st.sm.Reaches(wr) {
			leader = r
			break
		}
	}
	mine := make([]int, dLen)
	mine[dPid], mine[dBase], mine[dSize], mine[dDisp], mine[dLeader] = os.Getpid(), int(uintptr(w.Base)), int(w.Size), w.DispUnit, leader
	all := v.allgatherInts(mine)
	desc := func(r, f int) int { return all[r*dLen+f] }
	sizes := make([]int64, n)
	remote := false
	for r := range sizes {
		if desc(r, dLeader) != leader {
			remote = true
		} else if w.Flavor == abi.WinFlavorAllocate || w.Flavor == abi.WinFlavorShared {
			sizes[r] = int64(desc(r, dSize))
		}
		if desc(r, dLeader) != desc(0, dLeader) {
			w.multiNode = true
		}
	}
	offs, total := osc.Layout(sizes, w.Flavor == abi.WinFlavorShared && !w.hints.noncontig)
	var seg *osc.Segment
	var msg string
	fd := 0
	if me == leader {
		var err error
		if seg, err = osc.CreateSegment(int(total)); err != nil {
			msg, fd = err.Error(), -1
		} else {
			fd = seg.FD
		}
	}
	fds := v.allgatherInts([]int{fd})
	for r := 0; r < n; r++ {
		if fds[r] < 0 {
			if seg != nil {
				seg.Unmap()
			}
			if msg == "" {
				msg = fmt.Sprintf("window rank %d could not create its node's shared memory", r)
			}
			return msg
		}
	}
	ok := 1
	if me != leader {
		var err error
		if seg, err = osc.OpenSegment(desc(leader, dPid), fds[leader], int(total)); err != nil {
			msg, ok = err.Error(), 0
		}
	}
	targets := make([]osc.Target, n)
	direct := 1
	if remote {
		direct = 0 // remote targets apply accumulates under the mutex
	}
	if ok == 1 {
		for r := range targets {
			t := &targets[r]
			t.Peer, t.Size, t.DispUnit = d.group[r], int64(desc(r, dSize)), int64(desc(r, dDisp))
			t.Addr = uintptr(desc(r, dBase))
			if desc(r, dLeader) != leader {
				t.Path = osc.PathAM
				if w.Flavor == abi.WinFlavorDynamic {
					t.Size = 0
				}
				continue
			}
			switch w.Flavor {
			case abi.WinFlavorAllocate, abi.WinFlavorShared:
				t.Path, t.Ptr = osc.PathDirect, unsafe.Add(seg.Base, offs[r])
			case abi.WinFlavorDynamic:
				t.Path, t.Size = osc.PathDirect, 0
				direct = 0 // attached regions may lie anywhere
			default:
				switch {
				case r == me:
					t.Path, t.Ptr = osc.PathDirect, w.Base
				case t.Size == 0:
					t.Path = osc.PathDirect
				default:
					if p := st.sm.PeerAt(t.Peer, t.Addr, int(t.Size)); p != nil {
						t.Path, t.Ptr = osc.PathDirect, p
					} else if st.sm.CanGet(t.Peer) {
						t.Path, direct = osc.PathCMA, 0
					} else {
						ok, msg = 0, fmt.Sprintf("the memory of window rank %d cannot be reached (single copy refused by the kernel)", r)
					}
				}
			}
		}
	}
	flags := v.allgatherInts([]int{ok, direct})
	for r := 0; r < n; r++ {
		if flags[2*r] == 0 {
			if seg != nil {
				seg.Unmap()
			}
			if msg == "" {
				msg = fmt.Sprintf("window rank %d could not set up the window", r)
			}
			return msg
		}
		if flags[2*r+1] == 0 {
			direct = 0
		}
	}
	d.Barrier() // everyone mapped its segment: the descriptors can go
	seg.CloseFD()
	w.w = osc.NewWindow(me, seg, targets, w.Flavor, winMover(), winIdle)
	w.w.Atomics = direct == 1
	if w.Flavor == abi.WinFlavorAllocate || w.Flavor == abi.WinFlavorShared {
		w.Base = targets[me].Ptr
	}
	if w.multiNode {
		s, area, e := d.agreeIntra("MPI_Win_create", v)
		if e != nil {
			seg.Unmap()
			return e.Detail
		}
		nc := newIntra(s, d.group, d.rank, d, area)
		nc.errh = ErrorsReturn
		w.net = newWinNet(w.w, nc)
		w.w.Net = w.net
	}
	return ""
}

// Free releases the window (MPI_Win_free), collectively: no process
// unmaps the memory before every other is done with it.
func (w *Win) Free() error {
	const call = "MPI_Win_free"
	if e := w.w.FreeCheck(); e != nil {
		return w.raiseOsc(call, e)
	}
	if rc := w.Attrs.DeleteAll(w.Handle); rc != 0 {
		return raiseWin(w, callbackErr(call, "delete", rc))
	}
	flushErr := w.w.FlushRemote(-1)
	w.comm.Barrier()
	if w.net != nil {
		w.net.close()
		w.net = nil
	}
	w.w.Seg.Unmap()
	w.comm.release()
	wins.remove(int(abi.HandleIndex(w.Handle)))
	w.Handle = abi.WinNull
	if flushErr != nil {
		return w.raiseOsc(call, flushErr)
	}
	return nil
}

// SharedQuery returns rank r's memory in this process (MPI_Win_shared_query);
// r == MPI_PROC_NULL means the first rank with a non-empty window.
func (w *Win) SharedQuery(r int) (unsafe.Pointer, int64, int, error) {
	const call = "MPI_Win_shared_query"
	if w.Flavor != abi.WinFlavorShared && w.Flavor != abi.WinFlavorAllocate {
		return nil, 0, 0, w.raise(call, abi.ErrRmaFlavor, "the window's memory is not shared (not made by MPI_Win_allocate or MPI_Win_allocate_shared)")
	}
	ts := w.w.Targets
	if r == abi.ProcNull {
		for i := range ts {
			if ts[i].Size > 0 && ts[i].Path != osc.PathAM {
				return ts[i].Ptr, ts[i].Size, int(ts[i].DispUnit), nil
			}
		}
		return nil, 0, 0, nil
	}
	if r < 0 || r >= len(ts) {
		return nil, 0, 0, w.raise(call, abi.ErrRank, fmt.Sprintf("rank %d is not in the window", r))
	}
	if ts[r].Path == osc.PathAM {
		return nil, 0, 0, w.raise(call, abi.ErrRmaShared, fmt.Sprintf("window rank %d is on another node: its memory cannot be shared", r))
	}
	return ts[r].Ptr, ts[r].Size, int(ts[r].DispUnit), nil
}

// Attach exposes [base, base+size) in a dynamic window (MPI_Win_attach).
func (w *Win) Attach(base unsafe.Pointer, size int64) error {
	if e := w.w.Attach(base, size); e != nil {
		return w.raiseOsc("MPI_Win_attach", e)
	}
	return nil
}

// Detach removes a region attached at base (MPI_Win_detach).
func (w *Win) Detach(base unsafe.Pointer) error {
	if e := w.w.Detach(base); e != nil {
		return w.raiseOsc("MPI_Win_detach", e)
	}
	return nil
}

// SetAttr caches val on w under k (MPI_Win_set_attr).
func (w *Win) SetAttr(k *attr.Keyval, val uintptr) error {
	if k.Freed() {
		return w.raise("MPI_Win_set_attr", abi.ErrKeyval, "the keyval was freed")
	}
	if rc := w.Attrs.Set(w.Handle, k, val); rc != 0 {
		return raiseWin(w, callbackErr("MPI_Win_set_attr", "delete", rc))
	}
	return nil
}

// DeleteAttr removes w's attribute under k (MPI_Win_delete_attr).
func (w *Win) DeleteAttr(k *attr.Keyval) error {
	if rc := w.Attrs.Delete(w.Handle, k); rc != 0 {
		return raiseWin(w, callbackErr("MPI_Win_delete_attr", "delete", rc))
	}
	return nil
}
