package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/coll"
	"gompi/datatype"
	"gompi/internal/mtlock"
	"gompi/op"
)

// The collectives, each callable blocking, nonblocking or persistent (m).
// Nonblocking and persistent calls return a request; blocking calls nil.
// Buffer arguments follow the C API: MPI_IN_PLACE is InPlace; counts are in
// elements of the datatype, displacements in extents (bytes for Alltoallw).

func firstErr(es ...*Error) *Error {
	for _, e := range es {
		if e != nil {
			return e
		}
	}
	return nil
}

func (c *Comm) fail(e *Error) (*Request, error) { return nil, c.raise(e) }

// BarrierAs is MPI_Barrier, MPI_Ibarrier or MPI_Barrier_init.
func (c *Comm) BarrierAs(m CollMode) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		return c.interBarrier(m)
	}
	call := callName("Barrier", m)
	if e := c.checkIntra(call); e != nil {
		return c.fail(e)
	}
	if c.useShm(m, shmBarrier, 0) {
		c.shm.Barrier()
		return nil, nil
	}
	k := collKey{cc: c.cc, kind: ckBarrier}
	if op := cacheGet(m, &k); op != nil {
		return op.exec(m)
	}
	op := &collOp{c: c}
	if h := c.hierFor(coll.KBarrier); h != nil {
		c.hierVerbose(coll.KBarrier, h, 0)
		op.s = coll.HierBarrier(h, c.rank)
	} else {
		op.s = coll.Barrier(c.size, c.rank, c.algorithm(coll.KBarrier, c.size, 0, true))
	}
	cachePut(m, &k, op)
	return op.exec(m)
}

// bcastSegment is the pipelined broadcast's segment (GOMPI_COLL_BCAST_SEGMENT).
func bcastSegment() int { return st.settings.size("GOMPI_COLL_BCAST_SEGMENT", 32<<10) }

// BcastAs is MPI_Bcast, MPI_Ibcast or MPI_Bcast_init.
func (c *Comm) BcastAs(m CollMode, buf unsafe.Pointer, count int, dt *datatype.Type, root int) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		return c.interBcast(m, callName("Bcast", m), buf, count, dt, root)
	}
	call := callName("Bcast", m)
	if e := firstErr(c.checkIntra(call), c.checkRoot(call, root), c.checkData(call, buf, count, dt)); e != nil {
		return c.fail(e)
	}
	if n := count * dt.Size; c.useShm(m, shmBcast, n) || c.useDirectBcast(m, n) {
		return nil, c.shmBcast(n > c.shmMax[shmBcast], buf, count, dt, root)
	}
	k := collKey{cc: c.cc, kind: ckBcast, rbuf: buf, n1: count, t1: dt, root: root}
	if op := cacheGet(m, &k); op != nil {
		return op.exec(m)
	}
	op := &collOp{c: c}
	dir := dirOut
	if c.rank == root {
		dir = dirIn
	}
	p, n := op.buf(buf, count, dt, dir)
	if h := c.hierFor(coll.KBcast); h != nil {
		c.hierVerbose(coll.KBcast, h, n)
		op.s = coll.HierBcast(h, c.rank, root, p, n, c.algorithm(coll.KBcast, h.Count(), n, true), hierSegment())
	} else {
		op.s = coll.Bcast(c.size, c.rank, root, p, n, c.algorithm(coll.KBcast, c.size, n, true), bcastSegment())
	}
	cachePut(m, &k, op)
	return op.exec(m)
}

// GatherAs is MPI_Gather and its forms; GathervAs the v-variant.
func (c *Comm) GatherAs(m CollMode, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type, root int) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		rc, rd := regular(c.RemoteSize(), rcount)
		return c.interGather(m, callName("Gather", m), sbuf, scount, stype, rbuf, rc, rd, rtype, root)
	}
	k := &collKey{cc: c.cc, kind: ckGather, sbuf: sbuf, rbuf: rbuf, n1: scount, n2: rcount, t1: stype, t2: rtype, root: root}
	if op := cacheGet(m, k); op != nil {
		return op.exec(m)
	}
	rc, rd := regular(c.size, rcount)
	return c.gather(m, "Gather", sbuf, scount, stype, rbuf, rc, rd, rtype, root, k)
}

