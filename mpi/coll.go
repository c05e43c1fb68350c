package mpi

import (
	"fmt"
	"os"
	"unsafe"

	"gompi/abi"
	"gompi/coll"
	"gompi/datatype"
	"gompi/pml"
)

// Collectives run coll schedules on a communicator's collective context.
// Every collective call takes the next tag of its communicator (all ranks
// call collectives in the same order), so any number can be in flight.

// CollMode says how a collective is called: MPI_X, MPI_IX or MPI_X_init.
type CollMode uint8

const (
	Blocking CollMode = iota
	Nonblocking
	Persistent
)

// CallName renders the MPI name of a collective for a mode ("Bcast" ->
// MPI_Bcast, MPI_Ibcast, MPI_Bcast_init). Names are made once: building
// them per call showed in profiles of small collectives.
func CallName(base string, m CollMode) string {
	names, ok := callNames[base]
	if !ok {
		names = [3]string{"MPI_" + base, "MPI_I" + string(base[0]+'a'-'A') + base[1:], "MPI_" + base + "_init"}
		callNames[base] = names
	}
	return names[m]
}

var callNames = map[string][3]string{}

func callName(base string, m CollMode) string { return CallName(base, m) }

// collPort is the coll.Transport of a communicator's collective context; it
// records the first error a receive reported (a truncation: counts or types
// that do not match across ranks).
type collPort struct {
	c   *pml.Comm
	err *int
}

func (p *collPort) Isend(buf unsafe.Pointer, n, peer, tag int) coll.Req {
	if r := st.eng.Isend(p.c, buf, n, peer, tag, pml.ModeStandard); r != nil {
		return r
	}
	return nil
}

func (p *collPort) Irecv(buf unsafe.Pointer, n, peer, tag int, whole bool) coll.Req {
	if whole {
		return st.eng.IrecvWhole(p.c, buf, n, peer, tag)
	}
	return st.eng.Irecv(p.c, buf, n, peer, tag)
}

func (p *collPort) Release(r coll.Req) {
	q := r.(*pml.Request)
	if q.Status.Err != 0 && *p.err == 0 {
		*p.err = q.Status.Err
	}
	st.eng.Release(q)
}

// nextTag reserves the next collective tag of c (k consecutive ones with
// nextTags: a neighbourhood collective's directions). The counter lives in
// the communicator, so it goes with it when it is freed.
func (c *Comm) nextTag() int { return c.nextTags(1) }

func (c *Comm) nextTags(k int) int {
	t := c.collTag
	if t+k >= 1<<30 {
		t = 0
	}
	c.collTag = t + k
	return t
}

// collOp is one collective call: its schedule plus the packing of derived
// datatypes around it (pre runs at every start, post at every completion).
type collOp struct {
	c     *Comm
	s     *coll.Schedule
	pre   []func()
	post  []func()
	keep  []any // memory the schedule points into
	req   *Request
	tags  int   // consecutive tags per run (0: one)
	local *Comm // intercommunicator collectives: the local group's communicator
	ports [2]collPort
	err   int  // first error class of the current run
	busy  bool // a nonblocking or persistent run is in flight
	// ptags: a persistent collective's tags, reserved at its *_init, so
	// that collectives match in the order of their init calls whatever the
	// order of MPI_Start (-1: take fresh tags at each start).
	ptags [2]int
}

func (op *collOp) start() {
	for _, f := range op.pre {
		f()
	}
	op.err = 0
	if op.ports[0].c == nil {
		op.ports[0] = collPort{op.c.cc, &op.err}
		if op.local != nil {
			op.ports[1] = collPort{op.local.cc, &op.err}
		}
	}
	t := op.ptags
	if op.req == nil || !op.req.Persistent {
		t = op.reserveTags()
	}
	if op.local != nil {
		op.s.Start2(&op.ports[0], t[0], &op.ports[1], t[1])
		return
	}
	op.s.Start(&op.ports[0], t[0])
}

// reserveTags takes the tags of one run of op.
func (op *collOp) reserveTags() [2]int {
	if op.local != nil {
		return [2]int{op.c.nextTags(1), op.local.nextTags(1)}
	}
	return [2]int{op.c.nextTags(max(op.tags, 1)), -1}
}

