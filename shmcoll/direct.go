package shmcoll

import (
	"unsafe"

	"gompi/mem"
)

// Direct gives a rank the other ranks' memory, for collectives too big for
// the slots: instead of a copy into a slot and one out of it, a rank reads
// (or folds from, or writes) another rank's buffer itself. Each rank posts
// its buffers' addresses with its arrival; the last call of each collective
// is a barrier, so nobody touches a buffer after its owner returned.
type Direct struct {
	// At is where rank r's [addr, addr+n) lies in this process, nil when
	// it cannot be addressed here (Read and Write then copy).
	At func(r int, addr uintptr, n int) unsafe.Pointer
	// Read copies rank r's [addr, addr+n) to dst; Write copies src there.
	Read  func(r int, dst unsafe.Pointer, addr uintptr, n int) bool
	Write func(r int, addr uintptr, src unsafe.Pointer, n int) bool

	addrs   [MaxGroup][2]uintptr // each rank's posted send and receive buffers
	stream  bool                 // this call's copies bypass the cache (pushBlocks)
	send    unsafe.Pointer       // this rank's own, as posted
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
	g.Barrier()
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
	g.Barrier()
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
	return g.pushBlocks(send, recv, n, 0, d)
}

// pushBlocks writes block r of send (n bytes at r*stride) into rank r's
// recv at this rank's place, then waits in a barrier until every block has
// landed everywhere.
func (g *Group) pushBlocks(send, recv unsafe.Pointer, n, stride int, d *Direct) (bad int) {
	s := g.postAddrs(send, recv, d)
	// Past what the caches keep (mem.Cacheable) in all, the copies bypass
	// the cache, as Go's copy does from 1 MiB; else mem keeps them cached.
	// 4 ranks on 2 cores, alltoall of 1 MiB blocks (16 MiB written per
	// call): 264 us through the cache, 195-211 streamed; 2 ranks bound,
	// allgather of 1 MiB blocks (4 MiB), fast phase: 46 and 65 (slow phase:
	// 49 and 42).
	p := len(g.locals)
	d.stream = n*p*p >= mem.Cacheable
	own := g.me * n
	if mine := unsafe.Add(send, g.me*stride); mine != unsafe.Add(recv, own) {
		d.copy(unsafe.Add(recv, own), mine, n)
	}
	g.eachArrived(s, func(r int) {
		g.addrsOf(r, s, d)
		g.put(r, d.addrs[r][1]+uintptr(own), unsafe.Add(send, r*stride), n, d)
	})
	g.Barrier()
	return d.bad
}

// ReduceScatterDirect is ReduceScatter for vectors too big for the slots:
// each rank folds its block (counts[r] elements of size bytes for rank r,
// blocks back to back) straight from every rank's send buffer. In place
// (send is recv) the others read the caller's vector till the end, so the
// result waits in scratch until the closing barrier.
func (g *Group) ReduceScatterDirect(send, recv unsafe.Pointer, counts []int, size int, f Fold, d *Direct) (bad int) {
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
	g.Barrier()
	if out != recv {
		d.copy(recv, out, n)
	}
	return d.bad
}
