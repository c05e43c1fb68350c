package coll

import "unsafe"

// Hierarchical (node-aware) collectives for communicators that span nodes:
// the ranks of a node meet among themselves and one leader per node talks
// over the network, so each byte crosses between nodes once per node rather
// than once per rank. They are composed of the flat algorithms run on
// groups (builder.peers maps a group's ranks to the communicator's): a node,
// and the leaders. Large broadcasts and allreduces run as a pipeline (a
// chain, a ring) through all ranks in node order instead, where segments
// cross between nodes while earlier ones spread within them. (Staggering
// per-segment hierarchical schedules by a round was tried: with round-based
// schedules it deadlocks, a rank's round waiting on a peer that waits on a
// later round of the first.)

// Nodes groups a communicator's ranks by node.
type Nodes struct {
	Of    []int   // rank -> node index (nodes numbered by their lowest rank)
	Ranks [][]int // node -> its ranks, ascending
	// Contig: every node's ranks are consecutive, so partial results per
	// node and then across nodes keep rank order (non-commutative ops).
	Contig bool
}

// GroupNodes groups ranks by node id; nil when a hierarchy would change
// nothing: one node, or one rank per node.
func GroupNodes(ids []int) *Nodes {
	index := map[int]int{}
	h := &Nodes{Of: make([]int, len(ids)), Contig: true}
	for r, id := range ids {
		k, ok := index[id]
		if !ok {
			k = len(h.Ranks)
			index[id] = k
			h.Ranks = append(h.Ranks, nil)
		}
		if rs := h.Ranks[k]; len(rs) > 0 && rs[len(rs)-1] != r-1 {
			h.Contig = false
		}
		h.Of[r] = k
		h.Ranks[k] = append(h.Ranks[k], r)
	}
	if len(h.Ranks) <= 1 || len(h.Ranks) == len(ids) {
		return nil
	}
	return h
}

// FakeNodes places size ranks on k virtual nodes, by block (rank r on node
// r*k/size) or cyclically (r%k): GOMPI_COLL_FAKE_NODES, for testing the
// hierarchy on one machine.
func FakeNodes(size, k int, cyclic bool) []int {
	ids := make([]int, size)
	for r := range ids {
		if cyclic {
			ids[r] = r % k
		} else {
			ids[r] = r * k / size
		}
	}
	return ids
}

// Count is the number of nodes.
func (h *Nodes) Count() int { return len(h.Ranks) }

// Ordered reports whether a reduction with op commutativity commute keeps
// MPI's order through the hierarchy.
func (h *Nodes) Ordered(commute bool) bool { return commute || h.Contig }

// leaders is one rank per node, in node order: root on root's node (root <
// 0: none), the lowest rank elsewhere.
func (h *Nodes) leaders(root int) []int {
	l := make([]int, len(h.Ranks))
	for n, rs := range h.Ranks {
		l[n] = rs[0]
	}
	if root >= 0 {
		l[h.Of[root]] = root
	}
	return l
}

// mine is me's node, me's index in it and its leader's index (root's node:
// root, else the lowest rank).
func (h *Nodes) mine(me, root int) (node []int, li, lead int) {
	node = h.Ranks[h.Of[me]]
	li = index(node, me)
	if root >= 0 && h.Of[root] == h.Of[me] {
		lead = index(node, root)
	}
	return node, li, lead
}

func index(g []int, r int) int {
	for i, x := range g {
		if x == r {
			return i
		}
	}
	return -1
}

// on adds the steps fn builds with ranks of group g, in rounds of their own.
func (b *builder) on(g []int, fn func()) {
	b.round()
	b.peers = g
	fn()
	b.peers = nil
	b.round()
}

// HierBarrier: the node reports to its leader, the leaders run a
// dissemination barrier, each leader releases its node.
func HierBarrier(h *Nodes, me int) *Schedule {
	b := newBuilder(nil)
	b.keepZero = true
	node, li, _ := h.mine(me, -1)
	fan := func(in bool) {
		b.on(node, func() {
			for i := 1; i < len(node); i++ {
				switch {
				case li == 0 && in:
					b.recv(i, nil, 0)
				case li == 0:
					b.send(i, nil, 0)
				}
			}
			switch {
			case li != 0 && in:
				b.send(0, nil, 0)
			case li != 0:
				b.recv(0, nil, 0)
			}
		})
	}
	fan(true)
	if li == 0 {
		lead := h.leaders(-1)
		b.on(lead, func() { barrierSteps(b, len(lead), h.Of[me], BarrierDissemination) })
	}
	fan(false)
	return b.done()
}

