package main

/*
#include <string.h>
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// maxSpawnArgs bounds the argv lists read from C (a missing terminating
// NULL must not walk through memory forever).
const maxSpawnArgs = 1 << 16

// dynInfoArg accepts MPI_INFO_NULL (nil) or a valid info object.
func dynInfoArg(c *mpi.Comm, call string, h C.int) (*info.Info, C.int) {
	if int32(h) == abi.InfoNull {
		return nil, 0
	}
	in := mpi.InfoFromHandle(int32(h))
	if in == nil {
		return nil, argErr(c, call, abi.ErrInfo, "invalid info handle")
	}
	return in, 0
}

// cArgv copies a NULL-terminated C argv (MPI_ARGV_NULL is NULL).
func cArgv(p **C.char) ([]string, bool) {
	if p == nil {
		return nil, true
	}
	var out []string
	for i := 0; ; i++ {
		if i == maxSpawnArgs {
			return nil, false
		}
		s := *(**C.char)(unsafe.Add(unsafe.Pointer(p), i*int(unsafe.Sizeof(p))))
		if s == nil {
			return out, true
		}
		out = append(out, C.GoString(s))
	}
}

//export gompi_Comm_spawn_multiple
func gompi_Comm_spawn_multiple(count C.int, cmds **C.char, argvs ***C.char, maxprocs *C.int, infos *C.int,
	root C.int, comm C.int, out *C.int, errcodes *C.int, ccall *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := C.GoString(ccall)
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if out == nil {
		return argErr(c, call, abi.ErrArg, "intercomm pointer is NULL")
	}
	var list []mpi.SpawnCmd
	if int(root) == c.Rank() && !c.IsInter() { // the arguments matter at root only
		if count <= 0 {
			return argErr(c, call, abi.ErrArg, "count is not positive")
		}
		// array_of_info has no NULL shorthand (its elements may be
		// MPI_INFO_NULL); only array_of_argv has one, MPI_ARGVS_NULL.
		if cmds == nil || maxprocs == nil || infos == nil {
			return argErr(c, call, abi.ErrArg, "array of commands, of maxprocs or of info is NULL")
		}
		n := int(count)
		cs := unsafe.Slice(cmds, n)
		mps := unsafe.Slice(maxprocs, n)
		for i := range n {
			if cs[i] == nil {
				return argErr(c, call, abi.ErrArg, "a command is NULL")
			}
			sc := mpi.SpawnCmd{Command: C.GoString(cs[i]), MaxProcs: int(mps[i])}
			if argvs != nil {
				a, ok := cArgv(unsafe.Slice(argvs, n)[i])
				if !ok {
					return argErr(c, call, abi.ErrArg, "an argv list has no terminating NULL")
				}
				sc.Argv = a
			}
			in, rc := dynInfoArg(c, call, unsafe.Slice(infos, n)[i])
			if rc != 0 {
				return rc
			}
			sc.Info = in
			list = append(list, sc)
		}
	}
	ic, codes, err := c.SpawnAs(call, int(root), list)
	if errcodes != nil && len(codes) > 0 {
		putInts(errcodes, codes)
	}
	commOut(out, ic)
	return C.int(mpi.Code(err))
}

//export gompi_Comm_get_parent
func gompi_Comm_get_parent(out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Comm_get_parent"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "parent pointer is NULL")
	}
	commOut(out, mpi.Parent())
	return 0
}

// putPort writes a port name (shorter than MPI_MAX_PORT_NAME) to C.
func putPort(dst *C.char, s string) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(dst)), len(s)+1)
	copy(b, s)
	b[len(s)] = 0
}

func portArg(call string, p *C.char) (string, C.int) {
	if p == nil {
		return "", argErr(nil, call, abi.ErrArg, "port name is NULL")
	}
	return C.GoStringN(p, C.int(C.strnlen(p, abi.MaxPortName))), 0
}

//export gompi_Open_port
func gompi_Open_port(inf C.int, port *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Open_port"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if _, rc := dynInfoArg(nil, call, inf); rc != 0 {
		return rc
	}
	if port == nil {
		return argErr(nil, call, abi.ErrArg, "port name buffer is NULL")
	}
	name, err := mpi.OpenPort()
	if err != nil {
		return C.int(mpi.Code(err))
	}
	putPort(port, name)
	return 0
}

//export gompi_Close_port
func gompi_Close_port(port *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Close_port"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	name, rc := portArg(call, port)
	if rc != 0 {
		return rc
	}
	return C.int(mpi.Code(mpi.ClosePort(name)))
}

//export gompi_Comm_accept_connect
func gompi_Comm_accept_connect(port *C.char, inf C.int, root C.int, comm C.int, out *C.int, accept C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Comm_connect"
	if accept != 0 {
		call = "MPI_Comm_accept"
	}
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	if out == nil {
		return argErr(c, call, abi.ErrArg, "newcomm pointer is NULL")
	}
	var name string
	if int(root) == c.Rank() { // port and info matter at root only
		if port == nil {
			return argErr(c, call, abi.ErrArg, "port name is NULL")
		}
		name = C.GoStringN(port, C.int(C.strnlen(port, abi.MaxPortName)))
		if _, rc := dynInfoArg(c, call, inf); rc != 0 {
			return rc
		}
	}
	var ic *mpi.Comm
	var err error
	if accept != 0 {
		ic, err = c.Accept(name, int(root))
	} else {
		ic, err = c.Connect(name, int(root))
	}
	commOut(out, ic)
	return C.int(mpi.Code(err))
}

//export gompi_Name_service
func gompi_Name_service(service *C.char, inf C.int, port *C.char, op C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := [...]string{"MPI_Publish_name", "MPI_Unpublish_name", "MPI_Lookup_name"}[op]
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if service == nil {
		return argErr(nil, call, abi.ErrArg, "service name is NULL")
	}
	if _, rc := dynInfoArg(nil, call, inf); rc != 0 {
		return rc
	}
	if port == nil {
		return argErr(nil, call, abi.ErrArg, "port name is NULL")
	}
	svc := C.GoString(service)
	switch op {
	case 0, 1:
		name, _ := portArg(call, port)
		if op == 0 {
			return C.int(mpi.Code(mpi.PublishName(svc, name)))
		}
		return C.int(mpi.Code(mpi.UnpublishName(svc, name)))
	}
	name, err := mpi.LookupName(svc)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	putPort(port, name)
	return 0
}

//export gompi_Comm_disconnect
func gompi_Comm_disconnect(comm *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Comm_disconnect"
	if comm == nil {
		return argErr(nil, call, abi.ErrArg, "communicator pointer is NULL")
	}
	c, rc := commArg(call, *comm)
	if c == nil {
		return rc
	}
	if err := c.Disconnect(); err != nil {
		return C.int(mpi.Code(err))
	}
	*comm = C.int(abi.CommNull)
	return 0
}

//export gompi_Comm_join
func gompi_Comm_join(fd C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Comm_join"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "intercomm pointer is NULL")
	}
	ic, err := mpi.Join(int(fd))
	commOut(out, ic)
	return C.int(mpi.Code(err))
}
