package mpi

import (
	"slices"
	"unsafe"

	"gompi/abi"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/mpit"
	"gompi/pml"
)

// Communicator creation. Every constructor agrees on context slots with
// agreeSlots (collective over the creating group), builds the pml matching
// state and registers the communicator under a direct handle.

var freeCommIdx []uint32 // recycled slots, so create/free loops stay flat

// A communicator handle's index is a slot of st.comms (low commSlotBits;
// context ids bound the count far below) and a generation that changes each
// time the slot is reused: a freed communicator's handle then names nothing
// (MPI_ERR_COMM) instead of the next communicator created.
const (
	commSlotBits = 16
	commSlotMask = 1<<commSlotBits - 1
	commGenMask  = 1<<(26-commSlotBits) - 1
)

var commGen []uint32 // per slot: generation of its latest handle

func registerComm(c *Comm) {
	if c.Handle == 0 {
		c.Handle = reserveCommHandle()
	}
	st.comms[abi.HandleIndex(c.Handle)&commSlotMask] = c
	st.eng.Register(c.pc)
	st.eng.Register(c.cc)
	if mpit.On[mpit.EvCommCreated] {
		mpit.RaiseCommCreated(c.Handle, c.Size(), c.pc.Ctx)
	}
}

// reserveCommHandle takes a handle for a communicator made later
// (MPI_Comm_idup); it names nothing until registerComm fills its slot.
func reserveCommHandle() int32 {
	var i uint32
	if n := len(freeCommIdx); n > 0 {
		i, freeCommIdx = freeCommIdx[n-1], freeCommIdx[:n-1]
		commGen[i] = (commGen[i] + 1) & commGenMask
	} else {
		i = uint32(len(st.comms))
		st.comms = append(st.comms, nil)
		for len(commGen) <= int(i) {
			commGen = append(commGen, 0)
		}
	}
	return abi.MakeHandle(abi.KindDirect, abi.ObjComm, commGen[i]<<commSlotBits|i)
}

// unreserveCommHandle gives back a reserved handle that was never used.
func unreserveCommHandle(h int32) {
	freeCommIdx = append(freeCommIdx, abi.HandleIndex(h)&commSlotMask)
}

func maskBytes(m *ctxMask) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(m)), len(m)*8)
}

// agreeSlots takes n context slots free in every process of c (both groups
// of an intercommunicator). Every caller gets the same answer.
func (c *Comm) agreeSlots(call string, v *xview, n int) ([]int, *Error) {
	s, _, e := c.agree(call, v, n, false)
	return s, e
}

// agreeIntra takes two context slots, for a new intracommunicator and for
// its first MPI_Comm_idup (see Idup), and, when one is free everywhere, a
// shared-memory collective area (-1 when none).
func (c *Comm) agreeIntra(call string, v *xview) ([2]int, int, *Error) {
	s, area, e := c.agree(call, v, 2, true)
	if e != nil {
		return [2]int{}, -1, e
	}
	return [2]int{s[0], s[1]}, area, nil
}

// giveBack returns what a process that takes no part in the new
// communicator was granted.
func giveBack(slots [2]int, area int) {
	ctxFree.set(slots[0])
	ctxFree.set(slots[1])
	if area >= 0 {
		ctxFree.set(areaBit0 + area)
	}
}

func (c *Comm) agree(call string, v *xview, n int, withArea bool) ([]int, int, *Error) {
	if len(retiring) > 0 || len(draining) > 0 {
		sweepRetiring()
	}
	// Every agreement goes through the claims of ctxid_mt.go: nonblocking
	// ones (ctxid_nb.go) may be in flight at any thread level.
	m := c.agreeMaskMT(v, n)
	s := m.lowestN(n)
	if len(s) < n {
		return nil, -1, errf(abi.ErrOther, call, "no free context id left (%d communicators exist)", len(st.comms))
	}
	for _, x := range s {
		ctxFree.clear(x)
	}
	area := -1
	if withArea {
		if area = m.lowestArea(); area >= 0 {
			ctxFree.clear(areaBit0 + area)
		}
	}
	return s, area, nil
}

// reduceMask ANDs m over v's members (and, for an intercommunicator, over
// both groups).
func (c *Comm) reduceMask(v *xview, m *ctxMask) {
	v.allreduceMask(m)
	if c != nil && c.inter {
		if c.rank == 0 {
			var other ctxMask
			exchange(c.cc, 0, tagCommBridge, maskBytes(m), maskBytes(&other))
			m.and(&other)
		}
		v.bcast(maskBytes(m), 0)
	}
}

// newIntra builds an intracommunicator over the given world ranks; every
// member calls it (setting up shared-memory collectives is collective).
func newIntra(slots [2]int, group []int, me int, parent *Comm, area int) *Comm {
	return newIntraAt(0, slots, group, me, parent, area)
}

