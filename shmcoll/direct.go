package shmcoll

import (
	"sync/atomic"
	"unsafe"

	"gompi/mem"
)

// Direct gives a rank the other ranks' memory, for collectives too big for
// the slots: instead of a copy into a slot and one out of it, a rank reads
// (or folds from, or writes) another rank's buffer itself. Each rank posts
// its buffers' addresses with its arrival; a collective ends in a barrier
// or, for alltoall and allgather, on a count of the copies from and to the
// caller's buffers (pushBlocks), so nobody touches a buffer after its owner
// returned.
type Direct struct {
	// At is where rank r's [addr, addr+n) lies in this process, nil when
	// it cannot be addressed here (Read and Write then copy).
	At func(r int, addr uintptr, n int) unsafe.Pointer
	// Read copies rank r's [addr, addr+n) to dst; Write copies src there.
	Read  func(r int, dst unsafe.Pointer, addr uintptr, n int) bool
	Write func(r int, addr uintptr, src unsafe.Pointer, n int) bool

	addrs   [MaxGroup]posted // each rank's posted send and receive buffers
	stream  bool             // this call's copies bypass the cache (pushBlocks)
	send    unsafe.Pointer   // this rank's own, as posted
	scratch []byte
	bad     int // first rank whose memory could not be reached, -1: none
}

// posted is what a call's arrival carries: a rank's send and receive
// buffer addresses (16 bytes, within InlineMax).
type posted = [2]uintptr

// postAddrs starts call s with send and recv's addresses posted.
func (g *Group) postAddrs(send, recv unsafe.Pointer, d *Direct) uint64 {
	a := posted{uintptr(send), uintptr(recv)}
	d.bad, d.send, d.stream = -1, send, false
	return g.post(unsafe.Pointer(&a), int(unsafe.Sizeof(a)), true)
}

// addrsOf copies rank r's posted addresses of call s.
func (g *Group) addrsOf(r int, s uint64, d *Direct) {
	d.addrs[r] = *(*posted)(g.of(r, s, int(unsafe.Sizeof(posted{})), true))
}

// postAll posts send and recv's addresses and collects every rank's, once
// all have arrived.
func (g *Group) postAll(send, recv unsafe.Pointer, d *Direct) {
	s := g.postAddrs(send, recv, d)
	g.waitAll(s)
	for r := range g.locals {
		g.addrsOf(r, s, d)
	}
}

// fail notes that rank r's memory could not be reached.
func (d *Direct) fail(r int) {
	if d.bad < 0 {
		d.bad = r
	}
}

// scratchOf returns i-th n-byte piece of the scratch buffer.
func (d *Direct) scratchOf(i, n int) unsafe.Pointer {
	if len(d.scratch) < 3*n {
		d.scratch = make([]byte, 3*n)
	}
	return unsafe.Pointer(&d.scratch[i*n])
}

// operand returns n bytes of rank r's send buffer from byte off, addressed
// in place or read into scratch piece i. The caller's own is where it
// lies: At knows other processes' memory only, and Read would copy it with
// a system call (2 ranks bound, allreduce of 16 KiB: 6.8 -> 2.4 us).
func (g *Group) operand(r, off, n, i int, d *Direct) unsafe.Pointer {
	if r == g.me {
		return unsafe.Add(d.send, off)
	}
	addr := d.addrs[r][0] + uintptr(off)
	if p := d.At(r, addr, n); p != nil {
		return p
	}
	p := d.scratchOf(i, n)
	if !d.Read(r, p, addr, n) {
		d.fail(r)
	}
	return p
}

// foldDirect computes the reduction, in rank order, of count elements (n
// bytes) from byte off of every rank's send buffer into out, or into
// scratch when out is nil (out is one of the operands, or lies in another
// process, whose lines each operand's pass would cross again), and returns
// where the result is.
func (g *Group) foldDirect(out unsafe.Pointer, off, count, n int, f Fold, d *Direct) unsafe.Pointer {
	if out == nil {
		out = d.scratchOf(2, n)
	}
	last := len(g.locals) - 1
	next := last - 1
	if f.Into == nil || !f.Into(g.operand(next, off, n, 0, d), g.operand(last, off, n, 1, d), out, count) {
		d.copy(out, g.operand(last, off, n, 1, d), n)
		next = last
	}
	for r := next - 1; r >= 0; r-- {
		f.Op(g.operand(r, off, n, 0, d), out, count)
	}
	return out
}