// GathervAs is MPI_Gatherv and its forms.
func (c *Comm) GathervAs(m CollMode, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcounts, displs []int, rtype *datatype.Type, root int) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		return c.interGather(m, callName("Gatherv", m), sbuf, scount, stype, rbuf, rcounts, displs, rtype, root)
	}
	return c.gather(m, "Gatherv", sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, nil)
}

func (c *Comm) gather(m CollMode, name string, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcounts, displs []int, rtype *datatype.Type, root int, k *collKey) (*Request, error) {
	reg := k != nil
	call := callName(name, m)
	if e := firstErr(c.checkIntra(call), c.checkRoot(call, root)); e != nil {
		return c.fail(e)
	}
	me := c.rank
	inPlace := me == root && IsInPlace(sbuf)
	if !inPlace {
		if e := c.checkData(call, sbuf, scount, stype); e != nil {
			return c.fail(e)
		}
	}
	if me == root {
		if e := firstErr(c.checkCounts(call, rcounts, displs, c.size, rtype, rbuf), c.checkNotInPlace(call, rbuf)); e != nil {
			return c.fail(e)
		}
	}
	op := &collOp{c: c}
	var sp unsafe.Pointer
	n := 0
	if inPlace {
		n = rcounts[me] * rtype.Size
	} else {
		sp, n = op.buf(sbuf, scount, stype, dirIn)
	}
	var hier *coll.Nodes
	if reg {
		hier = c.hierFor(coll.KGather)
	}
	alg := coll.GatherLinear
	if reg && hier == nil {
		alg = c.algorithm(coll.KGather, c.size, n, true)
	}
	var rb coll.Blocks
	if me == root {
		dir := dirOut
		if inPlace && !rtype.Contig {
			// the root's own block is in the packed scratch, which is
			// unpacked whole (it was left out before: in place, a
			// non-contiguous type got back what the scratch held)
			dir |= dirIn
		}
		rb = op.blocks(rbuf, rcounts, displs, rtype, dir)
	}
	if hier != nil {
		c.hierVerbose(coll.KGather, hier, n)
		op.s = coll.HierGather(hier, me, root, sp, n, rb)
	} else {
		op.s = coll.Gather(c.size, me, root, sp, n, rb, alg)
	}
	cachePut(m, k, op)
	return op.exec(m)
}

func (c *Comm) checkNotInPlace(call string, p unsafe.Pointer) *Error {
	if IsInPlace(p) {
		return errf(abi.ErrBuffer, call, "MPI_IN_PLACE is not allowed for this buffer")
	}
	return nil
}

// ScatterAs is MPI_Scatter and its forms.
func (c *Comm) ScatterAs(m CollMode, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type, root int) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		sc, sd := regular(c.RemoteSize(), scount)
		return c.interScatter(m, callName("Scatter", m), sbuf, sc, sd, stype, rbuf, rcount, rtype, root)
	}
	k := &collKey{cc: c.cc, kind: ckScatter, sbuf: sbuf, rbuf: rbuf, n1: scount, n2: rcount, t1: stype, t2: rtype, root: root}
	if op := cacheGet(m, k); op != nil {
		return op.exec(m)
	}
	sc, sd := regular(c.size, scount)
	return c.scatter(m, "Scatter", sbuf, sc, sd, stype, rbuf, rcount, rtype, root, k)
}

// ScattervAs is MPI_Scatterv and its forms.
func (c *Comm) ScattervAs(m CollMode, sbuf unsafe.Pointer, scounts, displs []int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type, root int) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		return c.interScatter(m, callName("Scatterv", m), sbuf, scounts, displs, stype, rbuf, rcount, rtype, root)
	}
	return c.scatter(m, "Scatterv", sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, nil)
}

