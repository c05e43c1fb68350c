package mpi

import (
	"gompi/abi"
	"gompi/pml"
)

// Request is a nonblocking operation. A nil *Request is an operation that
// already completed without needing one (immediate send, MPI_PROC_NULL).
type Request = pml.Request

// Status describes a completed receive (Count in bytes).
type Status = pml.Status

// Request handles: the engine's request id in MPICH's direct-handle layout.
// Two builtin handles stand for operations that completed before a request
// was needed: an immediate send, and a receive from MPI_PROC_NULL.
const (
	reqHandleBase    = int32(-0x54000000) // 0xac000000: direct kind, request object
	HandleSendDone   = int32(0x6c000002)
	HandleProcNullOp = int32(0x6c000003)
)

// RequestHandle is the C handle of r.
func RequestHandle(r *Request) int32 { return reqHandleBase | int32(r.ID) }

// RequestFromHandle resolves a C handle (nil when invalid).
func RequestFromHandle(h int32) *Request {
	if h&^0x3ffffff != reqHandleBase || h&(1<<25) != 0 {
		return nil
	}
	r := st.eng.Lookup(uint32(abi.HandleIndex(h)))
	if r == nil || r.Kind == 0 {
		return nil
	}
	return r
}

// ProcNullStatus is the status of an operation with MPI_PROC_NULL.
var ProcNullStatus = Status{Source: abi.ProcNull, Tag: abi.AnyTag}