// inPlaceOr is p, or nil when the caller's send buffer is its receive
// buffer (foldDirect then folds in scratch).
func inPlaceOr(send, recv, p unsafe.Pointer) unsafe.Pointer {
	if send == recv {
		return nil
	}
	return p
}

// AllreduceDirect is Allreduce for data too big for the slots: each rank
// folds its block (Block) of every rank's send buffer and writes the result
// into every rank's recv, then arrives; once all have arrived every recv is
// complete and nobody reads a send buffer any more (two synchronizations).
// send may be recv: a rank's block is read by its folder only, who writes
// it back only after the fold. It returns the first rank whose memory could
// not be reached, -1 when all could (the calls run to their end either way).
func (g *Group) AllreduceDirect(send, recv unsafe.Pointer, count, size int, f Fold, d *Direct) (bad int) {
	g.stats[AlgDirect][CountAllreduce]++
	p := len(g.locals)
	g.postAll(send, recv, d)
	if first, k := Block(count, p, g.me); k > 0 {
		off, n := first*size, k*size
		dst := unsafe.Add(recv, off)
		out := g.foldDirect(inPlaceOr(send, recv, dst), off, k, n, f, d)
		if out != dst { // in place: the fold read this block till its end
			d.copy(dst, out, n)
		}
		for r := range p {
			if r != g.me {
				g.put(r, d.addrs[r][1]+uintptr(off), out, n, d)
			}
		}
	}
	g.barrier()
	return d.bad
}

// put writes n bytes at src to rank r's addr: in place where r's memory is
// addressable here, else through Write.
func (g *Group) put(r int, addr uintptr, src unsafe.Pointer, n int, d *Direct) {
	if p := d.At(r, addr, n); p != nil {
		d.copy(p, src, n)
	} else if !d.Write(r, addr, src, n) {
		d.fail(r)
	}
}

// ReduceDirect is Reduce for data too big for the slots: each rank folds
// its block of every rank's send buffer and writes it into the root's
// recv, so all ranks share the folding. The root's send may be its recv.
func (g *Group) ReduceDirect(send, recv unsafe.Pointer, count, size, root int, f Fold, d *Direct) (bad int) {
	g.stats[AlgDirect][CountReduce]++
	p := len(g.locals)
	g.postAll(send, recv, d)
	if first, k := Block(count, p, g.me); k > 0 {
		off, n := first*size, k*size
		if g.me != root { // in scratch, so the result crosses once
			g.put(root, d.addrs[root][1]+uintptr(off), g.foldDirect(nil, off, k, n, f, d), n, d)
		} else {
			dst := unsafe.Add(recv, off)
			if out := g.foldDirect(inPlaceOr(send, recv, dst), off, k, n, f, d); out != dst {
				d.copy(dst, out, n)
			}
		}
	}
	g.barrier()
	return d.bad
}

// AlltoallDirect is Alltoall for blocks too big for a slot: every rank
// writes each block straight into its addressee's recv as soon as that rank
// has arrived, one copy per block, where slots or a rendezvous take two
// copies or wait for each peer in turn. Writing measured at least as fast
// as reading from the sender (4 ranks on 2 cores, 1 MiB blocks 235-250 ->
// 187-198 us; the same from 16 to 256 KiB). send and recv must not overlap.
// It returns as AllreduceDirect does.
func (g *Group) AlltoallDirect(send, recv unsafe.Pointer, n int, d *Direct) (bad int) {
	g.stats[AlgDirect][CountAlltoall]++
	return g.pushBlocks(send, recv, n, n, d)
}

// copy copies n bytes as the call decided (stream).
func (d *Direct) copy(dst, src unsafe.Pointer, n int) {
	if d.stream {
		copy(bytes(dst, n), bytes(src, n))
	} else {
		mem.Copy(dst, src, n)
	}
}

