package osc

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/mem"
	"gompi/op"
)

// Every operation is done by the origin when it is called: resolve finds
// the target bytes (range and epoch checked first, so a bad argument never
// touches another rank's memory), then one copy for contiguous data, or
// pack/unpack through the window's scratch buffers, or one single-copy
// call per contiguous block.

// where is a resolved target range: ptr (direct) or addr (CMA) is the
// target buffer's origin, where the target datatype's offsets start.
type where struct {
	ptr  unsafe.Pointer
	addr uintptr
	peer int
	cma  bool
}

func (w *Window) buf(i, n int) []byte {
	if cap(w.scratch[i]) < n {
		w.scratch[i] = make([]byte, n)
	}
	return w.scratch[i][:n]
}

func bytesAt(p unsafe.Pointer, n int) []byte { return unsafe.Slice((*byte)(p), n) }

// check validates the target rank and epoch.
func (w *Window) check(t int) *Error {
	if t < 0 || t >= len(w.Targets) {
		return errf(abi.ErrRank, "target rank out of range")
	}
	if !w.Epoch.CanAccess(t) {
		return syncErr("no access epoch to the target is open")
	}
	return nil
}

// resolve checks that tc elements of tt at disp lie in target t's window
// (or an attached region) and says how to reach them. The caller made sure
// tc*tt.Size > 0.
func (w *Window) resolve(t int, disp int64, tc int, tt *datatype.Type) (where, *Error) {
	tg := &w.Targets[t]
	lo, span := spanOf(tc, tt)
	if w.Flavor == abi.WinFlavorDynamic {
		a := uintptr(disp)
		if !tg.ctl.Covers(uint64(int64(a)+lo), uint64(span), w.Idle) {
			return where{}, errf(abi.ErrRmaRange, "the target range is not in a region attached at the target")
		}
		if t == w.Me {
			return where{ptr: ptrAt(a)}, nil
		}
		if p := w.Mover.PeerAt(tg.Peer, uintptr(int64(a)+lo), int(span)); p != nil {
			return where{ptr: unsafe.Add(p, -lo)}, nil
		}
		if w.Mover.CanGet(tg.Peer) {
			return where{addr: a, peer: tg.Peer, cma: true}, nil
		}
		return where{}, errf(abi.ErrWin, "the target's memory cannot be reached (single copy refused)")
	}
	if disp < 0 {
		return where{}, errf(abi.ErrDisp, "negative target displacement")
	}
	off := disp * tg.DispUnit
	if off+lo < 0 || off+lo+span > tg.Size {
		return where{}, errf(abi.ErrRmaRange, "the target range lies outside the target's window")
	}
	if tg.Path == PathCMA {
		return where{addr: tg.Addr + uintptr(off), peer: tg.Peer, cma: true}, nil
	}
	return where{ptr: unsafe.Add(tg.Ptr, off)}, nil
}

// blocks moves packed bytes to (put) or from the target's blocks by single
// copy.
func (w *Window) blocks(at where, tc int, tt *datatype.Type, buf []byte, put bool) *Error {
	pos := 0
	var fail error
	tt.Blocks(tc, func(off, n int64) bool {
		p := unsafe.Pointer(&buf[pos])
		if put {
			fail = w.Mover.Put(at.peer, p, int(n), at.addr+uintptr(off))
		} else {
			fail = w.Mover.Get(at.peer, p, int(n), at.addr+uintptr(off))
		}
		pos += int(n)
		return fail == nil
	})
	if fail != nil {
		return errf(abi.ErrOther, "single copy to the target failed: "+fail.Error())
	}
	return nil
}

// packed is count elements of t at p as packed bytes: the memory itself
// when contiguous, else a pack into scratch buffer i.
func (w *Window) packed(i int, p unsafe.Pointer, count int, t *datatype.Type) []byte {
	n := count * t.Size
	if t.Contig {
		return bytesAt(p, n)
	}
	b := w.buf(i, n)
	t.Pack(b, p, count, 0)
	return b
}

func sizeErr() *Error {
	return errf(abi.ErrType, "origin and target data differ in size (type signatures must match)")
}