func (c *Comm) scatter(m CollMode, name string, sbuf unsafe.Pointer, scounts, displs []int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type, root int, k *collKey) (*Request, error) {
	reg := k != nil
	call := callName(name, m)
	if e := firstErr(c.checkIntra(call), c.checkRoot(call, root)); e != nil {
		return c.fail(e)
	}
	me := c.rank
	inPlace := me == root && IsInPlace(rbuf)
	if !inPlace {
		if e := c.checkData(call, rbuf, rcount, rtype); e != nil {
			return c.fail(e)
		}
	}
	op := &collOp{c: c}
	var sb coll.Blocks
	if me == root {
		if e := firstErr(c.checkCounts(call, scounts, displs, c.size, stype, sbuf), c.checkNotInPlace(call, sbuf)); e != nil {
			return c.fail(e)
		}
		sb = op.blocks(sbuf, scounts, displs, stype, dirIn)
	}
	var rp unsafe.Pointer
	n := 0
	if inPlace {
		n = scounts[me] * stype.Size
	} else {
		rp, n = op.buf(rbuf, rcount, rtype, dirOut)
	}
	if h := c.hierFor(coll.KScatter); h != nil && reg {
		c.hierVerbose(coll.KScatter, h, n)
		op.s = coll.HierScatter(h, me, root, sb, rp, n)
	} else {
		alg := coll.GatherLinear
		if reg {
			alg = c.algorithm(coll.KScatter, c.size, n, true)
		}
		op.s = coll.Scatter(c.size, me, root, sb, rp, n, alg)
	}
	cachePut(m, k, op)
	return op.exec(m)
}

// AllgatherAs is MPI_Allgather and its forms.
func (c *Comm) AllgatherAs(m CollMode, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		rc, rd := regular(c.RemoteSize(), rcount)
		return c.interAllgather(m, callName("Allgather", m), sbuf, scount, stype, rbuf, rc, rd, rtype)
	}
	if m == Blocking && c.shm != nil {
		for _, direct := range [...]bool{false, true} {
			if done, err := c.shmAllgather(direct, sbuf, scount, stype, rbuf, rcount, rtype); done {
				return nil, err
			}
		}
	}
	k := &collKey{cc: c.cc, kind: ckAllgather, sbuf: sbuf, rbuf: rbuf, n1: scount, n2: rcount, t1: stype, t2: rtype}
	if op := cacheGet(m, k); op != nil {
		return op.exec(m)
	}
	rc, rd := regular(c.size, rcount)
	return c.allgather(m, "Allgather", sbuf, scount, stype, rbuf, rc, rd, rtype, k)
}

// AllgathervAs is MPI_Allgatherv and its forms.
func (c *Comm) AllgathervAs(m CollMode, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcounts, displs []int, rtype *datatype.Type) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		return c.interAllgather(m, callName("Allgatherv", m), sbuf, scount, stype, rbuf, rcounts, displs, rtype)
	}
	return c.allgather(m, "Allgatherv", sbuf, scount, stype, rbuf, rcounts, displs, rtype, nil)
}

func (c *Comm) allgather(m CollMode, name string, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcounts, displs []int, rtype *datatype.Type, k *collKey) (*Request, error) {
	reg := k != nil
	call := callName(name, m)
	if e := firstErr(c.checkIntra(call), c.checkCounts(call, rcounts, displs, c.size, rtype, rbuf), c.checkNotInPlace(call, rbuf)); e != nil {
		return c.fail(e)
	}
	inPlace := IsInPlace(sbuf)
	if !inPlace {
		if e := c.checkData(call, sbuf, scount, stype); e != nil {
			return c.fail(e)
		}
	}
	op := &collOp{c: c}
	dir := dirOut
	if inPlace {
		dir |= dirIn // my block is read from rbuf
	}
	rb := op.blocks(rbuf, rcounts, displs, rtype, dir)
	var sp unsafe.Pointer
	n := rb.Count[c.rank]
	if !inPlace {
		sp, n = op.buf(sbuf, scount, stype, dirIn)
	}
	if h := c.hierFor(coll.KAllgather); h != nil {
		c.hierVerbose(coll.KAllgather, h, n)
		op.s = coll.HierAllgather(h, c.rank, sp, n, rb)
	} else {
		alg := coll.AllgatherRing
		if reg {
			alg = c.algorithm(coll.KAllgather, c.size, n, true)
		}
		op.s = coll.Allgather(c.size, c.rank, sp, n, rb, alg)
	}
	cachePut(m, k, op)
	return op.exec(m)
}