// AllgatherDirect is Allgather for blocks too big for the slots, as
// AlltoallDirect: every rank writes its block of n bytes at send into every
// rank's recv. send may be the caller's own block of recv (in place).
func (g *Group) AllgatherDirect(send, recv unsafe.Pointer, n int, d *Direct) (bad int) {
	g.stats[AlgDirect][CountAllgather]++
	return g.pushBlocks(send, recv, n, 0, d)
}

// pushBlocks writes block j of every rank i's send (n bytes at j*stride)
// into rank j's recv at i's place, and returns once every copy from or to
// the caller's buffers is done. With a core per rank each rank writes its
// own blocks as their addressees arrive and counts them on the addressee's
// done word, which returns once all have landed (no closing barrier).
// With processes outnumbering cores the copies are claimed (shareBlocks),
// but those that bypass the cache are pushed and end in a barrier.
func (g *Group) pushBlocks(send, recv unsafe.Pointer, n, stride int, d *Direct) (bad int) {
	// Past what the caches keep (mem.Cacheable) in all, the copies bypass
	// the cache, as Go's copy does from 1 MiB; else mem keeps them cached.
	// 4 ranks on 2 cores, alltoall of 1 MiB blocks (16 MiB written per
	// call): 264 us through the cache, 195-211 streamed; 2 ranks bound,
	// allgather of 1 MiB blocks (4 MiB), fast phase: 46 and 65 (slow phase:
	// 49 and 42).
	p := len(g.locals)
	done := g.a.done(g.locals[g.me])
	atomic.StoreUint32(done, 0) // before arriving: nobody counts here before
	s := g.postAddrs(send, recv, d)
	d.stream = n*p*p >= mem.Cacheable
	own := g.me * n
	if mine := unsafe.Add(send, g.me*stride); mine != unsafe.Add(recv, own) {
		d.copy(unsafe.Add(recv, own), mine, n)
	}
	if g.CPU != nil && !d.stream {
		g.shareBlocks(s, send, recv, n, stride, d)
		return d.bad
	}
	g.eachArrived(s, func(r int) {
		g.addrsOf(r, s, d)
		g.put(r, d.addrs[r][1]+uintptr(own), unsafe.Add(send, r*stride), n, d)
		atomic.AddUint32(g.a.done(g.locals[r]), 1)
	})
	if g.CPU != nil {
		// A wait on the count cannot tell whether a rank that still owes
		// a copy is switched out on this CPU; one that has not reached the
		// barrier is behind, and the wait gives it the core (4 ranks on 2
		// cores, 1 MiB blocks, slow phase: 522 us on the count, 380 here).
		g.barrier()
		return d.bad
	}
	var w waiting
	for atomic.LoadUint32(done) != uint32(p-1) {
		g.idle(&w)
	}
	return d.bad
}

// claims is one call's view of the copies its ranks claim (shareBlocks,
// BcastDirect): which ranks have arrived, with their posted addresses.
type claims struct {
	g     *Group
	s     uint64
	d     *Direct
	known uint64 // ranks whose addresses d.addrs holds
}

// startClaims begins claiming the copies of call s, whose own buffers
// send and recv the caller posted.
func (g *Group) startClaims(s uint64, send, recv unsafe.Pointer, d *Direct) claims {
	d.addrs[g.me] = posted{uintptr(send), uintptr(recv)}
	return claims{g: g, s: s, d: d, known: 1 << g.me}
}

// ready tells whether rank r has arrived at the call, fetching its
// addresses the first time.
func (c *claims) ready(r int) bool {
	if c.known&(1<<r) == 0 {
		if !c.g.arrived(r, c.s) {
			return false
		}
		c.g.addrsOf(r, c.s, c.d)
		c.known |= 1 << r
	}
	return true
}

