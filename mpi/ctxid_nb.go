package mpi

import (
	"slices"
	"unsafe"

	"gompi/abi"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/pml"
)

// Nonblocking context-id agreement (MPI_Comm_idup beyond an
// intracommunicator's first, which takes its reserve). The agreement is the
// blocking one (agreeMaskMT) turned into a state machine the progress
// engine advances: each round ANDs the members' offers up a binomial tree to
// member 0 and sends the result back down, and the round repeats with the
// next region while the result is too small. The offer of every round is
// claimed until the round ends, so agreements in flight at once in this
// process (other idups, a blocking MPI_Comm_dup meanwhile, other threads at
// MULTIPLE) never offer the same slot: they cannot both get it.
//
// Each idup on a parent takes the next number of a per-parent counter (all
// members start idups on one parent in the same order, so the numbers
// agree) and runs on the parent's collective context with a tag of its own:
// idups outstanding together, or crossed with idups on other parents in
// another order elsewhere, never take each other's messages.
// The range lies below every other management tag (xview.go): at -(1<<21)
// it overlapped MPI_Intercomm_create's leader tags, which run on the peer
// communicator's collective context, so an idup of that communicator in
// flight could take a leader's message.
const (
	tagIdupBase = -(1 << 23) // tagIdupBase - (number mod idupTags)
	idupTags    = 1 << 16
)

type ctxAgreement struct {
	v       *xview
	key     uint64
	n       int // slots wanted
	attempt int
	parent  int   // member index of the tree parent, -1 at the root
	kids    []int // member indexes of the tree children
	state   uint8
	m       ctxMask // the running AND, then the round's result
	mine    ctxMask // this round's offer, claimed until the round ends
	unclaim func()
	in      []ctxMask // one per kid
	down    ctxMask   // the result, from the parent
	out     ctxMask   // what is being sent (stable while sends are in flight)
	recvs   []*Request
	precv   *Request
	sends   []*Request
	// bridge, for an intercommunicator's agreement, is its collective
	// context: the two roots swap their groups' masks over it (member 0 of
	// the remote group) before sending the result down.
	bridge *pml.Comm
	bout   ctxMask // the root's mask sent over the bridge
	rem    ctxMask // the remote group's mask
	brecv  *Request
	// done gets the result (ok false: no context id left).
	done func(m *ctxMask, ok bool)
}

const (
	agUp     = iota // waiting for the kids' masks
	agDown          // waiting for the result from the parent
	agBridge        // root of an intercommunicator's agreement: waiting for the remote mask
	agSends         // waiting for the sends of the round
	agRetry         // the round fell short: another one at the next progress
	agDone
)

var (
	agreements []*ctxAgreement
	agreeHook  pml.Hook
)

func init() { agreeHook = advanceAgreements }

// startAgreement begins an agreement of n slots over v (and, when bridge
// is not nil, over the remote group of the intercommunicator whose
// collective context it is); done runs when it ends, from this call or from
// the progress engine.
func startAgreement(v *xview, bridge *pml.Comm, n int, done func(*ctxMask, bool)) {
	if len(retiring) > 0 || len(draining) > 0 {
		sweepRetiring()
	}
	a := &ctxAgreement{v: v, key: ctxKey(v), n: n, parent: -1, bridge: bridge, done: done}
	size := v.size()
	for mask := 1; mask < size; mask <<= 1 {
		if v.me&mask != 0 {
			a.parent = v.me - mask
			break
		}
		if v.me+mask < size {
			a.kids = append(a.kids, v.me+mask)
		}
	}
	a.in = make([]ctxMask, len(a.kids))
	a.recvs = make([]*Request, len(a.kids))
	a.startRound()
	if !a.advance() {
		if len(agreements) == 0 {
			st.eng.AddHook(&agreeHook)
		}
		agreements = append(agreements, a)
	}
}