// byNode is every rank, node after node, first's node first and first at
// its head: a chain or ring in this order crosses between nodes once per
// node.
func (h *Nodes) byNode(first int) []int {
	order := []int{first}
	home := h.Of[first]
	for _, r := range h.Ranks[home] {
		if r != first {
			order = append(order, r)
		}
	}
	for m, rs := range h.Ranks {
		if m != home {
			order = append(order, rs...)
		}
	}
	return order
}

// pipelines says whether n bytes go down a chain or ring of all ranks in
// node order rather than through the leaders: from 4 segments of seg bytes
// (seg <= 0: never). Segments then move between nodes while the previous
// ones move within them.
func pipelines(n, seg int) bool { return seg > 0 && n >= 4*seg }

// HierBcast broadcasts n bytes at buf from root: among the leaders with alg
// (chosen for the number of nodes), then in each node down a binomial tree;
// large messages go down a chain in node order in segments of seg bytes.
func HierBcast(h *Nodes, me, root int, buf unsafe.Pointer, n int, alg string, seg int) *Schedule {
	b := newBuilder(nil)
	if n == 0 {
		return b.done()
	}
	if pipelines(n, seg) {
		order := h.byNode(root)
		b.on(order, func() { bcastChain(b, len(order), index(order, me), 0, buf, n, seg) })
		return b.done()
	}
	lead := h.leaders(root)
	node, li, ll := h.mine(me, root)
	if li == ll {
		b.on(lead, func() { bcastSteps(b, len(lead), h.Of[me], h.Of[root], buf, n, alg, 32<<10) })
	}
	b.on(node, func() { bcastSteps(b, len(node), li, ll, buf, n, BcastBinomial, 0) })
	return b.done()
}

// hierReduceSteps reduces d to root: within each node to its leader, then
// among the leaders to root.
func hierReduceSteps(b *builder, h *Nodes, me, root int, d Data) {
	lead := h.leaders(root)
	node, li, ll := h.mine(me, root)
	w := d.Rbuf
	if me != root && li == ll {
		w = b.scratch(d.bytes())
	}
	dn := d
	dn.Rbuf = w
	b.on(node, func() { reduceBinomial(b, len(node), li, ll, dn) })
	if li == ll {
		dl := d
		dl.Sbuf = w
		b.on(lead, func() { reduceBinomial(b, len(lead), h.Of[me], h.Of[root], dl) })
	}
}

// HierReduce reduces to root through the leaders; nil when the op's order
// cannot be kept (non-commutative, nodes not consecutive ranks).
func HierReduce(h *Nodes, me, root int, d Data) *Schedule {
	if !h.Ordered(d.Commute) {
		return nil
	}
	b := newBuilder(d.Fn)
	if d.bytes() > 0 {
		hierReduceSteps(b, h, me, root, d)
	}
	return b.done()
}

// HierAllreduce reduces within each node to its leader, runs alg among the
// leaders and broadcasts within each node; a large vector of a commutative
// op goes round a ring of all ranks in node order instead (pipelined: seg is
// the size from which a vector counts as 4 segments' worth). nil when the
// op's order cannot be kept.
func HierAllreduce(h *Nodes, me int, d Data, alg string, seg int) *Schedule {
	if !h.Ordered(d.Commute) {
		return nil
	}
	b := newBuilder(d.Fn)
	if d.bytes() == 0 {
		return b.done()
	}
	if d.Commute && pipelines(d.bytes(), seg) && d.Count >= len(h.Of) {
		order := h.byNode(0)
		b.on(order, func() { allreduceSteps(b, len(order), index(order, me), d, AllreduceRing) })
		return b.done()
	}
	lead := h.leaders(-1)
	node, li, _ := h.mine(me, -1)
	b.on(node, func() { reduceBinomial(b, len(node), li, 0, d) })
	if li == 0 {
		dl := d
		dl.Sbuf = d.Rbuf
		b.on(lead, func() { allreduceSteps(b, len(lead), h.Of[me], dl, alg) })
	}
	b.on(node, func() { bcastSteps(b, len(node), li, 0, d.Rbuf, d.bytes(), BcastBinomial, 0) })
	return b.done()
}