// claim takes the copy from rank i's memory into rank j's of this call,
// unless someone did. The tag is j's counter in this call, which only
// grows: a rank still scanning an earlier call's copies cannot take it.
func (c *claims) claim(i, j int) bool {
	g := c.g
	tag := g.bases[j] + c.s + 1
	w := g.a.claim(g.locals[i], g.locals[j])
	old := atomic.LoadUint64(w)
	return old < tag && atomic.CompareAndSwapUint64(w, old, tag)
}

// shareBlocks is pushBlocks when processes outnumber cores: each copy
// (block of rank i for rank j) is a task that either i or j claims once
// both have arrived, whichever runs first. Ranks sharing a CPU never run at
// once; if each copied only its own blocks, a rank that arrived first would
// have to run again in the same call to write into those arriving after
// it, and they would wait for that: two process switches per core and call
// (4 ranks on 2 cores), one here, where a rank finds its call complete the
// next time it runs. Fast phase, medians of 7 alternating runs: alltoall
// of 64 KiB blocks 39 -> 33 us, 256 KiB 110 -> 97, allgather of 256 KiB
// 102 -> 92. Letting a rank also take the copies of ranks waiting on its
// CPU (neither end its own) was slower (33 -> 35, 97 -> 111), and so were
// claims for streamed copies (allgather of 1 MiB blocks 506 -> 563: a few
// long tasks split unevenly between the cores), which push as with a core
// per rank.
func (g *Group) shareBlocks(s uint64, send, recv unsafe.Pointer, n, stride int, d *Direct) {
	p := len(g.locals)
	done := g.a.done(g.locals[g.me])
	c := g.startClaims(s, send, recv, d)
	// task copies block (i, j) if both have arrived and nobody claimed it.
	task := func(i, j int) bool {
		if i == j || !c.ready(i) || !c.ready(j) || !c.claim(i, j) {
			return false
		}
		g.copyBlock(i, j, send, recv, n, stride, d)
		atomic.AddUint32(g.a.done(g.locals[i]), 1)
		atomic.AddUint32(g.a.done(g.locals[j]), 1)
		return true
	}
	want := uint32(2 * (p - 1))
	var w waiting
	for atomic.LoadUint32(done) != want {
		did := false
		for r := range p {
			did = task(g.me, r) || did // its own block first: in its cache
			did = task(r, g.me) || did
		}
		if !did {
			g.idle(&w)
		}
	}
}

// copyBlock copies rank i's block for rank j (n bytes at j*stride of i's
// send) to j's recv at i*n, from and to wherever they are reachable (send
// and recv: the caller's).
func (g *Group) copyBlock(i, j int, send, recv unsafe.Pointer, n, stride int, d *Direct) {
	src := d.addrs[i][0] + uintptr(j*stride)
	dst := d.addrs[j][1] + uintptr(i*n)
	var from, to unsafe.Pointer
	if i == g.me {
		from = unsafe.Add(send, j*stride)
	} else {
		from = d.At(i, src, n)
	}
	if j == g.me {
		to = unsafe.Add(recv, i*n)
	} else {
		to = d.At(j, dst, n)
	}
	switch {
	case from != nil && to != nil:
		d.copy(to, from, n)
	case from != nil:
		if !d.Write(j, dst, from, n) {
			d.fail(j)
		}
	case to != nil:
		if !d.Read(i, to, src, n) {
			d.fail(i)
		}
	default:
		tmp := d.scratchOf(0, n)
		if !d.Read(i, tmp, src, n) {
			d.fail(i)
		} else if !d.Write(j, dst, tmp, n) {
			d.fail(j)
		}
	}
}

// ReduceScatterDirect is ReduceScatter for vectors too big for the slots:
// each rank folds its block (counts[r] elements of size bytes for rank r,
// blocks back to back) straight from every rank's send buffer. In place
// (send is recv) the others read the caller's vector till the end, so the
// result waits in scratch until the closing barrier.
func (g *Group) ReduceScatterDirect(send, recv unsafe.Pointer, counts []int, size int, f Fold, d *Direct) (bad int) {
	g.stats[AlgDirect][CountReduceScatter]++
	g.postAll(send, recv, d)
	off := 0
	for _, k := range counts[:g.me] {
		off += k * size
	}
	k := counts[g.me]
	n := k * size
	out := recv
	if n > 0 {
		out = g.foldDirect(inPlaceOr(send, recv, recv), off, k, n, f, d)
	}
	g.barrier()
	if out != recv {
		d.copy(recv, out, n)
	}
	return d.bad
}