// AlltoallAs is MPI_Alltoall and its forms.
func (c *Comm) AlltoallAs(m CollMode, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		nr := c.RemoteSize()
		sc, sd := regular(nr, scount)
		rc, rd := regular(nr, rcount)
		return c.interAlltoall(m, callName("Alltoall", m), sbuf, sc, c.bytes(sd, stype), repeat(stype, nr),
			rbuf, rc, c.bytes(rd, rtype), repeat(rtype, nr))
	}
	if m == Blocking && c.shm != nil {
		for _, direct := range [...]bool{false, true} {
			if done, err := c.shmAlltoall(direct, sbuf, scount, stype, rbuf, rcount, rtype); done {
				return nil, err
			}
		}
	}
	k := &collKey{cc: c.cc, kind: ckAlltoall, sbuf: sbuf, rbuf: rbuf, n1: scount, n2: rcount, t1: stype, t2: rtype}
	if op := cacheGet(m, k); op != nil {
		return op.exec(m)
	}
	rc, rd := regular(c.size, rcount)
	if IsInPlace(sbuf) {
		return c.alltoall(m, "Alltoall", sbuf, nil, nil, nil, rbuf, rc, c.bytes(rd, rtype), c.types(rtype), k)
	}
	sc, sd := regular(c.size, scount)
	return c.alltoall(m, "Alltoall", sbuf, sc, c.bytes(sd, stype), c.types(stype), rbuf, rc, c.bytes(rd, rtype), c.types(rtype), k)
}

// AlltoallvAs is MPI_Alltoallv and its forms.
func (c *Comm) AlltoallvAs(m CollMode, sbuf unsafe.Pointer, scounts, sdispls []int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcounts, rdispls []int, rtype *datatype.Type) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		nr := c.RemoteSize()
		if len(sdispls) < nr || len(rdispls) < nr {
			return c.fail(errf(abi.ErrArg, callName("Alltoallv", m), "count or displacement array is missing"))
		}
		return c.interAlltoall(m, callName("Alltoallv", m), sbuf, scounts, c.bytes(sdispls, stype), repeat(stype, nr),
			rbuf, rcounts, c.bytes(rdispls, rtype), repeat(rtype, nr))
	}
	if len(rdispls) < c.size || (!IsInPlace(sbuf) && len(sdispls) < c.size) {
		return c.fail(errf(abi.ErrArg, callName("Alltoallv", m), "count or displacement array is missing"))
	}
	return c.alltoall(m, "Alltoallv", sbuf, scounts, c.bytes(sdispls, stype), c.types(stype),
		rbuf, rcounts, c.bytes(rdispls, rtype), c.types(rtype), nil)
}

// AlltoallwAs is MPI_Alltoallw and its forms (displacements in bytes).
func (c *Comm) AlltoallwAs(m CollMode, sbuf unsafe.Pointer, scounts, sdispls []int, stypes []*datatype.Type,
	rbuf unsafe.Pointer, rcounts, rdispls []int, rtypes []*datatype.Type) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		return c.interAlltoall(m, callName("Alltoallw", m), sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes)
	}
	return c.alltoall(m, "Alltoallw", sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, nil)
}

func (c *Comm) bytes(displs []int, dt *datatype.Type) []int {
	if displs == nil {
		return nil
	}
	out := make([]int, len(displs))
	for i, d := range displs {
		if dt != nil { // a nil type is reported by the buffer checks
			out[i] = d * dt.Extent
		}
	}
	return out
}