// packOut is the blocks of ranks rs of bl as one contiguous message: bl
// itself when they lie back to back in that order, else scratch the open
// round's copies fill (the next message then starts a round after them).
func (b *builder) packOut(bl Blocks, rs []int) (unsafe.Pointer, int) {
	p, n, direct := bl.run(rs)
	if direct || n == 0 {
		return p, n
	}
	tmp := b.scratch(n)
	o := 0
	for _, r := range rs {
		q, k := bl.At(r)
		b.copy(add(tmp, o), q, k)
		o += k
	}
	return tmp, n
}

// unpackIn is where to receive the blocks of ranks rs of bl as one message,
// and the copies to add after the receive (none when they lie back to back).
func (b *builder) unpackIn(bl Blocks, rs []int) (unsafe.Pointer, int, func()) {
	p, n, direct := bl.run(rs)
	if direct || n == 0 {
		return p, n, func() {}
	}
	tmp := b.scratch(n)
	return tmp, n, func() {
		o := 0
		for _, r := range rs {
			q, k := bl.At(r)
			b.copy(q, add(tmp, o), k)
			o += k
		}
	}
}

// run is the address and total size of blocks rs of bl, and whether they
// lie back to back in that order.
func (bl Blocks) run(rs []int) (unsafe.Pointer, int, bool) {
	n, direct := 0, true
	var start unsafe.Pointer
	next := -1
	for _, r := range rs {
		k := bl.Count[r]
		if k == 0 {
			continue
		}
		if next >= 0 && bl.Displ[r] != next {
			direct = false
		}
		if start == nil {
			start = add(bl.Buf, bl.Displ[r])
		}
		next = bl.Displ[r] + k
		n += k
	}
	return start, n, direct
}

// counted is a layout of given block sizes only (no buffer): the sizes every
// rank knows.
func counted(counts []int, rs []int) Blocks {
	bl := Blocks{Count: make([]int, len(counts)), Displ: make([]int, len(counts))}
	for _, r := range rs {
		bl.Count[r] = counts[r]
	}
	return bl
}

func total(counts []int, rs []int) int {
	n := 0
	for _, r := range rs {
		n += counts[r]
	}
	return n
}

// HierGather gathers n bytes per rank into root's blocks rb: each node's
// leader collects its node's blocks and sends them to root in one message.
// sbuf == nil at root: in place.
func HierGather(h *Nodes, me, root int, sbuf unsafe.Pointer, n int, rb Blocks) *Schedule {
	b := newBuilder(nil)
	lead := h.leaders(root)
	node, li, ll := h.mine(me, root)
	counts := make([]int, len(h.Of))
	for i := range counts {
		counts[i] = n
	}
	var local Blocks // where the leader collects its node's blocks
	if li == ll {
		if me == root {
			local = rb
		} else {
			local = Regular(b.scratch(n*len(node)), len(node), n)
			local = reindex(local, node, len(h.Of))
		}
	}
	b.on(node, func() {
		if li != ll {
			b.send(ll, sbuf, n)
			return
		}
		for i, r := range node {
			if i != li {
				p, k := local.At(r)
				b.recv(i, p, k)
			}
		}
		if sbuf != nil {
			p, _ := local.At(me)
			b.copyEarly(p, sbuf, n)
		}
	})
	if li != ll {
		return b.done()
	}
	b.on(lead, func() {
		if me != root {
			p, k, _ := local.run(node)
			b.send(h.Of[root], p, k)
			return
		}
		var after []func()
		for m, rs := range h.Ranks {
			if m != h.Of[root] {
				p, k, fin := b.unpackIn(rb, rs)
				b.recv(m, p, k)
				after = append(after, fin)
			}
		}
		for _, f := range after {
			f()
		}
	})
	return b.done()
}

// reindex lays a node's blocks (consecutive in bl by node index) out by
// communicator rank.
func reindex(bl Blocks, node []int, size int) Blocks {
	out := Blocks{Buf: bl.Buf, Count: make([]int, size), Displ: make([]int, size)}
	for i, r := range node {
		out.Count[r], out.Displ[r] = bl.Count[i], bl.Displ[i]
	}
	return out
}

