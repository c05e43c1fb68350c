package main

import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// gompi_Buffer_op runs one buffer call on the process (obj 0), a
// communicator (1) or a session (2): op 0 flush, 1 iflush, 2 attach,
// 3 detach. An iflush flushes, then returns a completed request.
//
//export gompi_Buffer_op
func gompi_Buffer_op(obj, h C.int, buf unsafe.Pointer, size C.long, outSize unsafe.Pointer, req *C.int, op C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	wide := op&wideBit != 0
	op &^= wideBit
	what := [...]string{"Buffer_", "Comm_", "Session_"}[obj]
	verb := [...]string{"flush", "iflush", "attach_buffer", "detach_buffer"}[op]
	if obj > 0 && op < 2 {
		verb += "_buffer"
	}
	call := callC("MPI_"+what+verb, wide)
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if op == 1 && req == nil {
		return argErr(nil, call, abi.ErrArg, "request pointer is NULL")
	}
	if op == 3 && (buf == nil || outSize == nil) {
		return argErr(nil, call, abi.ErrArg, "buffer_addr or size is NULL")
	}
	var err error
	var addr unsafe.Pointer
	var n int
	switch obj {
	case 0:
		mpi.FlushBuffer()
	case 1:
		c, rc := commArg(call, h)
		if c == nil {
			return rc
		}
		switch op {
		case 2:
			err = c.AttachBuffer(buf, int(size))
		case 3:
			addr, n, err = c.DetachBuffer()
		default:
			c.FlushBuffer()
		}
	case 2:
		s, rc := sessionArg(call, h)
		if s == nil {
			return rc
		}
		switch op {
		case 2:
			err = s.AttachBuffer(buf, int(size))
		case 3:
			addr, n, err = s.DetachBuffer()
		default:
			s.FlushBuffer()
		}
	}
	if err != nil {
		return C.int(mpi.Code(err))
	}
	if op == 3 {
		*(*unsafe.Pointer)(buf) = addr
		if !putCount(outSize, wide, n) {
			return argErr(nil, call, abi.ErrValueTooLarge, "the buffer size does not fit an int: use the _c call")
		}
	}
	if op == 1 {
		*req = C.int(mpi.RequestHandle(mpi.DoneRequest()))
	}
	return 0
}