// transfer is the prologue Put and Get share: it checks the target rank and
// that both sides carry n bytes, and resolves where the target data lies.
// n == 0 with a nil error means there is nothing to move; a remote target
// is not resolved (the caller sends the operation).
func (w *Window) transfer(oc int, ot *datatype.Type, t int, disp int64, tc int, tt *datatype.Type) (where, int, *Error) {
	if err := w.check(t); err != nil {
		return where{}, 0, err
	}
	n := oc * ot.Size
	if n != tc*tt.Size {
		return where{}, 0, sizeErr()
	}
	if n == 0 || w.Remote(t) {
		return where{}, n, nil
	}
	at, err := w.resolve(t, disp, tc, tt)
	return at, n, err
}

// Put writes oc elements of ot at src into target t's window.
func (w *Window) Put(src unsafe.Pointer, oc int, ot *datatype.Type, t int, disp int64, tc int, tt *datatype.Type) *Error {
	at, n, err := w.transfer(oc, ot, t, disp, tc, tt)
	if err != nil || n == 0 {
		return err
	}
	if w.Remote(t) {
		return w.amRMA(AMPut, 0, t, disp, tc, tt, w.packed(0, src, oc, ot), nil, 0, nil, nil, nil)
	}
	if !at.cma && ot.Contig && tt.Contig {
		mem.Copy(at.ptr, src, n)
		return nil
	}
	b := w.packed(0, src, oc, ot)
	if !at.cma {
		tt.Unpack(at.ptr, tc, b, 0)
		return nil
	}
	return w.blocks(at, tc, tt, b, true)
}

// Get reads target t's data into oc elements of ot at dst.
func (w *Window) Get(dst unsafe.Pointer, oc int, ot *datatype.Type, t int, disp int64, tc int, tt *datatype.Type) *Error {
	at, n, err := w.transfer(oc, ot, t, disp, tc, tt)
	if err != nil || n == 0 {
		return err
	}
	if w.Remote(t) {
		return w.amRMA(AMGet, 0, t, disp, tc, tt, nil, dst, oc, ot, nil, nil)
	}
	if !at.cma && ot.Contig && tt.Contig {
		mem.Copy(dst, at.ptr, n)
		return nil
	}
	var b []byte
	if ot.Contig {
		b = bytesAt(dst, n)
	} else {
		b = w.buf(0, n)
	}
	if at.cma {
		if err := w.blocks(at, tc, tt, b, false); err != nil {
			return err
		}
	} else {
		tt.Pack(b, at.ptr, tc, 0)
	}
	if !ot.Contig {
		ot.Unpack(dst, oc, b, 0)
	}
	return nil
}

// accArgs checks an accumulate's op and types; it returns the base type.
func accArgs(o *op.Op, ot, tt, rt *datatype.Type, oc, tc, rc int, fetch bool) (*datatype.Type, *Error) {
	if o == nil || o.Index() < 0 {
		return nil, errf(abi.ErrOp, "one-sided accumulates take predefined ops only")
	}
	if c := o.CheckAccumulate(tt); c != 0 {
		return nil, errf(c, "the op is not defined for the target datatype")
	}
	base := op.BaseOf(tt)
	n := tc * tt.Size
	if o.Index() != op.INoOp {
		if c := o.CheckAccumulate(ot); c != 0 {
			return nil, errf(c, "the op is not defined for the origin datatype")
		}
		if op.BaseOf(ot) != base {
			return nil, errf(abi.ErrType, "origin and target datatypes are made of different predefined types")
		}
		if oc*ot.Size != n {
			return nil, sizeErr()
		}
	}
	if fetch {
		if op.BaseOf(rt) != base && rc*rt.Size > 0 {
			return nil, errf(abi.ErrType, "result and target datatypes are made of different predefined types")
		}
		if rc*rt.Size != n {
			return nil, errf(abi.ErrType, "result and target data differ in size")
		}
	}
	return base, nil
}

// Accumulate combines origin data into target t's window, element-wise
// atomically (MPI_Accumulate).
func (w *Window) Accumulate(src unsafe.Pointer, oc int, ot *datatype.Type, t int, disp int64, tc int, tt *datatype.Type, o *op.Op) *Error {
	return w.accumulate(src, oc, ot, nil, 0, nil, t, disp, tc, tt, o, false)
}

// GetAccumulate also returns the target's previous data in res.
func (w *Window) GetAccumulate(src unsafe.Pointer, oc int, ot *datatype.Type, res unsafe.Pointer, rc int, rt *datatype.Type,
	t int, disp int64, tc int, tt *datatype.Type, o *op.Op) *Error {
	return w.accumulate(src, oc, ot, res, rc, rt, t, disp, tc, tt, o, true)
}