// Nonblocking agreements take their words from the upper half of the slot
// space: one-shot exchanges (ctxSnapshot) offer the lowest region while any
// is in flight, blocking agreements one region, so neither can hold every
// word an idup might need while it waits for members that are in the idup.
const (
	nbWord0 = (areaBit0 / 64) / 2
	nbWords = areaBit0/64 - nbWord0
)

// ctxOfferNB is what a nonblocking agreement offers: the unclaimed free
// slots of one 64-slot word chosen by its key and attempt, the same word in
// every member. A small claim matters: an idup may stay in flight while this
// process runs blocking agreements whose other members start the idup only
// after those (MPI_Comm_create_group first on some ranks); those must find
// slots the idup does not hold. After 2*nbWords attempts, with no other
// claim here, the whole free mask and the flag (ctxid_mt.go), so that
// exhaustion ends the agreement.
func ctxOfferNB(key uint64, attempt int) ctxMask {
	if attempt >= 2*nbWords && len(ctxClaims) == 0 {
		m := ctxFree
		m.set(flagBit)
		return m
	}
	var m ctxMask
	w := nbWord0 + ctxPick(key, attempt, nbWords)
	m[w] = ctxFree[w]
	for _, c := range ctxClaims {
		m[w] &^= c[w]
	}
	return m
}

func (a *ctxAgreement) startRound() {
	a.m = ctxOfferNB(a.key, a.attempt)
	for s := areaBit0; s < ctxSlots; s++ {
		a.m.clear(s) // no shared-memory area: setting one up would block
	}
	a.mine = a.m
	a.unclaim = ctxClaim(&a.mine)
	sz := int(unsafe.Sizeof(ctxMask{}))
	for i, k := range a.kids {
		a.recvs[i] = st.eng.Irecv(a.v.pc, unsafe.Pointer(&a.in[i]), sz, a.v.ranks[k], a.v.tag)
	}
	if a.parent >= 0 {
		a.precv = st.eng.Irecv(a.v.pc, unsafe.Pointer(&a.down), sz, a.v.ranks[a.parent], a.v.tag)
	}
	a.state = agUp
}

func (a *ctxAgreement) send(to int) {
	r := st.eng.Isend(a.v.pc, unsafe.Pointer(&a.out), int(unsafe.Sizeof(a.out)), a.v.ranks[to], a.v.tag, pml.ModeStandard)
	if r != nil {
		a.sends = append(a.sends, r)
	}
}

// advance moves a as far as its messages allow; true once it has ended.
func (a *ctxAgreement) advance() bool {
	for {
		switch a.state {
		case agUp:
			for i, r := range a.recvs {
				if r != nil && !r.Done() {
					return false
				}
				if r != nil {
					st.eng.Release(r)
					a.recvs[i] = nil
					a.m.and(&a.in[i])
				}
			}
			a.out = a.m
			if a.parent < 0 && a.bridge != nil {
				a.startBridge()
			} else if a.parent < 0 {
				a.sendKids()
			} else {
				a.send(a.parent)
				a.state = agDown
			}
		case agDown:
			if !a.precv.Done() {
				return false
			}
			st.eng.Release(a.precv)
			a.precv = nil
			a.m = a.down
			a.out = a.m
			a.sendKids()
		case agBridge:
			if !a.brecv.Done() {
				return false
			}
			st.eng.Release(a.brecv)
			a.brecv = nil
			a.m.and(&a.rem)
			a.out = a.m
			a.sendKids()
		case agSends:
			for len(a.sends) > 0 {
				r := a.sends[len(a.sends)-1]
				if !r.Done() {
					return false
				}
				st.eng.Release(r)
				a.sends = a.sends[:len(a.sends)-1]
			}
			if a.endRound() {
				a.state = agDone
				return true
			}
			a.state = agRetry
			return false // let the agreements holding claims move first
		case agRetry:
			a.attempt++
			a.startRound()
		case agDone:
			return true
		}
	}
}