func (c *Comm) types(dt *datatype.Type) []*datatype.Type {
	out := make([]*datatype.Type, c.size)
	for i := range out {
		out[i] = dt
	}
	return out
}

func (c *Comm) alltoall(m CollMode, name string, sbuf unsafe.Pointer, scounts, sdispls []int, stypes []*datatype.Type,
	rbuf unsafe.Pointer, rcounts, rdispls []int, rtypes []*datatype.Type, k *collKey) (*Request, error) {
	reg := k != nil
	call := callName(name, m)
	if e := firstErr(c.checkIntra(call), c.checkNotInPlace(call, rbuf)); e != nil {
		return c.fail(e)
	}
	n := c.size
	if len(rcounts) < n || len(rdispls) < n || len(rtypes) < n {
		return c.fail(errf(abi.ErrArg, call, "receive count, displacement or type array is missing"))
	}
	for i := 0; i < n; i++ {
		if e := c.checkBuf(call, rbuf, rcounts[i], rtypes[i]); e != nil {
			return c.fail(e)
		}
	}
	inPlace := IsInPlace(sbuf)
	op := &collOp{c: c}
	var sb coll.Blocks
	if inPlace { // the data to send is rbuf's before the call: copy it out first
		sb = op.blocksW(rbuf, rcounts, rdispls, rtypes, dirIn, true)
	} else {
		if len(scounts) < n || len(sdispls) < n || len(stypes) < n {
			return c.fail(errf(abi.ErrArg, call, "send count, displacement or type array is missing"))
		}
		for i := 0; i < n; i++ {
			if e := c.checkBuf(call, sbuf, scounts[i], stypes[i]); e != nil {
				return c.fail(e)
			}
		}
		sb = op.blocksW(sbuf, scounts, sdispls, stypes, dirIn, false)
	}
	rb := op.blocksW(rbuf, rcounts, rdispls, rtypes, dirOut, false)
	alg := coll.AlltoallLinear
	if reg {
		alg = c.algorithm(coll.KAlltoall, n, rb.Count[0], true)
	} else if a, ok := st.settings["GOMPI_COLL_ALLTOALL"]; ok && coll.Valid(coll.KAlltoall, a) {
		alg = a
	}
	if h := c.hierFor(coll.KAlltoall); h != nil && reg && rb.Count[0] <= coll.HierAlltoallMax && sameCounts(sb.Count, rb.Count[0]) {
		c.hierVerbose(coll.KAlltoall, h, rb.Count[0])
		op.s = coll.HierAlltoall(h, c.rank, sb, rb, rb.Count[0])
	} else {
		op.s = coll.Alltoall(n, c.rank, sb, rb, alg)
	}
	cachePut(m, k, op)
	return op.exec(m)
}