func (w *Window) accumulate(src unsafe.Pointer, oc int, ot *datatype.Type, res unsafe.Pointer, rc int, rt *datatype.Type,
	t int, disp int64, tc int, tt *datatype.Type, o *op.Op, fetch bool) *Error {
	if err := w.check(t); err != nil {
		return err
	}
	base, err := accArgs(o, ot, tt, rt, oc, tc, rc, fetch)
	if err != nil {
		return err
	}
	n := tc * tt.Size
	opi := o.Index()
	if n == 0 || opi == op.INoOp && !fetch {
		return nil
	}
	if w.Remote(t) {
		return w.amAccumulate(src, oc, ot, res, rc, rt, t, disp, tc, tt, o, base, fetch)
	}
	at, err := w.resolve(t, disp, tc, tt)
	if err != nil {
		return err
	}
	kind := op.AtomicKind(base)
	atomic := w.Atomics && !at.cma && atomicFits(kind, opi)
	if atomic && tt.Contig && (opi == op.INoOp || ot.Contig) && (!fetch || rt.Contig) {
		var s, r unsafe.Pointer
		if opi != op.INoOp {
			s = src
		}
		if fetch {
			r = res
		}
		atomicApplyRange(kind, opi, at.ptr, s, r, n)
		return nil
	}
	var in, out []byte
	if opi != op.INoOp {
		in = w.packed(0, src, oc, ot)
		if base.Size != base.Extent && ot.Contig { // padded pairs: packed form differs
			in = w.buf(0, n)
			ot.Pack(in, src, oc, 0)
		}
	}
	if fetch {
		out = w.buf(1, n)
	}
	bs := base.Size
	ctl := w.Targets[t].ctl
	if !atomic && bs != base.Extent {
		return w.accumulatePadded(at, tc, tt, o, base, in, out, res, rc, rt, ctl)
	}
	if !atomic {
		ctl.Lock(w.Idle)
	}
	pos := 0
	var fail error
	tt.Blocks(tc, func(off, l int64) bool {
		m := int(l)
		if atomic {
			var s, r unsafe.Pointer
			if in != nil {
				s = unsafe.Pointer(&in[pos])
			}
			if out != nil {
				r = unsafe.Pointer(&out[pos])
			}
			atomicApplyRange(kind, opi, unsafe.Add(at.ptr, off), s, r, m)
			pos += m
			return true
		}
		var tp unsafe.Pointer
		if at.cma {
			tmp := w.buf(2, m)
			tp = unsafe.Pointer(&tmp[0])
			if fail = w.Mover.Get(at.peer, tp, m, at.addr+uintptr(off)); fail != nil {
				return false
			}
		} else {
			tp = unsafe.Add(at.ptr, off)
		}
		if out != nil {
			mem.Copy(unsafe.Pointer(&out[pos]), tp, m)
		}
		if in != nil {
			o.ApplyPacked(unsafe.Pointer(&in[pos]), tp, m/bs, base)
			if at.cma {
				fail = w.Mover.Put(at.peer, tp, m, at.addr+uintptr(off))
			}
		}
		pos += m
		return fail == nil
	})
	if !atomic {
		ctl.Unlock()
	}
	if fail != nil {
		return errf(abi.ErrOther, "single copy to the target failed: "+fail.Error())
	}
	if fetch {
		rt.Unpack(res, rc, out, 0)
	}
	return nil
}

// accumulatePadded folds into a padded pair type (MPI_SHORT_INT...), whose
// type map splits each element into blocks smaller than the element: the
// target's elements are gathered packed, folded whole, and scattered back,
// all under the target's mutex.
func (w *Window) accumulatePadded(at where, tc int, tt *datatype.Type, o *op.Op, base *datatype.Type,
	in, out []byte, res unsafe.Pointer, rc int, rt *datatype.Type, ctl *Ctl) *Error {
	n := tc * tt.Size
	cur := w.buf(2, n)
	ctl.Lock(w.Idle)
	var e *Error
	if at.cma {
		e = w.blocks(at, tc, tt, cur, false)
	} else {
		tt.Pack(cur, at.ptr, tc, 0)
	}
	if e == nil && out != nil {
		copy(out, cur)
	}
	if e == nil && in != nil {
		o.ApplyPacked(unsafe.Pointer(&in[0]), unsafe.Pointer(&cur[0]), n/base.Size, base)
		if at.cma {
			e = w.blocks(at, tc, tt, cur, true)
		} else {
			tt.Unpack(at.ptr, tc, cur, 0)
		}
	}
	ctl.Unlock()
	if e != nil {
		return e
	}
	if out != nil {
		rt.Unpack(res, rc, out, 0)
	}
	return nil
}

