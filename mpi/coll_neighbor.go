package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/coll"
	"gompi/datatype"
)

// Neighbourhood collectives on Cartesian, graph and distributed-graph
// communicators. On a Cartesian grid the standard pairs messages by
// direction: what a rank sends to its negative neighbour arrives in that
// neighbour's positive slot. Two tags per run keep the directions apart when
// both neighbours of a dimension are one rank (a periodic dimension of size 1
// or 2), where matching by order would swap them.

// neighborOffs returns the tag offsets of the out and in slots.
func (c *Comm) neighborOffs(in, out []int) (so, ro []int) {
	so, ro = make([]int, len(out)), make([]int, len(in))
	if t := c.Topology(); t != nil && t.Cart != nil {
		for i := range so {
			so[i] = 1 - i%2 // to the negative neighbour: arrives in its positive slot
		}
		for i := range ro {
			ro[i] = i % 2
		}
	}
	return so, ro
}

func (c *Comm) neighborExec(m CollMode, op *collOp, in, out []int, sb, rb coll.Blocks) (*Request, error) {
	so, ro := c.neighborOffs(in, out)
	sends := make([]coll.Part, len(out))
	for i, p := range out {
		buf, n := sb.At(i)
		sends[i] = coll.Part{Peer: p, Buf: buf, N: n, Off: so[i]}
	}
	recvs := make([]coll.Part, len(in))
	for i, p := range in {
		buf, n := rb.At(i)
		recvs[i] = coll.Part{Peer: p, Buf: buf, N: n, Off: ro[i]}
	}
	op.s = coll.Neighbor(sends, recvs)
	op.tags = 2
	return op.exec(m)
}

// Neighbors of a collective call, with the intracommunicator check.
func (c *Comm) neighbors(call string) (in, out []int, err error) {
	if e := c.checkIntra(call); e != nil {
		return nil, nil, c.raise(e)
	}
	return c.Neighbors(call)
}

func (c *Comm) checkEach(call string, buf unsafe.Pointer, counts []int, types []*datatype.Type) *Error {
	if IsInPlace(buf) {
		return errf(abi.ErrBuffer, call, "MPI_IN_PLACE is not allowed in neighbourhood collectives")
	}
	if buf == nil {
		// MPI_BOTTOM: the displacements are absolute addresses, so a NULL
		// base is how these calls are meant to be used, not a bad buffer.
		buf = unsafe.Pointer(&bottomBase)
	}
	for i := range counts {
		if e := c.checkBuf(call, buf, counts[i], types[i]); e != nil {
			return e
		}
	}
	return nil
}

// bottomBase stands for MPI_BOTTOM in argument checks only.
var bottomBase byte