// hierScatterSteps sends root's blocks sb (counts[r] bytes for rank r, known
// everywhere) into rbuf on every rank: to each node's leader in one message,
// then to the node's ranks. rbuf == nil at root: in place.
func hierScatterSteps(b *builder, h *Nodes, me, root int, sb Blocks, counts []int, rbuf unsafe.Pointer) {
	lead := h.leaders(root)
	node, li, ll := h.mine(me, root)
	local := sb
	if li == ll && me != root {
		local = counted(counts, node)
		o := 0
		for _, r := range node {
			local.Displ[r] = o
			o += counts[r]
		}
		local.Buf = b.scratch(o)
	}
	if li == ll {
		b.on(lead, func() {
			if me != root {
				p, k, _ := local.run(node)
				b.recv(h.Of[root], p, k)
				return
			}
			type msg struct {
				p unsafe.Pointer
				k int
			}
			out := make([]msg, len(h.Ranks))
			for m, rs := range h.Ranks {
				if m != h.Of[root] {
					out[m].p, out[m].k = b.packOut(sb, rs)
				}
			}
			for m := range h.Ranks {
				if m != h.Of[root] {
					b.send(m, out[m].p, out[m].k)
				}
			}
		})
	}
	b.on(node, func() {
		if li != ll {
			b.recv(ll, rbuf, counts[me])
			return
		}
		for i, r := range node {
			if i != li {
				p, k := local.At(r)
				b.send(i, p, k)
			}
		}
		if rbuf != nil {
			p, k := local.At(me)
			b.copy(rbuf, p, k)
		}
	})
}

// HierScatter scatters root's blocks of n bytes (sb) into n bytes at rbuf
// (nil at root: in place) through the node leaders.
func HierScatter(h *Nodes, me, root int, sb Blocks, rbuf unsafe.Pointer, n int) *Schedule {
	b := newBuilder(nil)
	counts := make([]int, len(h.Of))
	for i := range counts {
		counts[i] = n
	}
	hierScatterSteps(b, h, me, root, sb, counts, rbuf)
	return b.done()
}

// HierAllgather gathers each node's blocks at its leader, exchanges them
// between the leaders (one message per pair of nodes) and sends each rank
// the blocks it lacks in one message. sbuf == nil: in place. Only the
// counts of rb must agree across ranks (the displacements are local).
func HierAllgather(h *Nodes, me int, sbuf unsafe.Pointer, n int, rb Blocks) *Schedule {
	b := newBuilder(nil)
	node, li, _ := h.mine(me, -1)
	own, _ := rb.At(me)
	first := own
	if sbuf != nil {
		first = sbuf
	}
	b.on(node, func() {
		if li != 0 {
			b.send(0, first, n)
		} else {
			for i, r := range node[1:] {
				p, k := rb.At(r)
				b.recv(i+1, p, k)
			}
		}
		if sbuf != nil {
			b.copyEarly(own, sbuf, n)
		}
	})
	if li == 0 {
		lead := h.leaders(-1)
		b.on(lead, func() {
			p, k := b.packOut(rb, node) // its copies, if any, run first
			var after []func()
			for m, rs := range h.Ranks {
				if m != h.Of[me] {
					q, kq, fin := b.unpackIn(rb, rs)
					b.recv(m, q, kq)
					b.send(m, p, k)
					after = append(after, fin)
				}
			}
			for _, f := range after {
				f()
			}
		})
	}
	// each rank gets every block but its own
	others := func(r int) []int {
		rs := make([]int, 0, len(h.Of)-1)
		for q := range h.Of {
			if q != r {
				rs = append(rs, q)
			}
		}
		return rs
	}
	b.on(node, func() {
		if li != 0 {
			p, k, fin := b.unpackIn(rb, others(me))
			b.recv(0, p, k)
			fin()
			return
		}
		type msg struct {
			p unsafe.Pointer
			k int
		}
		out := make([]msg, len(node))
		for i, r := range node[1:] {
			out[i+1].p, out[i+1].k = b.packOut(rb, others(r))
		}
		for i := 1; i < len(node); i++ {
			b.send(i, out[i].p, out[i].k)
		}
	})
	return b.done()
}