// ReduceAs is MPI_Reduce and its forms.
func (c *Comm) ReduceAs(m CollMode, sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op, root int) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		return c.interReduce(m, callName("Reduce", m), sbuf, rbuf, count, dt, o, root)
	}
	call := callName("Reduce", m)
	if e := firstErr(c.checkIntra(call), c.checkRoot(call, root), checkOp(call, o, dt)); e != nil {
		return c.fail(e)
	}
	me := c.rank
	inPlace := me == root && IsInPlace(sbuf)
	var e *Error
	if !inPlace {
		e = c.checkData(call, sbuf, count, dt)
	}
	if me == root {
		e = firstErr(e, c.checkBuf(call, rbuf, count, dt), c.checkNotInPlace(call, rbuf), c.checkAlias(call, sbuf, rbuf, count))
	}
	if e != nil {
		return c.fail(e)
	}
	if sp := sbuf; c.useShmFold(m, shmReduce, count, dt) || c.useDirectContig(m, shmReduce, count, dt) {
		if inPlace {
			sp = rbuf
		}
		if count*dt.Size > c.shmMax[shmReduce] { // past the slots: useDirectContig
			return nil, c.directFailed(call, c.shm.ReduceDirect(sp, rbuf, count, dt.Size, root, c.reducer(o, dt), c.direct))
		}
		c.shm.Reduce(sp, rbuf, count, dt.Size, root, c.reducer(o, dt))
		return nil, nil
	}
	rd, e := reductionOf(call, o, dt)
	if e != nil {
		return c.fail(e)
	}
	k := collKey{cc: c.cc, kind: ckReduce, sbuf: sbuf, rbuf: rbuf, n1: count, t1: dt, o: o, root: root}
	if op := cacheGet(m, &k); op != nil {
		return op.exec(m)
	}
	op := &collOp{c: c}
	var sp, rp unsafe.Pointer
	if me == root {
		if inPlace {
			rp = rd.buf(op, rbuf, count, dirIn|dirOut)
			sp = rp
		} else {
			rp = rd.buf(op, rbuf, count, dirOut)
		}
	}
	if !inPlace {
		sp = rd.buf(op, sbuf, count, dirIn)
	}
	d := rd.data(sp, rp, count)
	if h := c.hierFor(coll.KReduce); h != nil {
		op.s = coll.HierReduce(h, me, root, d) // nil: the op's order needs the flat tree
	}
	if op.s == nil {
		op.s = coll.Reduce(c.size, me, root, d, c.algorithm(coll.KReduce, c.size, d.Count*d.Ext, d.Commute))
	} else {
		c.hierVerbose(coll.KReduce, c.hier, d.Count*d.Ext)
	}
	cachePut(m, &k, op)
	return op.exec(m)
}

// checkAlias rejects distinct send and receive arguments naming one buffer.
func (c *Comm) checkAlias(call string, sbuf, rbuf unsafe.Pointer, count int) *Error {
	if sbuf == rbuf && sbuf != nil && count > 0 {
		return errf(abi.ErrBuffer, call, "send and receive buffers are the same (use MPI_IN_PLACE)")
	}
	return nil
}

// reduceArgs checks and maps the buffers of an all-rank reduction (Allreduce,
// Scan, Exscan): in place, the data is read from and written to rbuf.
func (c *Comm) reduceArgs(call string, sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op) (*collOp, coll.Data, *Error) {
	if e := firstErr(c.checkIntra(call), checkOp(call, o, dt), c.checkData(call, rbuf, count, dt)); e != nil {
		return nil, coll.Data{}, e
	}
	inPlace := IsInPlace(sbuf)
	if !inPlace {
		if e := firstErr(c.checkData(call, sbuf, count, dt), c.checkAlias(call, sbuf, rbuf, count)); e != nil {
			return nil, coll.Data{}, e
		}
	}
	rd, e := reductionOf(call, o, dt)
	if e != nil {
		return nil, coll.Data{}, e
	}
	op := &collOp{c: c}
	var sp, rp unsafe.Pointer
	if inPlace {
		rp = rd.buf(op, rbuf, count, dirIn|dirOut)
		sp = rp
	} else {
		rp = rd.buf(op, rbuf, count, dirOut)
		sp = rd.buf(op, sbuf, count, dirIn)
	}
	return op, rd.data(sp, rp, count), nil
}

// AllreduceAs is MPI_Allreduce and its forms.
func (c *Comm) AllreduceAs(m CollMode, sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		return c.interAllreduce(m, callName("Allreduce", m), sbuf, rbuf, count, dt, o)
	}
	if c.useShmFold(m, shmAllreduce, count, dt) || c.useDirectContig(m, shmAllreduce, count, dt) {
		return c.shmAllreduce(callName("Allreduce", m), sbuf, rbuf, count, dt, o)
	}
	k := &collKey{cc: c.cc, kind: ckAllreduce, sbuf: sbuf, rbuf: rbuf, n1: count, t1: dt, o: o}
	if op := cacheGet(m, k); op != nil {
		return op.exec(m)
	}
	op, d, e := c.reduceArgs(callName("Allreduce", m), sbuf, rbuf, count, dt, o)
	if e != nil {
		return c.fail(e)
	}
	if h := c.hierFor(coll.KAllreduce); h != nil {
		op.s = coll.HierAllreduce(h, c.rank, d, c.algorithm(coll.KAllreduce, h.Count(), d.Count*d.Ext, d.Commute), hierSegment())
	}
	if op.s == nil {
		op.s = coll.Allreduce(c.size, c.rank, d, c.algorithm(coll.KAllreduce, c.size, d.Count*d.Ext, d.Commute))
	} else {
		c.hierVerbose(coll.KAllreduce, c.hier, d.Count*d.Ext)
	}
	cachePut(m, k, op)
	return op.exec(m)
}

