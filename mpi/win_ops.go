package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/op"
)

// opArgs checks what the mpi layer knows about (counts, datatypes, the
// rank); the target range and the epoch are osc's. skip is set for
// MPI_PROC_NULL targets, which make the call a no-op.
func (w *Win) opArgs(call string, oc int, ot *datatype.Type, t int, tc int, tt *datatype.Type) (skip bool, err error) {
	if oc < 0 || tc < 0 {
		return false, w.raise(call, abi.ErrCount, "negative count")
	}
	if ot == nil || tt == nil {
		return false, w.raise(call, abi.ErrType, "invalid datatype")
	}
	if !ot.Committed || !tt.Committed {
		return false, w.raise(call, abi.ErrType, "the datatype is not committed")
	}
	if t == abi.ProcNull {
		return true, nil
	}
	if t < 0 || t >= w.comm.size {
		return false, w.raise(call, abi.ErrRank, "target rank out of range")
	}
	return false, nil
}

// Put writes oc elements of ot at src to target t at displacement disp
// (MPI_Put); it is complete when it returns.
func (w *Win) Put(src unsafe.Pointer, oc int, ot *datatype.Type, t int, disp int64, tc int, tt *datatype.Type) error {
	if skip, err := w.opArgs("MPI_Put", oc, ot, t, tc, tt); skip || err != nil {
		return err
	}
	if e := w.w.Put(src, oc, ot, t, disp, tc, tt); e != nil {
		return w.raiseOsc("MPI_Put", e)
	}
	return nil
}

// Get reads target t's data into dst (MPI_Get).
func (w *Win) Get(dst unsafe.Pointer, oc int, ot *datatype.Type, t int, disp int64, tc int, tt *datatype.Type) error {
	if skip, err := w.opArgs("MPI_Get", oc, ot, t, tc, tt); skip || err != nil {
		return err
	}
	if e := w.w.Get(dst, oc, ot, t, disp, tc, tt); e != nil {
		return w.raiseOsc("MPI_Get", e)
	}
	return nil
}

// Accumulate combines origin data into target t's memory with o
// (MPI_Accumulate), element-wise atomically.
func (w *Win) Accumulate(src unsafe.Pointer, oc int, ot *datatype.Type, t int, disp int64, tc int, tt *datatype.Type, o *op.Op) error {
	const call = "MPI_Accumulate"
	if skip, err := w.opArgs(call, oc, ot, t, tc, tt); skip || err != nil {
		return err
	}
	if e := w.w.Accumulate(src, oc, ot, t, disp, tc, tt, o); e != nil {
		return w.raiseOsc(call, e)
	}
	return nil
}

// GetAccumulate also fetches the target's old data into res (MPI_Get_accumulate).
func (w *Win) GetAccumulate(src unsafe.Pointer, oc int, ot *datatype.Type, res unsafe.Pointer, rc int, rt *datatype.Type,
	t int, disp int64, tc int, tt *datatype.Type, o *op.Op) error {
	const call = "MPI_Get_accumulate"
	if o != nil && o.Index() == op.INoOp && ot == nil {
		ot = tt // the origin buffer is ignored
	}
	if skip, err := w.opArgs(call, oc, ot, t, tc, tt); skip || err != nil {
		return err
	}
	if rc < 0 {
		return w.raise(call, abi.ErrCount, "negative result count")
	}
	if rt == nil || !rt.Committed {
		return w.raise(call, abi.ErrType, "invalid or uncommitted result datatype")
	}
	if e := w.w.GetAccumulate(src, oc, ot, res, rc, rt, t, disp, tc, tt, o); e != nil {
		return w.raiseOsc(call, e)
	}
	return nil
}

// FetchAndOp is MPI_Fetch_and_op: one element of dt.
func (w *Win) FetchAndOp(src, res unsafe.Pointer, dt *datatype.Type, t int, disp int64, o *op.Op) error {
	const call = "MPI_Fetch_and_op"
	if dt == nil || !dt.Builtin {
		return w.raise(call, abi.ErrType, "fetch-and-op takes a predefined datatype")
	}
	if t == abi.ProcNull {
		return nil
	}
	if e := w.w.FetchAndOp(src, res, dt, t, disp, o); e != nil {
		return w.raiseOsc(call, e)
	}
	return w.fetched(call, t)
}

// CompareAndSwap is MPI_Compare_and_swap on one element of dt.
func (w *Win) CompareAndSwap(src, cmp, res unsafe.Pointer, dt *datatype.Type, t int, disp int64) error {
	const call = "MPI_Compare_and_swap"
	if dt == nil {
		return w.raise(call, abi.ErrType, "invalid datatype")
	}
	if t == abi.ProcNull {
		return nil
	}
	if e := w.w.CompareAndSwap(src, cmp, res, dt, t, disp); e != nil {
		return w.raiseOsc(call, e)
	}
	return w.fetched(call, t)
}