// newIntraAt is newIntra under a handle taken earlier (0: a new one).
func newIntraAt(h int32, slots [2]int, group []int, me int, parent *Comm, area int) *Comm {
	slot := slots[0]
	pc, mem := newFastPC(uint32(2*slot), me, group)
	cc := pml.NewComm(uint32(2*slot+1), me, group)
	c := newComm(h, pc, cc, "")
	c.fastMem = mem
	c.slots = []int{slot}
	if slots[1] != noSlot {
		c.slots = append(c.slots, slots[1])
		c.reserve = slots[1] + 1
	}
	if parent != nil {
		c.errh = parent.errh
	}
	registerComm(c)
	c.publishFast()
	c.setupShm(area)
	c.publishShm()
	return c
}

// noSlot marks a slot pair with no idup reserve.
const noSlot = -1

// Idup duplicates c (MPI_Comm_idup) and waits for the result; IdupStart
// (ctxid_nb.go) is the nonblocking call.
func (c *Comm) Idup() (*Comm, error) {
	h, r, err := c.IdupStart(nil)
	if err != nil {
		return nil, err
	}
	st.eng.Wait(r)
	if s := Finish(r); s.Err != 0 {
		return nil, &Error{Class: s.Err, Call: "MPI_Comm_idup", Detail: "the duplicate was not made"}
	}
	return CommFromHandle(h), nil
}

// idupNow is an intracommunicator's first idup, complete in the call: every
// intracommunicator is made with a second context slot agreed with the
// first, kept for its first idup (all members call idup on c in the same
// order, so all take the reserve together).
func (c *Comm) idupNow() (*Comm, error) {
	slot := c.reserve - 1
	c.reserve = 0
	c.slots = slices.DeleteFunc(c.slots, func(s int) bool { return s == slot })
	d := newIntra([2]int{slot, noSlot}, c.group, c.rank, c, -1)
	d.topo = c.topo
	if err := c.copyAttrs(d); err != nil {
		d.release()
		return nil, err
	}
	return d, nil
}

// Dup duplicates c (MPI_Comm_dup): same group, new context, attributes
// copied by their callbacks, error handler and topology inherited.
func (c *Comm) Dup() (*Comm, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Comm_dup"
	var d *Comm
	if c.inter {
		s, e := c.agreeSlots(call, viewOf(c), 2)
		if e != nil {
			return nil, c.raise(e)
		}
		d = newInter(s, c.group, c.rank, c.remote, c)
	} else {
		s, area, e := c.agreeIntra(call, viewOf(c))
		if e != nil {
			return nil, c.raise(e)
		}
		d = newIntra(s, c.group, c.rank, c, area)
	}
	d.topo = c.topo
	if err := c.copyAttrs(d); err != nil {
		d.release()
		return nil, err
	}
	return d, nil
}

// Split partitions c by colour, ordering each part by key then rank
// (MPI_Comm_split). It returns nil for colour MPI_UNDEFINED.
func (c *Comm) Split(color, key int) (*Comm, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Comm_split"
	if color < 0 && color != abi.Undefined {
		return nil, c.raise(errf(abi.ErrArg, call, "colour %d is negative and not MPI_UNDEFINED", color))
	}
	if c.inter {
		return c.interSplit(color, key)
	}
	v := viewOf(c)
	all := v.allgatherInts([]int{color, key})
	s, area, e := c.agreeIntra(call, v)
	if e != nil {
		return nil, c.raise(e)
	}
	if color == abi.Undefined {
		giveBack(s, area) // this process takes no part
		return nil, nil
	}
	group, me := members(all, c.group, color, c.rank)
	return newIntra(s, group, me, c, area), nil
}

// SplitType splits c by a locality type (MPI_Comm_split_type).
func (c *Comm) SplitType(kind, key int) (*Comm, error) {
	color := abi.Undefined
	switch kind {
	case abi.Undefined:
	case abi.CommTypeShared:
		color = max(st.topo[st.rank].Node, 0)
	default:
		return nil, c.raise(errf(abi.ErrArg, "MPI_Comm_split_type", "split type %d is not MPI_COMM_TYPE_SHARED nor MPI_UNDEFINED", kind))
	}
	return c.Split(color, key)
}

// checkSubgroup checks that every world rank of g belongs to c's group and
// returns g's members as ranks of c, and the caller's place in g (-1 if absent).
func (c *Comm) checkSubgroup(call string, g []int) ([]int, int, *Error) {
	pos := make(map[int]int, len(c.group))
	for i, w := range c.group {
		pos[w] = i
	}
	ranks := make([]int, len(g))
	me := -1
	for i, w := range g {
		r, ok := pos[w]
		if !ok {
			return nil, -1, errf(abi.ErrGroup, call, "group member (world rank %d) is not in the communicator", w)
		}
		ranks[i] = r
		if r == c.rank {
			me = i
		}
	}
	return ranks, me, nil
}

// Create makes a communicator of the members of g, a subgroup of c, called
// by every process of c (MPI_Comm_create). Non-members get nil.
func (c *Comm) Create(g []int) (*Comm, error) {
	const call = "MPI_Comm_create"
	if c.inter {
		return c.interCreate(g)
	}
	_, me, e := c.checkSubgroup(call, g)
	if e != nil {
		return nil, c.raise(e)
	}
	s, area, e := c.agreeIntra(call, viewOf(c))
	if e != nil {
		return nil, c.raise(e)
	}
	if me < 0 {
		giveBack(s, area)
		return nil, nil
	}
	return newIntra(s, slices.Clone(g), me, c, area), nil
}

