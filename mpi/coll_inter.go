package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/coll"
	"gompi/datatype"
	"gompi/op"
)

// Collectives on intercommunicators: the groups talk over the
// intercommunicator's collective context, each group inside over its local
// intracommunicator (LocalComm). Every call takes one tag of each, so the
// counters stay in step across both groups.

func (c *Comm) interOp() *collOp { return &collOp{c: c, local: c.LocalComm()} }

// side resolves the root argument of a rooted intercommunicator collective.
func (c *Comm) side(call string, root int) (coll.Side, *Error) {
	switch {
	case root == abi.Root:
		return coll.SideRoot, nil
	case root == abi.ProcNull:
		return coll.SideIdle, nil
	case root >= 0 && root < c.RemoteSize():
		return coll.SideRecv, nil
	}
	return 0, errf(abi.ErrRoot, call, "root %d is neither MPI_ROOT, MPI_PROC_NULL nor a rank of the remote group (size %d)", root, c.RemoteSize())
}

func (c *Comm) interBarrier(m CollMode) (*Request, error) {
	op := c.interOp()
	op.s = coll.InterBarrier(c.size, c.rank)
	return op.exec(m)
}

func (c *Comm) interBcast(m CollMode, call string, buf unsafe.Pointer, count int, dt *datatype.Type, root int) (*Request, error) {
	side, e := c.side(call, root)
	if e == nil && side != coll.SideIdle {
		e = c.checkData(call, buf, count, dt)
	}
	if e != nil {
		return c.fail(e)
	}
	op := c.interOp()
	var p unsafe.Pointer
	n := 0
	if side != coll.SideIdle {
		dir := dirOut
		if side == coll.SideRoot {
			dir = dirIn
		}
		p, n = op.buf(buf, count, dt, dir)
	}
	op.s = coll.InterBcast(c.size, c.rank, side, root, p, n)
	return op.exec(m)
}

func (c *Comm) interGather(m CollMode, call string, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcounts, displs []int, rtype *datatype.Type, root int) (*Request, error) {
	side, e := c.side(call, root)
	switch {
	case e != nil:
	case side == coll.SideRoot:
		e = firstErr(c.checkCounts(call, rcounts, displs, c.RemoteSize(), rtype, rbuf), c.checkNotInPlace(call, rbuf))
	case side == coll.SideRecv:
		e = c.checkData(call, sbuf, scount, stype)
	}
	if e != nil {
		return c.fail(e)
	}
	op := c.interOp()
	var rb coll.Blocks
	var sp unsafe.Pointer
	n := 0
	if side == coll.SideRoot {
		rb = op.blocks(rbuf, rcounts[:c.RemoteSize()], displs[:c.RemoteSize()], rtype, dirOut)
	} else if side == coll.SideRecv {
		sp, n = op.buf(sbuf, scount, stype, dirIn)
	}
	op.s = coll.InterGather(side, root, sp, n, rb)
	return op.exec(m)
}

func (c *Comm) interScatter(m CollMode, call string, sbuf unsafe.Pointer, scounts, displs []int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type, root int) (*Request, error) {
	side, e := c.side(call, root)
	switch {
	case e != nil:
	case side == coll.SideRoot:
		e = firstErr(c.checkCounts(call, scounts, displs, c.RemoteSize(), stype, sbuf), c.checkNotInPlace(call, sbuf))
	case side == coll.SideRecv:
		e = c.checkData(call, rbuf, rcount, rtype)
	}
	if e != nil {
		return c.fail(e)
	}
	op := c.interOp()
	var sb coll.Blocks
	var rp unsafe.Pointer
	n := 0
	if side == coll.SideRoot {
		sb = op.blocks(sbuf, scounts[:c.RemoteSize()], displs[:c.RemoteSize()], stype, dirIn)
	} else if side == coll.SideRecv {
		rp, n = op.buf(rbuf, rcount, rtype, dirOut)
	}
	op.s = coll.InterScatter(side, root, sb, rp, n)
	return op.exec(m)
}

// interExchange sends block r of sb to remote rank r and receives remote rank
// r's into block r of rb (allgather with sb's blocks all the same buffer).
func (c *Comm) interExchange(m CollMode, op *collOp, sb, rb coll.Blocks) (*Request, error) {
	nr := c.RemoteSize()
	sends, recvs := make([]coll.Part, nr), make([]coll.Part, nr)
	for r := 0; r < nr; r++ {
		sp, sn := sb.At(r)
		rp, rn := rb.At(r)
		sends[r] = coll.Part{Peer: r, Buf: sp, N: sn}
		recvs[r] = coll.Part{Peer: r, Buf: rp, N: rn}
	}
	op.s = coll.Neighbor(sends, recvs)
	return op.exec(m)
}