// FetchAndOp is MPI_Fetch_and_op: one element, CPU atomics when possible.
func (w *Window) FetchAndOp(src, res unsafe.Pointer, dt *datatype.Type, t int, disp int64, o *op.Op) *Error {
	if w.Atomics && dt.Builtin && o != nil && t >= 0 && t < len(w.Targets) && w.Epoch.CanAccess(t) {
		kind, opi := op.AtomicKind(dt), o.Index()
		tg := &w.Targets[t]
		off := disp * tg.DispUnit
		if atomicFits(kind, opi) && tg.Path == PathDirect && disp >= 0 && off+int64(dt.Size) <= tg.Size &&
			w.Flavor != abi.WinFlavorDynamic && (opi == op.INoOp || o.CheckAccumulate(dt) == 0) {
			var v uint64
			if opi != op.INoOp {
				v = loadElem(kind, src)
			}
			storeElem(kind, res, atomicApply(kind, opi, unsafe.Add(tg.Ptr, off), v))
			return nil
		}
	}
	return w.accumulate(src, 1, dt, res, 1, dt, t, disp, 1, dt, o, true)
}

// CompareAndSwap is MPI_Compare_and_swap on one element of a predefined
// type: the target takes src when it equals cmp; res gets its old value.
func (w *Window) CompareAndSwap(src, cmp, res unsafe.Pointer, dt *datatype.Type, t int, disp int64) *Error {
	if err := w.check(t); err != nil {
		return err
	}
	if !dt.Builtin {
		return errf(abi.ErrType, "compare-and-swap takes a predefined datatype")
	}
	if w.Remote(t) {
		sz := dt.Size
		in := w.buf(2, 2*sz)
		mem.Copy(unsafe.Pointer(&in[0]), src, sz)
		mem.Copy(unsafe.Pointer(&in[sz]), cmp, sz)
		return w.amRMA(AMCas, 0, t, disp, 1, dt, in, res, 1, dt, nil, nil)
	}
	at, err := w.resolve(t, disp, 1, dt)
	if err != nil {
		return err
	}
	sz := dt.Size
	if w.Atomics && !at.cma && (sz == 1 || sz == 2 || sz == 4 || sz == 8) {
		kind := [9]int{1: op.AtomU8, 2: op.AtomU16, 4: op.AtomU32, 8: op.AtomU64}[sz]
		storeElem(kind, res, casElem(sz, at.ptr, loadElem(kind, cmp), loadElem(kind, src)))
		return nil
	}
	ctl := w.Targets[t].ctl
	ctl.Lock(w.Idle)
	defer ctl.Unlock()
	tmp := w.buf(2, sz)
	tp := unsafe.Pointer(&tmp[0])
	if at.cma {
		if e := w.Mover.Get(at.peer, tp, sz, at.addr); e != nil {
			return errf(abi.ErrOther, "single copy from the target failed: "+e.Error())
		}
	} else {
		mem.Copy(tp, at.ptr, sz)
	}
	mem.Copy(res, tp, sz)
	if string(tmp) == string(bytesAt(cmp, sz)) {
		if at.cma {
			if e := w.Mover.Put(at.peer, src, sz, at.addr); e != nil {
				return errf(abi.ErrOther, "single copy to the target failed: "+e.Error())
			}
		} else {
			mem.Copy(at.ptr, src, sz)
		}
	}
	return nil
}

// amAccumulate sends an accumulate to a remote target: the origin data
// packed (padded pair types included, whose packed form is the elements
// without padding), folded at the target.
func (w *Window) amAccumulate(src unsafe.Pointer, oc int, ot *datatype.Type, res unsafe.Pointer, rc int, rt *datatype.Type,
	t int, disp int64, tc int, tt *datatype.Type, o *op.Op, base *datatype.Type, fetch bool) *Error {
	var in []byte
	if o.Index() != op.INoOp {
		n := tc * tt.Size
		in = w.buf(0, n)
		ot.Pack(in, src, oc, 0)
	}
	var flags uint8
	if fetch {
		flags = AMFetch
	}
	return w.amRMA(AMAcc, flags, t, disp, tc, tt, in, res, rc, rt, o, base)
}