// ScanAs is MPI_Scan and its forms; ExscanAs the exclusive scan.
func (c *Comm) ScanAs(m CollMode, sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return c.scan(m, "Scan", sbuf, rbuf, count, dt, o, false)
}

// ExscanAs is MPI_Exscan and its forms (rbuf at rank 0 is left unchanged).
func (c *Comm) ExscanAs(m CollMode, sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return c.scan(m, "Exscan", sbuf, rbuf, count, dt, o, true)
}

func (c *Comm) scan(m CollMode, name string, sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op, excl bool) (*Request, error) {
	k := &collKey{cc: c.cc, kind: ckScan, sbuf: sbuf, rbuf: rbuf, n1: count, t1: dt, o: o}
	if excl {
		k.kind = ckExscan
	}
	if op := cacheGet(m, k); op != nil {
		return op.exec(m)
	}
	op, d, e := c.reduceArgs(callName(name, m), sbuf, rbuf, count, dt, o)
	if e != nil {
		return c.fail(e)
	}
	op.s = coll.Scan(c.size, c.rank, d, excl, c.algorithm(coll.KScan, c.size, d.Count*d.Ext, d.Commute))
	cachePut(m, k, op)
	return op.exec(m)
}

// ReduceScatterAs is MPI_Reduce_scatter and its forms.
func (c *Comm) ReduceScatterAs(m CollMode, sbuf, rbuf unsafe.Pointer, rcounts []int, dt *datatype.Type, o *op.Op) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		if len(rcounts) < c.size {
			return c.fail(errf(abi.ErrArg, callName("Reduce_scatter", m), "receive count array is missing"))
		}
		return c.interReduceScatter(m, callName("Reduce_scatter", m), sbuf, rbuf, rcounts, dt, o)
	}
	return c.reduceScatter(m, "Reduce_scatter", sbuf, rbuf, rcounts, dt, o, nil)
}

