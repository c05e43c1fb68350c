package main

import "C"

import (
	"os"
	"runtime"
	"strconv"

	"gompi/abi"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

//export gompi_Info_create_env
func gompi_Info_create_env(out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if out == nil {
		return argErr(nil, "MPI_Info_create_env", abi.ErrArg, "info pointer is NULL")
	}
	*out = C.int(mpi.NewInfoHandle(mpi.InfoEnv().Dup()))
	return 0
}

// gompi_Get_hw_resource_info describes the node this process runs on.
//
//export gompi_Get_hw_resource_info
func gompi_Get_hw_resource_info(out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Get_hw_resource_info"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "info pointer is NULL")
	}
	in := info.New()
	host, _ := os.Hostname()
	in.Set("host", host)
	in.Set("num_cpus", strconv.Itoa(runtime.NumCPU()))
	*out = C.int(mpi.NewInfoHandle(in))
	return 0
}

//export gompi_Remove_error
func gompi_Remove_error(code, what C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady("MPI_Remove_error_class")))
	}
	var err error
	switch what {
	case 0:
		err = mpi.RemoveErrorClass(int(code))
	case 1:
		err = mpi.RemoveErrorCode(int(code))
	default:
		err = mpi.RemoveErrorString(int(code))
	}
	return C.int(mpi.Code(err))
}

// gompi_Comm_dup_info duplicates comm with new hints (MPI_Comm_dup_with_info,
// MPI_Comm_idup_with_info): an invalid info is MPI_ERR_INFO, MPI_INFO_NULL
// means none, and MPI_Comm_get_info on the duplicate returns them.
//
//export gompi_Comm_dup_info
func gompi_Comm_dup_info(comm, inh C.int, newcomm *C.int, req *C.int, ccall *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := C.GoString(ccall)
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	in, ok := infoOrNull(inh)
	if !ok {
		return argErr(c, call, abi.ErrInfo, "invalid info handle")
	}
	if call == "MPI_Comm_idup_with_info" && req == nil {
		return argErr(c, call, abi.ErrArg, "request pointer is NULL")
	}
	if in != nil {
		in = in.Dup()
	}
	if req != nil { // the hints go on at completion
		if newcomm == nil {
			return argErr(c, call, abi.ErrArg, "newcomm pointer is NULL")
		}
		h, r, err := c.IdupStart(in)
		if err != nil {
			return C.int(mpi.Code(err))
		}
		*newcomm = C.int(h)
		*req = C.int(mpi.RequestHandle(r))
		return 0
	}
	if rc := gompi_Comm_dup(comm, newcomm, req, ccall); rc != 0 {
		return rc
	}
	if d := mpi.CommFromHandle(int32(*newcomm)); d != nil {
		d.SetInfo(in)
	}
	return 0
}
