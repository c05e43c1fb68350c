package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/coll"
	"gompi/datatype"
	"gompi/op"
)

// Argument checks shared by the collectives, with the standard's classes.

func (c *Comm) checkIntra(call string) *Error {
	if c.IsInter() {
		return errf(abi.ErrComm, call, "not defined on intercommunicators")
	}
	return nil
}

func (c *Comm) checkRoot(call string, root int) *Error {
	if root < 0 || root >= c.size {
		return errf(abi.ErrRoot, call, "root %d is not in [0, %d)", root, c.size)
	}
	return nil
}

// checkData checks one buffer argument (count, type, pointer); IN_PLACE is
// not accepted here.
func (c *Comm) checkData(call string, buf unsafe.Pointer, count int, dt *datatype.Type) *Error {
	if IsInPlace(buf) {
		return errf(abi.ErrBuffer, call, "MPI_IN_PLACE is not allowed for this buffer")
	}
	return c.checkBuf(call, buf, count, dt)
}

// checkCounts checks a v-collective's count and displacement arrays.
func (c *Comm) checkCounts(call string, counts, displs []int, n int, dt *datatype.Type, buf unsafe.Pointer) *Error {
	if len(counts) < n || (displs != nil && len(displs) < n) {
		return errf(abi.ErrArg, call, "count or displacement array is missing")
	}
	for i := 0; i < n; i++ {
		if e := c.checkBuf(call, buf, counts[i], dt); e != nil {
			return e
		}
	}
	return nil
}

func checkOp(call string, o *op.Op, dt *datatype.Type) *Error {
	if o == nil {
		return errf(abi.ErrOp, call, "invalid reduction operation")
	}
	if dt == nil {
		return errf(abi.ErrType, call, "invalid datatype")
	}
	if cl := o.Check(dt); cl != 0 {
		return errf(cl, call, "%s is not defined for datatype %s", o.Name, dt.Name)
	}
	return nil
}

// reduction describes how a reduction over dt runs: contiguous types and the
// predefined pair types reduce in place in their own layout; other derived
// types made of one predefined type are packed and reduced as that type.
type reduction struct {
	dt     *datatype.Type
	ext    int // bytes per reduced element
	scale  int // reduced elements per element of dt
	packed bool
	fn     coll.Reducer
	commut bool
}

func reductionOf(call string, o *op.Op, dt *datatype.Type) (reduction, *Error) {
	if dt.Contig || dt.Builtin {
		return reduction{dt: dt, ext: dt.Extent, scale: 1, commut: o.Commute,
			fn: func(in, inout unsafe.Pointer, n int) { o.Apply(in, inout, n, dt) }}, nil
	}
	if b := dt.Base; b != nil && o.Predefined() && b.Size > 0 {
		return reduction{dt: dt, ext: b.Size, scale: dt.Size / b.Size, packed: true, commut: o.Commute,
			fn: func(in, inout unsafe.Pointer, n int) { o.ApplyPacked(in, inout, n, b) }}, nil
	}
	if !o.Predefined() && dt.Extent > 0 {
		return reduction{dt: dt, ext: dt.Size, scale: 1, packed: true, commut: o.Commute, fn: typedUserReducer(o, dt)}, nil
	}
	return reduction{}, errf(abi.ErrType, call, "reductions on non-contiguous datatype %s need a predefined op and one basic type", dt.Name)
}

// typedUserReducer applies a user op to packed elements of a non-contiguous
// type: the user function expects the type's own layout, so both operands
// are unpacked into scratch laid out like the user's buffers and the result
// packed back.
func typedUserReducer(o *op.Op, dt *datatype.Type) coll.Reducer {
	var a, b []byte
	lo := min(dt.TrueLB, 0)
	return func(in, inout unsafe.Pointer, n int) {
		need := -lo + max(dt.TrueLB+dt.TrueExtent, 0) + (n-1)*dt.Extent
		if len(a) < need {
			a, b = make([]byte, need), make([]byte, need)
		}
		ba, bb := unsafe.Pointer(&a[-lo]), unsafe.Pointer(&b[-lo])
		pin := unsafe.Slice((*byte)(in), n*dt.Size)
		pio := unsafe.Slice((*byte)(inout), n*dt.Size)
		dt.Unpack(ba, n, pin, 0)
		dt.Unpack(bb, n, pio, 0)
		o.Apply(ba, bb, n, dt)
		dt.Pack(pio, bb, n, 0)
	}
}

// buf maps count elements at p for the reduction (see collOp.buf).
func (r reduction) buf(op *collOp, p unsafe.Pointer, count int, dir int) unsafe.Pointer {
	if !r.packed || p == nil {
		return p
	}
	q, _ := op.buf(p, count, r.dt, dir)
	return q
}

// data builds the coll description of a reduction of count elements.
func (r reduction) data(sbuf, rbuf unsafe.Pointer, count int) coll.Data {
	return coll.Data{Sbuf: sbuf, Rbuf: rbuf, Count: count * r.scale, Ext: r.ext, Fn: r.fn, Commute: r.commut}
}