// BcastDirect is Bcast for data too big for the slots: the n bytes are cut
// into one piece of whole cache lines per rank, and rank q copies its piece
// into every reader k: first into itself from the root, then from there
// into the others as they arrive, so each reader's bytes are written once
// but by all ranks' cores (the root's included), not by the reader alone.
// Each copy (q, k) is a task claimed as in shareBlocks, by q or by a rank
// running on the CPU q was last seen on (q is switched out then): a rank
// that arrived early need not run again in the same call, and the call
// ends on counts of the copies done (every rank waits for the copies into
// and out of its buffer, the root for all) instead of a barrier.
func (g *Group) BcastDirect(buf unsafe.Pointer, n, root int, d *Direct) (bad int) {
	g.stats[AlgDirect][CountBcast]++
	p := len(g.locals)
	done := g.a.done(g.locals[g.me])
	atomic.StoreUint32(done, 0) // before arriving: nobody counts here before
	s := g.postAddrs(buf, buf, d)
	lines := (n + lineSize - 1) / lineSize
	piece := func(q int) (off, k int) {
		first, l := Block(lines, p, q)
		off = first * lineSize
		return off, clamp(l*lineSize, n-off)
	}
	c := g.startClaims(s, buf, buf, d)
	mineDone := false // this reader's own piece is in its buffer
	task := func(q, k int) bool {
		off, m := piece(q)
		// q too: its count is of this call only once it has arrived.
		if m == 0 || k == root || !c.ready(root) || !c.ready(k) || !c.ready(q) || !c.claim(q, k) {
			return false
		}
		switch {
		case k == g.me:
			g.get(root, unsafe.Add(buf, off), d.addrs[root][1]+uintptr(off), m, d)
			mineDone = mineDone || q == g.me
		case g.me == root || q == g.me && mineDone:
			g.put(k, d.addrs[k][1]+uintptr(off), unsafe.Add(buf, off), m, d)
		default: // from the root to k, through this process
			from, to := d.addrs[root][1]+uintptr(off), d.addrs[k][1]+uintptr(off)
			if src, dst := d.At(root, from, m), d.At(k, to, m); src != nil && dst != nil {
				d.copy(dst, src, m)
			} else {
				tmp := d.scratchOf(0, m)
				g.get(root, tmp, from, m, d)
				g.put(k, to, tmp, m, d)
			}
		}
		atomic.AddUint32(g.a.done(g.locals[k]), 1)
		if q != k {
			atomic.AddUint32(g.a.done(g.locals[q]), 1)
		}
		if q != root {
			atomic.AddUint32(g.a.done(g.locals[root]), 1)
		}
		return true
	}
	// want counts the tasks this rank takes part in: as the root all; as
	// a reader every nonempty piece into it and its own piece's copies.
	pieces := uint32(min(p, lines))
	want := pieces * uint32(p-1)
	if g.me != root {
		want = pieces
		if _, m := piece(g.me); m > 0 {
			want += uint32(p - 2)
		}
	}
	var w waiting
	for atomic.LoadUint32(done) != want {
		did := task(g.me, g.me)
		for k := range p {
			did = task(g.me, k) || did
		}
		if g.CPU != nil {
			cpu := g.CPU()
			for q := range p {
				if q == g.me || atomic.LoadInt32(g.hint(g.locals[q])) != cpu {
					continue
				}
				for k := range p {
					did = task(q, k) || did
				}
			}
		}
		if !did {
			g.idle(&w)
		}
	}
	return d.bad
}

// get copies n bytes at rank r's addr to dst.
func (g *Group) get(r int, dst unsafe.Pointer, addr uintptr, n int, d *Direct) {
	if p := d.At(r, addr, n); p != nil {
		d.copy(dst, p, n)
	} else if !d.Read(r, dst, addr, n) {
		d.fail(r)
	}
}
