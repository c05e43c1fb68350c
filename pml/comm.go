package pml

import "gompi/mpit"

// Wildcards and the null process, as in the MPI standard (MPICH values).
const (
	AnySource = -2
	AnyTag    = -1
	ProcNull  = -1
)

// Comm is the pml's view of a communicator: a context id, the local rank, the
// world rank of every peer, and the matching state per peer.
type Comm struct {
	Ctx   uint32
	Rank  int
	World []int // peer rank -> world rank (the remote group of an intercommunicator)

	peers   []peerState
	seq     []SeqPair
	sh      *Shared
	wild    reqQueue // posted MPI_ANY_SOURCE receives
	postSeq uint64
	arrival uint64
	qs      *QueueStats // the engine's once registered (MPI_T), else its own
}

// SeqPair holds the next sequence numbers to and from one peer.
type SeqPair struct {
	Send uint16
	Recv uint16
}

// Shared is matching state a C fast path reads: Busy counts posted receives,
// unexpected and held messages; while it is zero, the next in-order eager
// fragment from a peer can only match a receive the fast path is about to make.
type Shared struct {
	Busy int32
	_    int32
}

type peerState struct {
	posted reqQueue   // receives posted for this peer
	unexp  unexpQueue // arrived, in order, not yet matched
	held   unexpQueue // arrived ahead of their sequence number
}

// NewComm makes the matching state of a communicator (not yet registered).
func NewComm(ctx uint32, rank int, world []int) *Comm {
	return NewCommShared(ctx, rank, world, make([]SeqPair, len(world)), new(Shared))
}

// NewCommShared is NewComm with the sequence numbers and counters kept in
// memory the caller provides (outside the Go heap, for the C fast path).
func NewCommShared(ctx uint32, rank int, world []int, seq []SeqPair, sh *Shared) *Comm {
	return &Comm{Ctx: ctx, Rank: rank, World: world, peers: make([]peerState, len(world)), seq: seq, sh: sh, qs: new(QueueStats)}
}

// Idle reports that no receive is posted and no message waits on c: freeing
// it then strands nothing.
func (c *Comm) Idle() bool { return c.sh.Busy == 0 }

// receiving reports whether a receive for peer (or any source) is posted.
func (c *Comm) receiving(peer int) bool {
	return c.peers[peer].posted.head != nil || c.wild.head != nil
}

// Size is the number of peers (the remote group size of an intercommunicator).
func (c *Comm) Size() int { return len(c.World) }

// nextSendSeq returns the sequence number of the next message to peer.
func (c *Comm) nextSendSeq(peer int) uint16 {
	s := c.seq[peer].Send
	c.seq[peer].Send++
	return s
}

// inOrder reports whether h is the next expected fragment from its source and
// if so advances the expectation.
func (c *Comm) inOrder(h *matchHdr) bool {
	q := &c.seq[h.src]
	if h.seq != q.Recv {
		return false
	}
	q.Recv++
	return true
}

// hold keeps a fragment that arrived ahead of its turn.
func (c *Comm) hold(u *unexp) {
	c.sh.Busy++
	c.peers[u.hdr.src].held.insertBySeq(u, c.seq[u.hdr.src].Recv)
}

// takeHeld returns the held fragment from src whose turn has come, if any.
func (c *Comm) takeHeld(src int) *unexp {
	p := &c.peers[src]
	u := p.held.head
	if u == nil || u.hdr.seq != c.seq[src].Recv {
		return nil
	}
	p.held.remove(u)
	c.sh.Busy--
	c.seq[src].Recv++
	return u
}

// matchPosted finds and removes the receive an in-order fragment matches: the
// earliest posted among the source's queue and the wildcard queue.
func (c *Comm) matchPosted(h *matchHdr) *Request {
	p := &c.peers[h.src]
	a := p.posted.firstTag(h.tag)
	w := c.wild.firstTag(h.tag)
	switch {
	case a == nil && w == nil:
		return nil
	case w == nil || (a != nil && a.postSeq < w.postSeq):
		p.posted.remove(a)
		c.sh.Busy--
		c.qs.Posted--
		return a
	default:
		c.wild.remove(w)
		c.sh.Busy--
		c.qs.Posted--
		return w
	}
}

// addUnexpected queues an in-order fragment no receive matched.
func (c *Comm) addUnexpected(u *unexp) {
	u.arrival = c.arrival
	c.arrival++
	c.sh.Busy++
	c.peers[u.hdr.src].unexp.push(u)
	if c.qs.Unexp++; c.qs.Unexp > c.qs.UnexpPeak {
		c.qs.UnexpPeak = c.qs.Unexp
	}
	if mpit.On[mpit.EvUnexpected] {
		mpit.RaiseUnexpected(u.hdr.src, u.hdr.tag, u.size)
	}
}

// findUnexpected returns the earliest-arrived unexpected message matching
// (src, tag), without removing it.
func (c *Comm) findUnexpected(src, tag int) *unexp {
	if src != AnySource {
		return c.peers[src].unexp.firstTag(tag)
	}
	var best *unexp
	for i := range c.peers {
		if u := c.peers[i].unexp.firstTag(tag); u != nil && (best == nil || u.arrival < best.arrival) {
			best = u
		}
	}
	return best
}

func (c *Comm) removeUnexpected(u *unexp) {
	c.sh.Busy--
	c.qs.Unexp--
	c.peers[u.hdr.src].unexp.remove(u)
}

// post queues a receive that found no unexpected message.
func (c *Comm) post(r *Request) {
	r.postSeq = c.postSeq
	c.postSeq++
	c.sh.Busy++
	c.qs.Posted++
	if r.Peer == AnySource {
		c.wild.push(r)
	} else {
		c.peers[r.Peer].posted.push(r)
	}
}

// unpost removes a posted receive (cancel); false when it was already matched.
func (c *Comm) unpost(r *Request) bool {
	q := &c.wild
	if r.Peer != AnySource {
		q = &c.peers[r.Peer].posted
	}
	for x := q.head; x != nil; x = x.next {
		if x == r {
			q.remove(r)
			c.sh.Busy--
			c.qs.Posted--
			return true
		}
	}
	return false
}