// The request forms: the operation completes at the call (to a remote
// target: the call flushes it), so the request is born complete. The
// standard admits them only in a passive-target epoch (MPI-4.1 12.3.5).

// fetched completes a fetch-and-op or compare-and-swap to a remote target
// in the call: the standard makes the result usable only after a flush,
// but the atomics' retry loops everywhere read it at once, as every
// shared-memory implementation allows.
func (w *Win) fetched(call string, t int) error {
	if w.w.Remote(t) {
		if e := w.w.FlushRemote(t); e != nil {
			return w.raiseOsc(call, e)
		}
	}
	return nil
}

// RequestDone is the request of an operation to t just made by a request
// form (MPI_Rput...): born complete, the operation flushed if remote.
func (w *Win) RequestDone(call string, t int) (*Request, error) { return w.done(call, t) }

// done completes an operation to a remote target for a request form.
func (w *Win) done(call string, t int) (*Request, error) {
	if w.w.Remote(t) {
		if e := w.w.FlushRemote(t); e != nil {
			return nil, w.raiseOsc(call, e)
		}
	}
	return DoneRequest(), nil
}

// RequestCheck raises MPI_ERR_RMA_SYNC for a request-based operation to
// target t outside a passive-target epoch; rank errors are left to the
// operation itself.
func (w *Win) RequestCheck(call string, t int) error {
	if t >= 0 && t < len(w.w.Targets) && !w.w.Epoch.Passive(t) {
		return w.raise(call, abi.ErrRmaSync, "request-based operations need a passive-target epoch (MPI_Win_lock or MPI_Win_lock_all)")
	}
	return nil
}

func (w *Win) Rput(src unsafe.Pointer, oc int, ot *datatype.Type, t int, disp int64, tc int, tt *datatype.Type) (*Request, error) {
	if err := w.RequestCheck("MPI_Rput", t); err != nil {
		return nil, err
	}
	if err := w.Put(src, oc, ot, t, disp, tc, tt); err != nil {
		return nil, err
	}
	return w.done("MPI_Rput", t)
}

func (w *Win) Rget(dst unsafe.Pointer, oc int, ot *datatype.Type, t int, disp int64, tc int, tt *datatype.Type) (*Request, error) {
	if err := w.RequestCheck("MPI_Rget", t); err != nil {
		return nil, err
	}
	if err := w.Get(dst, oc, ot, t, disp, tc, tt); err != nil {
		return nil, err
	}
	return w.done("MPI_Rget", t)
}

func (w *Win) Raccumulate(src unsafe.Pointer, oc int, ot *datatype.Type, t int, disp int64, tc int, tt *datatype.Type, o *op.Op) (*Request, error) {
	if err := w.RequestCheck("MPI_Raccumulate", t); err != nil {
		return nil, err
	}
	if err := w.Accumulate(src, oc, ot, t, disp, tc, tt, o); err != nil {
		return nil, err
	}
	return w.done("MPI_Raccumulate", t)
}

func (w *Win) RgetAccumulate(src unsafe.Pointer, oc int, ot *datatype.Type, res unsafe.Pointer, rc int, rt *datatype.Type,
	t int, disp int64, tc int, tt *datatype.Type, o *op.Op) (*Request, error) {
	if err := w.RequestCheck("MPI_Rget_accumulate", t); err != nil {
		return nil, err
	}
	if err := w.GetAccumulate(src, oc, ot, res, rc, rt, t, disp, tc, tt, o); err != nil {
		return nil, err
	}
	return w.done("MPI_Rget_accumulate", t)
}

// Slice helpers for Go programs: disp counts elements of the target's
// displacement unit, as in C.

// PutSlice writes buf to target t at disp.
func PutSlice[T Elem](w *Win, buf []T, t int, disp int64) error {
	dt := TypeOf[T]()
	return w.Put(unsafe.Pointer(unsafe.SliceData(buf)), len(buf), dt, t, disp, len(buf), dt)
}

// GetSlice reads len(buf) elements from target t at disp.
func GetSlice[T Elem](w *Win, buf []T, t int, disp int64) error {
	dt := TypeOf[T]()
	return w.Get(unsafe.Pointer(unsafe.SliceData(buf)), len(buf), dt, t, disp, len(buf), dt)
}

// AccumulateSlice combines buf into target t at disp with o.
func AccumulateSlice[T Elem](w *Win, buf []T, t int, disp int64, o *op.Op) error {
	dt := TypeOf[T]()
	return w.Accumulate(unsafe.Pointer(unsafe.SliceData(buf)), len(buf), dt, t, disp, len(buf), dt, o)
}
