package main

import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// Synchronisation calls share one entry; which says which.
var syncNames = [...]string{"MPI_Win_fence", "MPI_Win_lock", "MPI_Win_unlock", "MPI_Win_lock_all",
	"MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_flush_local", "MPI_Win_flush_all",
	"MPI_Win_flush_local_all", "MPI_Win_sync", "MPI_Win_complete", "MPI_Win_wait", "MPI_Win_start", "MPI_Win_post"}

//export gompi_Win_sync_call
func gompi_Win_sync_call(win, which, assert, rank, typ C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := syncNames[which]
	w, rc := winArg(call, win)
	if w == nil {
		return rc
	}
	var err error
	switch which {
	case 0:
		err = w.Fence(int(assert))
	case 1:
		err = w.Lock(int(typ), int(rank), int(assert))
	case 2:
		err = w.Unlock(int(rank))
	case 3:
		err = w.LockAll(int(assert))
	case 4:
		err = w.UnlockAll()
	case 5:
		err = w.Flush(int(rank))
	case 6:
		err = w.FlushLocal(int(rank))
	case 7:
		err = w.FlushAll()
	case 8:
		err = w.FlushLocalAll()
	case 9:
		err = w.Sync()
	case 10:
		err = w.Complete()
	case 11:
		err = w.Wait()
	case 12, 13:
		g := mpi.GroupFromHandle(int32(rank))
		if g == nil {
			return winErr(w, call, abi.ErrGroup, "invalid group handle")
		}
		if which == 12 {
			err = w.Start(g, int(assert))
		} else {
			err = w.Post(g, int(assert))
		}
	}
	winFastSync(w)
	return C.int(mpi.Code(err))
}

//export gompi_Win_test
func gompi_Win_test(win C.int, flag *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Win_test"
	w, rc := winArg(call, win)
	if w == nil {
		return rc
	}
	if flag == nil {
		return winErr(w, call, abi.ErrArg, "flag is NULL")
	}
	ok, err := w.Test()
	winFastSync(w)
	*flag = cbool(ok)
	return C.int(mpi.Code(err))
}

var rmaNames = [2][4]string{
	{"MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate"},
	{"MPI_Rput", "MPI_Rget", "MPI_Raccumulate", "MPI_Rget_accumulate"},
}

// gompi_Win_rma is every data-moving call: kind 0 put, 1 get, 2
// accumulate, 3 get_accumulate; plus 4 (RMA_REQ) for the request forms,
// whose request pointer req must not be NULL.
//
//export gompi_Win_rma
func gompi_Win_rma(kind C.int, obuf unsafe.Pointer, oc C.long, odt C.int, rbuf unsafe.Pointer, rc C.long, rdt C.int,
	t C.int, disp C.long, tc C.long, tdt, opH, win C.int, req *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	wide := kind&wideBit != 0
	kind &^= wideBit
	r := kind >> 2 // 1: a request form (RMA_REQ in win.c)
	kind &= 3
	call := callC(rmaNames[r][kind], wide)
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	w := mpi.WinFromHandle(int32(win))
	if w == nil {
		_, code := winArg(call, win)
		return code
	}
	if r == 1 && req == nil {
		return winErr(w, call, abi.ErrArg, "request is NULL")
	}
	ot, tt := mpi.TypeFromHandle(int32(odt)), mpi.TypeFromHandle(int32(tdt))
	if tt == nil || ot == nil && !(kind == 3 && int32(opH) == abi.OpNoOp) {
		return winErr(w, call, abi.ErrType, "invalid datatype")
	}
	if req != nil {
		if err := w.RequestCheck(call, int(t)); err != nil {
			return C.int(mpi.Code(err))
		}
	}
	var err error
	switch kind {
	case 0:
		err = w.Put(obuf, int(oc), ot, int(t), int64(disp), int(tc), tt)
	case 1:
		err = w.Get(obuf, int(oc), ot, int(t), int64(disp), int(tc), tt)
	default:
		o := mpi.OpFromHandle(int32(opH))
		if o == nil {
			return winErr(w, call, abi.ErrOp, "invalid op")
		}
		if kind == 2 {
			err = w.Accumulate(obuf, int(oc), ot, int(t), int64(disp), int(tc), tt, o)
		} else {
			rt := mpi.TypeFromHandle(int32(rdt))
			if rt == nil {
				return winErr(w, call, abi.ErrType, "invalid result datatype")
			}
			err = w.GetAccumulate(obuf, int(oc), ot, rbuf, int(rc), rt, int(t), int64(disp), int(tc), tt, o)
		}
	}
	if err != nil {
		return C.int(mpi.Code(err))
	}
	if req != nil {
		rq, err := w.RequestDone(call, int(t))
		if err != nil {
			return C.int(mpi.Code(err))
		}
		*req = C.int(mpi.RequestHandle(rq))
	}
	return 0
}

// gompi_Win_atomic is MPI_Fetch_and_op (kind 0) and MPI_Compare_and_swap (1).
//
//export gompi_Win_atomic
func gompi_Win_atomic(kind C.int, obuf, cbuf, rbuf unsafe.Pointer, dt, t C.int, disp C.long, opH, win C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Fetch_and_op"
	if kind == 1 {
		call = "MPI_Compare_and_swap"
	}
	w, rc := winArg(call, win)
	if w == nil {
		return rc
	}
	d := mpi.TypeFromHandle(int32(dt))
	if d == nil {
		return winErr(w, call, abi.ErrType, "invalid datatype")
	}
	if kind == 1 {
		return C.int(mpi.Code(w.CompareAndSwap(obuf, cbuf, rbuf, d, int(t), int64(disp))))
	}
	o := mpi.OpFromHandle(int32(opH))
	if o == nil {
		return winErr(w, call, abi.ErrOp, "invalid op")
	}
	return C.int(mpi.Code(w.FetchAndOp(obuf, rbuf, d, int(t), int64(disp), o)))
}