// startBridge swaps the local group's mask with the remote root's; both
// roots then hold the AND over both groups, so both groups see the same
// result each round and stay in step.
func (a *ctxAgreement) startBridge() {
	a.bout = a.m
	sz := int(unsafe.Sizeof(ctxMask{}))
	a.brecv = st.eng.Irecv(a.bridge, unsafe.Pointer(&a.rem), sz, 0, a.v.tag)
	r := st.eng.Isend(a.bridge, unsafe.Pointer(&a.bout), sz, 0, a.v.tag, pml.ModeStandard)
	if r != nil {
		a.sends = append(a.sends, r)
	}
	a.state = agBridge
}

func (a *ctxAgreement) sendKids() {
	for _, k := range a.kids {
		a.send(k)
	}
	a.state = agSends
}

// endRound releases the round's claim and ends the agreement when every
// member saw enough slots (or the ids are exhausted); all members see the
// same result, so they stay in step.
func (a *ctxAgreement) endRound() bool {
	a.unclaim()
	flag := a.m[flagBit/64]&(1<<(flagBit%64)) != 0
	a.m.clear(flagBit)
	enough := len(a.m.lowestN(a.n)) == a.n
	if flag || enough {
		a.done(&a.m, enough)
		return true
	}
	return false
}

func advanceAgreements() int {
	n := 0
	kept := agreements[:0]
	for i := 0; i < len(agreements); i++ { // done callbacks may start more
		a := agreements[i]
		if a.advance() {
			n++
		} else {
			kept = append(kept, a)
		}
	}
	clear(agreements[len(kept):])
	agreements = kept
	if len(agreements) == 0 {
		st.eng.RemoveHook(&agreeHook)
	}
	return n
}

// IdupStart begins MPI_Comm_idup (MPI_Comm_idup_with_info when in is not
// nil): it returns the new communicator's handle at once and a request;
// the handle names the communicator (CommFromHandle) once the request has
// completed. An intracommunicator's first idup takes its reserve slot and
// is complete at once; others, and every intercommunicator's, agree on
// context ids from the progress engine.
func (c *Comm) IdupStart(in *info.Info) (int32, *Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !c.inter && c.reserve != 0 {
		d, err := c.idupNow()
		if err != nil {
			return abi.CommNull, nil, err
		}
		d.info = in
		return d.Handle, DoneRequest(), nil
	}
	h := reserveCommHandle()
	r := st.eng.NewRequest()
	r.Kind = KindExt
	r.Comm = c.pc
	r.User = c
	st.eng.Activate(r)
	// An intercommunicator's local group agrees through its own
	// intracommunicator, the roots across its collective context.
	lc, bridge := c.cc, (*pml.Comm)(nil)
	if c.inter {
		lc, bridge = c.local.cc, c.cc
	}
	v := &xview{pc: lc, ranks: make([]int, lc.Size()), me: lc.Rank,
		tag: tagIdupBase - c.idupSeq%idupTags}
	for i := range v.ranks {
		v.ranks[i] = i
	}
	c.idupSeq++
	group, remote, me, topo, inter := c.group, c.remote, c.rank, c.topo, c.inter
	startAgreement(v, bridge, 2, func(m *ctxMask, ok bool) {
		if !ok {
			unreserveCommHandle(h)
			e := errf(abi.ErrOther, "MPI_Comm_idup", "no free context id left (%d communicators exist)", len(st.comms))
			st.eng.CompleteNow(r, Status{Source: abi.AnySource, Tag: abi.AnyTag, Err: Code(c.raise(e))})
			return
		}
		s := m.lowestN(2)
		ctxFree.clear(s[0])
		ctxFree.clear(s[1])
		var d *Comm
		if inter {
			d = newInterAt(h, s, slices.Clone(group), me, slices.Clone(remote), c)
		} else {
			d = newIntraAt(h, [2]int{s[0], s[1]}, slices.Clone(group), me, c, -1)
		}
		d.topo = topo
		d.info = in
		status := Status{Source: abi.AnySource, Tag: abi.AnyTag}
		if err := c.copyAttrs(d); err != nil {
			status.Err = Code(err)
		}
		st.eng.CompleteNow(r, status)
	})
	return h, r, nil
}