func repeat[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// NeighborAllgatherAs is MPI_Neighbor_allgather and its forms.
func (c *Comm) NeighborAllgatherAs(m CollMode, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type) (*Request, error) {
	call := "MPI_" + [...]string{"", "I", ""}[m] + "neighbor_allgather" + [...]string{"", "", "_init"}[m]
	in, _, err := c.neighbors(call)
	if err != nil {
		return nil, err
	}
	rc, rd := make([]int, len(in)), make([]int, len(in))
	for i := range rc {
		rc[i], rd[i] = rcount, i*rcount
	}
	return c.neighborAllgather(m, call, sbuf, scount, stype, rbuf, rc, rd, rtype)
}

// NeighborAllgathervAs is MPI_Neighbor_allgatherv and its forms.
func (c *Comm) NeighborAllgathervAs(m CollMode, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcounts, displs []int, rtype *datatype.Type) (*Request, error) {
	call := "MPI_" + [...]string{"", "I", ""}[m] + "neighbor_allgatherv" + [...]string{"", "", "_init"}[m]
	return c.neighborAllgather(m, call, sbuf, scount, stype, rbuf, rcounts, displs, rtype)
}

func (c *Comm) neighborAllgather(m CollMode, call string, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcounts, displs []int, rtype *datatype.Type) (*Request, error) {
	in, out, err := c.neighbors(call)
	if err != nil {
		return nil, err
	}
	if len(rcounts) < len(in) || len(displs) < len(in) {
		return c.fail(errf(abi.ErrArg, call, "receive count or displacement array is missing"))
	}
	if e := firstErr(c.checkData(call, sbuf, scount, stype), c.checkEach(call, rbuf, rcounts[:len(in)], repeat(rtype, len(in)))); e != nil {
		return c.fail(e)
	}
	op := &collOp{c: c}
	sp, n := op.buf(sbuf, scount, stype, dirIn)
	sb := coll.Blocks{Buf: sp, Count: repeat(n, len(out)), Displ: make([]int, len(out))}
	rb := op.blocks(rbuf, rcounts[:len(in)], displs[:len(in)], rtype, dirOut)
	return c.neighborExec(m, op, in, out, sb, rb)
}

// NeighborAlltoallAs is MPI_Neighbor_alltoall and its forms.
func (c *Comm) NeighborAlltoallAs(m CollMode, sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type) (*Request, error) {
	call := "MPI_" + [...]string{"", "I", ""}[m] + "neighbor_alltoall" + [...]string{"", "", "_init"}[m]
	in, out, err := c.neighbors(call)
	if err != nil {
		return nil, err
	}
	if stype == nil || rtype == nil {
		return c.fail(errf(abi.ErrType, call, "invalid datatype"))
	}
	sd, rd := make([]int, len(out)), make([]int, len(in))
	for i := range sd {
		sd[i] = i * scount * stype.Extent
	}
	for i := range rd {
		rd[i] = i * rcount * rtype.Extent
	}
	return c.neighborAlltoall(m, call, sbuf, repeat(scount, len(out)), sd, repeat(stype, len(out)),
		rbuf, repeat(rcount, len(in)), rd, repeat(rtype, len(in)))
}

// NeighborAlltoallvAs is MPI_Neighbor_alltoallv and its forms (displacements in extents).
func (c *Comm) NeighborAlltoallvAs(m CollMode, sbuf unsafe.Pointer, scounts, sdispls []int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcounts, rdispls []int, rtype *datatype.Type) (*Request, error) {
	call := "MPI_" + [...]string{"", "I", ""}[m] + "neighbor_alltoallv" + [...]string{"", "", "_init"}[m]
	in, out, err := c.neighbors(call)
	if err != nil {
		return nil, err
	}
	if len(scounts) < len(out) || len(sdispls) < len(out) || len(rcounts) < len(in) || len(rdispls) < len(in) {
		return c.fail(errf(abi.ErrArg, call, "a count or displacement array is missing"))
	}
	return c.neighborAlltoall(m, call, sbuf, scounts, c.bytes(sdispls[:len(out)], stype), repeat(stype, len(out)),
		rbuf, rcounts, c.bytes(rdispls[:len(in)], rtype), repeat(rtype, len(in)))
}

// NeighborAlltoallwAs is MPI_Neighbor_alltoallw and its forms (displacements in bytes).
func (c *Comm) NeighborAlltoallwAs(m CollMode, sbuf unsafe.Pointer, scounts, sdispls []int, stypes []*datatype.Type,
	rbuf unsafe.Pointer, rcounts, rdispls []int, rtypes []*datatype.Type) (*Request, error) {
	call := "MPI_" + [...]string{"", "I", ""}[m] + "neighbor_alltoallw" + [...]string{"", "", "_init"}[m]
	return c.neighborAlltoall(m, call, sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes)
}

func (c *Comm) neighborAlltoall(m CollMode, call string, sbuf unsafe.Pointer, scounts, sdispls []int, stypes []*datatype.Type,
	rbuf unsafe.Pointer, rcounts, rdispls []int, rtypes []*datatype.Type) (*Request, error) {
	in, out, err := c.neighbors(call)
	if err != nil {
		return nil, err
	}
	if len(scounts) < len(out) || len(sdispls) < len(out) || len(stypes) < len(out) ||
		len(rcounts) < len(in) || len(rdispls) < len(in) || len(rtypes) < len(in) {
		return c.fail(errf(abi.ErrArg, call, "a count, displacement or type array is missing"))
	}
	if e := firstErr(c.checkEach(call, sbuf, scounts[:len(out)], stypes), c.checkEach(call, rbuf, rcounts[:len(in)], rtypes)); e != nil {
		return c.fail(e)
	}
	op := &collOp{c: c}
	sb := op.blocksW(sbuf, scounts[:len(out)], sdispls[:len(out)], stypes[:len(out)], dirIn, false)
	rb := op.blocksW(rbuf, rcounts[:len(in)], rdispls[:len(in)], rtypes[:len(in)], dirOut, false)
	return c.neighborExec(m, op, in, out, sb, rb)
}