func (op *collOp) finish() {
	for _, f := range op.post {
		f()
	}
}

// run executes op to completion in place, giving the core away while it
// waits, and raises the error a receive reported.
func (op *collOp) run() error {
	op.start()
	spins := 0
	for !op.s.Advance() {
		if st.eng.Progress() == 0 {
			st.eng.Backoff(&spins)
		} else {
			spins = 0
		}
	}
	op.finish()
	if op.err != 0 {
		return op.c.raise(errf(op.err, "collective operation", "a message was longer than its receive buffer (counts or types differ across ranks)"))
	}
	return nil
}

// active lists the nonblocking and persistent collectives in flight; the
// engine's progress hook advances them while any exists.
var active []*collOp

var collHook pml.Hook

func init() { collHook = advanceActive }

func advanceActive() int {
	n := 0
	for i := 0; i < len(active); {
		op := active[i]
		if !op.s.Advance() {
			i++
			continue
		}
		active = append(active[:i], active[i+1:]...)
		op.complete()
		n++
	}
	if len(active) == 0 {
		st.eng.RemoveHook(&collHook)
	}
	return n
}

var collStatus = pml.Status{Source: abi.AnySource, Tag: abi.AnyTag}

func (op *collOp) complete() {
	op.busy = false
	op.finish()
	s := collStatus
	s.Err = op.err
	st.eng.CompleteNow(op.req, s)
}

// launch starts op and leaves it to the progress hook unless it finished.
func (op *collOp) launch() {
	op.busy = true
	st.eng.Activate(op.req)
	op.start()
	if op.s.Advance() {
		op.complete()
		return
	}
	if len(active) == 0 {
		st.eng.AddHook(&collHook)
	}
	active = append(active, op)
}

// exec runs op as the mode asks: now, started, or as a persistent request.
func (op *collOp) exec(m CollMode) (*Request, error) {
	if m == Blocking {
		return nil, op.run()
	}
	r := st.eng.NewRequest()
	r.Kind = pml.KindColl
	r.Comm = op.c.cc
	r.User = op
	op.req = r
	if m == Persistent {
		r.Persistent = true
		op.ptags = op.reserveTags()
		return r, nil
	}
	op.launch()
	return r, nil
}

// startColl is MPI_Start on a persistent collective.
func startColl(r *Request) error {
	op := r.User.(*collOp)
	if r.Active {
		return op.c.raise(errf(abi.ErrRequest, "MPI_Start", "persistent collective request is already active"))
	}
	op.launch()
	return nil
}

// --- buffers -----------------------------------------------------------------

// rebaseBottom turns blocks on MPI_BOTTOM (a nil base, displacements that
// are absolute addresses) into blocks on the lowest address they use, since
// the schedules treat a nil base as no buffer at all.
func rebaseBottom(bl *coll.Blocks) {
	lo, any := 0, false
	for i, n := range bl.Count {
		if n > 0 && (!any || bl.Displ[i] < lo) {
			lo, any = bl.Displ[i], true
		}
	}
	if !any {
		return
	}
	u := uintptr(lo)
	bl.Buf = *(*unsafe.Pointer)(unsafe.Pointer(&u))
	for i := range bl.Displ {
		bl.Displ[i] -= lo
	}
}

// InPlace is MPI_IN_PLACE for Go callers; C's (void *)-1 arrives as the same
// value.
var InPlace = inPlacePtr()

var inPlaceAddr = ^uintptr(0)

func inPlacePtr() unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&inPlaceAddr)) }

// IsInPlace reports whether p is MPI_IN_PLACE.
func IsInPlace(p unsafe.Pointer) bool { return uintptr(p) == inPlaceAddr }

const (
	dirIn  = 1 // read by the collective: packed before it starts
	dirOut = 2 // written by it: unpacked when it completes
)