func (c *Comm) interAllgather(m CollMode, call string, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcounts, displs []int, rtype *datatype.Type) (*Request, error) {
	nr := c.RemoteSize()
	if e := firstErr(c.checkData(call, sbuf, scount, stype), c.checkCounts(call, rcounts, displs, nr, rtype, rbuf),
		c.checkNotInPlace(call, rbuf)); e != nil {
		return c.fail(e)
	}
	op := c.interOp()
	sp, n := op.buf(sbuf, scount, stype, dirIn)
	sb := coll.Blocks{Buf: sp, Count: repeat(n, nr), Displ: make([]int, nr)}
	rb := op.blocks(rbuf, rcounts[:nr], displs[:nr], rtype, dirOut)
	return c.interExchange(m, op, sb, rb)
}

func (c *Comm) interAlltoall(m CollMode, call string, sbuf unsafe.Pointer, scounts, sdispls []int, stypes []*datatype.Type,
	rbuf unsafe.Pointer, rcounts, rdispls []int, rtypes []*datatype.Type) (*Request, error) {
	nr := c.RemoteSize()
	if IsInPlace(sbuf) {
		return c.fail(errf(abi.ErrBuffer, call, "MPI_IN_PLACE is not allowed on intercommunicators"))
	}
	if len(scounts) < nr || len(sdispls) < nr || len(stypes) < nr || len(rcounts) < nr || len(rdispls) < nr || len(rtypes) < nr {
		return c.fail(errf(abi.ErrArg, call, "a count, displacement or type array is missing"))
	}
	if e := firstErr(c.checkEach(call, sbuf, scounts[:nr], stypes), c.checkEach(call, rbuf, rcounts[:nr], rtypes)); e != nil {
		return c.fail(e)
	}
	op := c.interOp()
	sb := op.blocksW(sbuf, scounts[:nr], sdispls[:nr], stypes[:nr], dirIn, false)
	rb := op.blocksW(rbuf, rcounts[:nr], rdispls[:nr], rtypes[:nr], dirOut, false)
	return c.interExchange(m, op, sb, rb)
}

func (c *Comm) interReduce(m CollMode, call string, sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op, root int) (*Request, error) {
	side, e := c.side(call, root)
	if e == nil {
		e = checkOp(call, o, dt)
	}
	switch {
	case e != nil:
	case side == coll.SideRoot:
		e = c.checkData(call, rbuf, count, dt)
	case side == coll.SideRecv:
		e = c.checkData(call, sbuf, count, dt)
	}
	if e != nil {
		return c.fail(e)
	}
	rd, e := reductionOf(call, o, dt)
	if e != nil {
		return c.fail(e)
	}
	op := c.interOp()
	var sp, rp unsafe.Pointer
	switch side {
	case coll.SideRoot:
		rp = rd.buf(op, rbuf, count, dirOut)
	case coll.SideRecv:
		sp = rd.buf(op, sbuf, count, dirIn)
	}
	op.s = coll.InterReduce(c.size, c.rank, side, root, rd.data(sp, rp, count))
	return op.exec(m)
}

func (c *Comm) interAllreduce(m CollMode, call string, sbuf, rbuf unsafe.Pointer, count int, dt *datatype.Type, o *op.Op) (*Request, error) {
	if e := firstErr(checkOp(call, o, dt), c.checkData(call, sbuf, count, dt), c.checkData(call, rbuf, count, dt)); e != nil {
		return c.fail(e)
	}
	rd, e := reductionOf(call, o, dt)
	if e != nil {
		return c.fail(e)
	}
	op := c.interOp()
	op.s = coll.InterAllreduce(c.size, c.rank, rd.data(rd.buf(op, sbuf, count, dirIn), rd.buf(op, rbuf, count, dirOut), count))
	return op.exec(m)
}

func (c *Comm) interReduceScatter(m CollMode, call string, sbuf, rbuf unsafe.Pointer, rcounts []int, dt *datatype.Type, o *op.Op) (*Request, error) {
	total := 0
	for _, k := range rcounts[:c.size] {
		total += k
	}
	if e := firstErr(checkOp(call, o, dt), c.checkData(call, sbuf, total, dt), c.checkData(call, rbuf, rcounts[c.rank], dt)); e != nil {
		return c.fail(e)
	}
	rd, e := reductionOf(call, o, dt)
	if e != nil {
		return c.fail(e)
	}
	op := c.interOp()
	counts := make([]int, c.size)
	for i := range counts {
		counts[i] = rcounts[i] * rd.scale
	}
	d := rd.data(rd.buf(op, sbuf, total, dirIn), rd.buf(op, rbuf, rcounts[c.rank], dirOut), total)
	op.s = coll.InterReduceScatter(c.size, c.rank, d, counts)
	return op.exec(m)
}