// HierReduceScatter reduces the vector (sum of counts elements) to rank 0
// through the leaders and scatters the blocks back through them; nil when
// the op's order cannot be kept. Sbuf == nil: in place (the input in Rbuf).
func HierReduceScatter(h *Nodes, me int, d Data, counts []int) *Schedule {
	if !h.Ordered(d.Commute) {
		return nil
	}
	b := newBuilder(d.Fn)
	bytes, off := make([]int, len(counts)), make([]int, len(counts))
	tot := 0
	for i, c := range counts {
		bytes[i], off[i] = c*d.Ext, tot
		tot += c * d.Ext
	}
	if tot == 0 {
		return b.done()
	}
	in := d.Sbuf
	if in == nil {
		in = d.Rbuf
	}
	var full unsafe.Pointer
	if me == 0 {
		full = b.scratch(tot)
	}
	dd := d
	dd.Sbuf, dd.Rbuf, dd.Count = in, full, tot/d.Ext
	hierReduceSteps(b, h, me, 0, dd)
	hierScatterSteps(b, h, me, 0, Blocks{Buf: full, Count: bytes, Displ: off}, bytes, d.Rbuf)
	return b.done()
}

// HierAlltoallMax is the largest block (bytes) a regular alltoall across
// nodes aggregates at the node leaders: the number of messages between
// nodes drops from ranks² to nodes², at the price of copies at the leaders,
// which pays for small blocks only.
const HierAlltoallMax = 256

// HierAlltoall exchanges blocks of n bytes (sb's block r to rank r, rank r's
// into rb's block r) through the node leaders: each rank hands its whole
// send buffer to its leader, the leaders swap what each node sends each
// other node in one message per pair of nodes, and each leader hands each
// rank of its node everything it receives.
func HierAlltoall(h *Nodes, me int, sb, rb Blocks, n int) *Schedule {
	b := newBuilder(nil)
	size := len(h.Of)
	node, li, _ := h.mine(me, -1)
	all := make([]int, size)
	for r := range all {
		all[r] = r
	}
	if n == 0 {
		return b.done()
	}
	if li != 0 {
		b.on(node, func() {
			p, k := b.packOut(sb, all)
			b.send(0, p, k)
		})
		b.on(node, func() {
			p, k, fin := b.unpackIn(rb, all)
			b.recv(0, p, k)
			fin()
		})
		return b.done()
	}
	ln := len(node)
	// g: what my node's ranks send, [local i][rank r]
	g := b.scratch(ln * size * n)
	gAt := func(i, r int) unsafe.Pointer { return add(g, (i*size+r)*n) }
	b.on(node, func() {
		for i := 1; i < ln; i++ {
			b.recv(i, gAt(i, 0), size*n)
		}
		for r := range all {
			p, _ := sb.At(r)
			b.copy(gAt(0, r), p, n)
		}
	})
	// u[m]: what node m sends my node, [its local i][my local j]
	me2 := h.Of[me]
	u := make([]unsafe.Pointer, len(h.Ranks))
	lead := h.leaders(-1)
	b.on(lead, func() {
		out := make([]unsafe.Pointer, len(h.Ranks))
		for m, rs := range h.Ranks {
			if m == me2 {
				continue
			}
			out[m] = b.scratch(ln * len(rs) * n)
			u[m] = b.scratch(len(rs) * ln * n)
			for i := 0; i < ln; i++ {
				for j, r := range rs {
					b.copy(add(out[m], (i*len(rs)+j)*n), gAt(i, r), n)
				}
			}
		}
		for m, rs := range h.Ranks {
			if m != me2 {
				b.recv(m, u[m], len(rs)*ln*n)
				b.send(m, out[m], ln*len(rs)*n)
			}
		}
	})
	// what rank s sent my local j
	from := func(s, j int) unsafe.Pointer {
		m := h.Of[s]
		i := index(h.Ranks[m], s)
		if m == me2 {
			return gAt(i, node[j])
		}
		return add(u[m], (i*ln+j)*n)
	}
	b.on(node, func() {
		outs := make([]unsafe.Pointer, ln)
		for j := 1; j < ln; j++ {
			outs[j] = b.scratch(size * n)
			for s := range all {
				b.copy(add(outs[j], s*n), from(s, j), n)
			}
		}
		for s := range all {
			p, _ := rb.At(s)
			b.copy(p, from(s, 0), n)
		}
		for j := 1; j < ln; j++ {
			b.send(j, outs[j], size*n)
		}
	})
	return b.done()
}