// ReduceScatterBlockAs is MPI_Reduce_scatter_block and its forms.
func (c *Comm) ReduceScatterBlockAs(m CollMode, sbuf, rbuf unsafe.Pointer, rcount int, dt *datatype.Type, o *op.Op) (*Request, error) {
	if mtlock.On { // MPI_THREAD_MULTIPLE: Go callers hold the lock too (threads.go)
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if c.IsInter() {
		rc, _ := regular(c.size, rcount)
		return c.interReduceScatter(m, callName("Reduce_scatter_block", m), sbuf, rbuf, rc, dt, o)
	}
	k := &collKey{cc: c.cc, kind: ckReduceScatterBlock, sbuf: sbuf, rbuf: rbuf, n1: rcount, t1: dt, o: o}
	if op := cacheGet(m, k); op != nil {
		return op.exec(m)
	}
	rc, _ := regular(c.size, rcount)
	return c.reduceScatter(m, "Reduce_scatter_block", sbuf, rbuf, rc, dt, o, k)
}

func (c *Comm) reduceScatter(m CollMode, name string, sbuf, rbuf unsafe.Pointer, rcounts []int, dt *datatype.Type, o *op.Op, k *collKey) (*Request, error) {
	call := callName(name, m)
	if e := firstErr(c.checkIntra(call), checkOp(call, o, dt), c.checkNotInPlace(call, rbuf)); e != nil {
		return c.fail(e)
	}
	if len(rcounts) < c.size {
		return c.fail(errf(abi.ErrArg, call, "receive count array is missing"))
	}
	total := 0
	for _, k := range rcounts[:c.size] {
		if k < 0 {
			return c.fail(errf(abi.ErrCount, call, "count %d is negative", k))
		}
		total += k
	}
	inPlace := IsInPlace(sbuf)
	e := c.checkBuf(call, rbuf, rcounts[c.rank], dt)
	if !inPlace {
		e = firstErr(e, c.checkData(call, sbuf, total, dt), c.checkAlias(call, sbuf, rbuf, total))
	}
	if e != nil {
		return c.fail(e)
	}
	if c.useShmFold(m, shmReduceScatter, total, dt) && c.shm.Piece(dt.Size) > 0 { // a piece of every block per call
		return c.shmReduceScatter(sbuf, rbuf, rcounts, total, dt, o)
	}
	if c.useDirectContig(m, shmReduceScatter, total, dt) {
		sp := sbuf
		if inPlace {
			sp = rbuf
		}
		return nil, c.directFailed(call, c.shm.ReduceScatterDirect(sp, rbuf, rcounts[:c.size], dt.Size, c.reducer(o, dt), c.direct))
	}
	rd, e := reductionOf(call, o, dt)
	if e != nil {
		return c.fail(e)
	}
	op := &collOp{c: c}
	var sp, rp unsafe.Pointer
	if inPlace {
		rp = rd.buf(op, rbuf, total, dirIn|dirOut)
	} else {
		rp = rd.buf(op, rbuf, rcounts[c.rank], dirOut)
		sp = rd.buf(op, sbuf, total, dirIn)
	}
	counts := make([]int, c.size)
	for i := range counts {
		counts[i] = rcounts[i] * rd.scale
	}
	d := rd.data(sp, rp, 0)
	if h := c.hierFor(coll.KReduceScatter); h != nil {
		op.s = coll.HierReduceScatter(h, c.rank, d, counts) // nil: the op's order needs the flat algorithm
	}
	if op.s == nil {
		op.s = coll.ReduceScatter(c.size, c.rank, d, counts, c.algorithm(coll.KReduceScatter, c.size, total*d.Ext, d.Commute))
	} else {
		c.hierVerbose(coll.KReduceScatter, c.hier, total*d.Ext)
	}
	cachePut(m, k, op)
	return op.exec(m)
}

// Go conveniences: blocking collectives return only an error.

// Barrier blocks until every process of c has called it.
func (c *Comm) Barrier() error { _, err := c.BarrierAs(Blocking); return err }

// Bcast broadcasts count elements of dt at buf from root.
func (c *Comm) Bcast(buf unsafe.Pointer, count int, dt *datatype.Type, root int) error {
	_, err := c.BcastAs(Blocking, buf, count, dt, root)
	return err
}

// Allreduce combines sbuf of every rank into rbuf of every rank.
func (c *Comm) Allreduce(sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op) error {
	_, err := c.AllreduceAs(Blocking, sbuf, rbuf, count, dt, o)
	return err
}

// Reduce combines sbuf of every rank into rbuf at root.
func (c *Comm) Reduce(sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op, root int) error {
	_, err := c.ReduceAs(Blocking, sbuf, rbuf, count, dt, o, root)
	return err
}

// Allgather gathers every rank's scount elements into rbuf on every rank.
func (c *Comm) Allgather(sbuf unsafe.Pointer, scount int, stype *datatype.Type, rbuf unsafe.Pointer, rcount int, rtype *datatype.Type) error {
	_, err := c.AllgatherAs(Blocking, sbuf, scount, stype, rbuf, rcount, rtype)
	return err
}

// Alltoall sends block r of sbuf to rank r and receives rank r's into block r of rbuf.
func (c *Comm) Alltoall(sbuf unsafe.Pointer, scount int, stype *datatype.Type, rbuf unsafe.Pointer, rcount int, rtype *datatype.Type) error {
	_, err := c.AlltoallAs(Blocking, sbuf, scount, stype, rbuf, rcount, rtype)
	return err
}