// CreateGroup makes a communicator of g, called only by g's members
// (MPI_Comm_create_group); tag tells concurrent calls apart.
func (c *Comm) CreateGroup(g []int, tag int) (*Comm, error) {
	const call = "MPI_Comm_create_group"
	if c.inter {
		return nil, c.raise(errf(abi.ErrComm, call, "creating from an intercommunicator is not supported"))
	}
	if tag < 0 || tag > abi.TagUB {
		return nil, c.raise(errf(abi.ErrTag, call, "tag %d is not in [0, MPI_TAG_UB]", tag))
	}
	ranks, me, e := c.checkSubgroup(call, g)
	if e != nil {
		return nil, c.raise(e)
	}
	if me < 0 {
		return nil, c.raise(errf(abi.ErrGroup, call, "the calling process is not in the group"))
	}
	v := &xview{pc: c.cc, ranks: ranks, me: me, tag: tagGroupBase - tag%(1<<20)}
	s, area, e := c.agreeIntra(call, v)
	if e != nil {
		return nil, c.raise(e)
	}
	return newIntra(s, slices.Clone(g), me, c, area), nil
}

// Free releases c (MPI_Comm_free): delete callbacks run, the context slots
// return to the free mask and the handle index is recycled.
func (c *Comm) Free() error {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c == st.world || c == st.self {
		return c.raise(errf(abi.ErrComm, "MPI_Comm_free", "%s cannot be freed", c.name))
	}
	if err := c.deleteAttrs(); err != nil {
		return err
	}
	c.release()
	return nil
}

// release retires c's handle at once; its context goes back to the free
// mask only when no receive is pending on it (MPI_Comm_free lets pending
// operations complete), checked again before every new allocation.
func (c *Comm) release() {
	if abi.HandleKind(c.Handle) == abi.KindDirect {
		c.unpublishFast()
		c.unpublishShm()
		i := abi.HandleIndex(c.Handle) & commSlotMask
		st.comms[i] = nil
		freeCommIdx = append(freeCommIdx, i)
		c.Handle = abi.CommNull
	}
	if c.shm != nil {
		c.shm.Fence()
		draining = append(draining, c)
	}
	if c.idle() {
		c.retire()
	} else {
		retiring = append(retiring, c)
	}
}

// retiring holds freed communicators whose receives are still pending.
var retiring []*Comm

func (c *Comm) idle() bool {
	return c.pc.Idle() && c.cc.Idle() && (c.local == nil || c.local.idle())
}

func (c *Comm) retire() {
	if c.local != nil {
		c.local.retire()
	}
	st.eng.Unregister(c.pc)
	st.eng.Unregister(c.cc)
	c.freeFast()
	for _, s := range c.slots {
		ctxFree.set(s)
	}
	c.slots = nil
}

// sweepRetiring returns the contexts of freed communicators that went idle.
func sweepRetiring() {
	kept := retiring[:0]
	for _, c := range retiring {
		if c.idle() {
			c.retire()
		} else {
			kept = append(kept, c)
		}
	}
	clear(retiring[len(kept):])
	retiring = kept
	keptD := draining[:0]
	for _, c := range draining {
		if c.shm.Drained() {
			ctxFree.set(areaBit0 + c.area)
			c.shm = nil
		} else {
			keptD = append(keptD, c)
		}
	}
	clear(draining[len(keptD):])
	draining = keptD
}

// Compare compares two communicators (MPI_Comm_compare).
func Compare(a, b *Comm) int {
	switch {
	case a == b:
		return abi.Ident
	case a.inter != b.inter:
		return abi.Unequal
	}
	r := compareRanks(a.group, b.group)
	if a.inter {
		r = max(r, compareRanks(a.remote, b.remote))
	}
	if r == abi.Ident {
		return abi.Congruent
	}
	return r
}

// compareRanks compares two groups given as world ranks: Ident, Similar or Unequal.
func compareRanks(a, b []int) int {
	if len(a) != len(b) {
		return abi.Unequal
	}
	if slices.Equal(a, b) {
		return abi.Ident
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	if slices.Equal(x, y) {
		return abi.Similar
	}
	return abi.Unequal
}

// DoneRequest is an already completed request (nonblocking calls this
// library finishes at once, e.g. MPI_Comm_idup).
func DoneRequest() *Request {
	r := st.eng.NewRequest()
	r.Kind = pml.KindSend
	st.eng.CompleteNow(r, Status{Source: abi.AnySource, Tag: abi.AnyTag})
	return r
}

// SetInfo replaces the hints attached to c (MPI_Comm_set_info); none is acted on.
func (c *Comm) SetInfo(in *info.Info) { c.info = in }

// Info returns the hints attached to c (nil when none were set).
func (c *Comm) Info() *info.Info { return c.info }