// buf maps count elements of dt at p to contiguous bytes for a schedule:
// p itself for contiguous types, else scratch packed/unpacked around the run.
func (op *collOp) buf(p unsafe.Pointer, count int, dt *datatype.Type, dir int) (unsafe.Pointer, int) {
	n := count * dt.Size
	if dt.Contig || n == 0 {
		return p, n
	}
	tmp := make([]byte, n)
	op.keep = append(op.keep, tmp)
	if dir&dirIn != 0 {
		op.pre = append(op.pre, func() { dt.Pack(tmp, p, count, 0) })
	}
	if dir&dirOut != 0 {
		op.post = append(op.post, func() { dt.Unpack(p, count, tmp, 0) })
	}
	return unsafe.Pointer(&tmp[0]), n
}

// blocks maps per-rank (count, displacement in extents) of dt at p.
func (op *collOp) blocks(p unsafe.Pointer, counts, displs []int, dt *datatype.Type, dir int) coll.Blocks {
	bd := make([]int, len(counts))
	types := make([]*datatype.Type, len(counts))
	for i := range counts {
		bd[i], types[i] = displs[i]*dt.Extent, dt
	}
	return op.blocksW(p, counts, bd, types, dir, false)
}

// blocksW maps per-rank (count, byte displacement, type) at p: directly when
// every type is contiguous, else through packed scratch (always when force).
func (op *collOp) blocksW(p unsafe.Pointer, counts, bdispls []int, types []*datatype.Type, dir int, force bool) coll.Blocks {
	size := len(counts)
	bl := coll.Blocks{Buf: p, Count: make([]int, size), Displ: make([]int, size)}
	direct := !force
	for i := range counts {
		if counts[i] > 0 && !types[i].Contig {
			direct = false
		}
	}
	if direct {
		for i := range counts {
			bl.Count[i], bl.Displ[i] = counts[i]*types[i].Size, bdispls[i]
		}
		if p == nil {
			rebaseBottom(&bl)
		}
		return bl
	}
	total := 0
	for i := range counts {
		bl.Count[i], bl.Displ[i] = counts[i]*types[i].Size, total
		total += bl.Count[i]
	}
	if total == 0 {
		return bl
	}
	tmp := make([]byte, total)
	op.keep = append(op.keep, tmp)
	bl.Buf = unsafe.Pointer(&tmp[0])
	for i := range counts {
		if counts[i] == 0 {
			continue
		}
		u := unsafe.Add(p, bdispls[i])
		seg := tmp[bl.Displ[i] : bl.Displ[i]+bl.Count[i]]
		k, dt := counts[i], types[i]
		if dir&dirIn != 0 {
			op.pre = append(op.pre, func() { dt.Pack(seg, u, k, 0) })
		}
		if dir&dirOut != 0 {
			op.post = append(op.post, func() { dt.Unpack(u, k, seg, 0) })
		}
	}
	return bl
}

// regular is the displacement array of a regular (non-v) collective.
func regular(size, count int) (counts, displs []int) {
	counts, displs = make([]int, size), make([]int, size)
	for i := range counts {
		counts[i], displs[i] = count, i*count
	}
	return counts, displs
}

// algorithm picks k's algorithm: a valid GOMPI_COLL_<KIND> setting wins.
func (c *Comm) algorithm(k coll.Kind, size, bytes int, commute bool) string {
	if a, ok := st.settings["GOMPI_COLL_"+string(k)]; ok && coll.Valid(k, a) {
		return a
	}
	// Every member must choose alike: processes of different jobs may see
	// their own node differently, so between jobs oversubscription is not
	// asked (dynproc.go).
	coll.Oversubscribed = fastInfo.Oversub && !c.spansJobs()
	a := coll.Choose(k, size, bytes, commute)
	if st.settings["GOMPI_COLL_VERBOSE"] == "1" {
		collVerbose(k, size, bytes, a)
	}
	return a
}

// collVerbose reports each algorithm choice once (GOMPI_COLL_VERBOSE=1).
var collSeen = map[string]bool{}

func collVerbose(k coll.Kind, size, bytes int, a string) {
	key := fmt.Sprintf("%s size=%d bytes=%d oversubscribed=%v: %s", k, size, bytes, coll.Oversubscribed, a)
	if !collSeen[key] {
		collSeen[key] = true
		fmt.Fprintf(os.Stderr, "gompi: rank %d: %s\n", st.rank, key)
	}
}
