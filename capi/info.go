package main

import "C"

import (
	"gompi/abi"
	"gompi/info"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// Info calls are allowed before MPI_Init (MPI-4), so they check handles, not
// the library state; errors go to MPI_COMM_WORLD's handler (fatal before Init).

func infoArg(call string, h C.int) (*info.Info, C.int) {
	in := mpi.InfoFromHandle(int32(h))
	if in == nil {
		what := "invalid info handle"
		if int32(h) == abi.InfoNull {
			what = "info is MPI_INFO_NULL"
		}
		return nil, argErr(nil, call, abi.ErrInfo, what)
	}
	return in, 0
}

func keyArg(call string, key *C.char) (string, C.int) {
	if key == nil {
		return "", argErr(nil, call, abi.ErrInfoKey, "key is NULL")
	}
	k := C.GoString(key)
	if err := info.CheckKey(k); err != nil {
		return "", objErr(nil, call, err)
	}
	return k, 0
}

//export gompi_Info_create
func gompi_Info_create(out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if out == nil {
		return argErr(nil, "MPI_Info_create", abi.ErrArg, "info pointer is NULL")
	}
	*out = C.int(mpi.NewInfoHandle(info.New()))
	return 0
}

//export gompi_Info_set
func gompi_Info_set(h C.int, key, val *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Info_set"
	in, rc := infoArg(call, h)
	if in == nil {
		return rc
	}
	k, rc := keyArg(call, key)
	if rc != 0 {
		return rc
	}
	if val == nil {
		return argErr(nil, call, abi.ErrArg, "value is NULL")
	}
	if err := in.Set(k, C.GoString(val)); err != nil {
		return objErr(nil, call, err)
	}
	return 0
}

//export gompi_Info_delete
func gompi_Info_delete(h C.int, key *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Info_delete"
	in, rc := infoArg(call, h)
	if in == nil {
		return rc
	}
	k, rc := keyArg(call, key)
	if rc != 0 {
		return rc
	}
	if err := in.Delete(k); err != nil {
		return objErr(nil, call, err)
	}
	return 0
}

// putTrunc copies at most n characters of s and a terminating NUL to dst.
func putTrunc(dst *C.char, s string, n int) {
	if len(s) > n {
		s = s[:n]
	}
	putCString(dst, s)
}

//export gompi_Info_get
func gompi_Info_get(h C.int, key *C.char, valuelen C.int, val *C.char, flag *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Info_get"
	in, rc := infoArg(call, h)
	if in == nil {
		return rc
	}
	k, rc := keyArg(call, key)
	if rc != 0 {
		return rc
	}
	if valuelen < 0 {
		return argErr(nil, call, abi.ErrArg, "valuelen is negative")
	}
	if val == nil || flag == nil {
		return argErr(nil, call, abi.ErrArg, "value or flag is NULL")
	}
	v, ok := in.Lookup(k)
	*flag = 0
	if ok {
		*flag = 1
		putTrunc(val, v, int(valuelen))
	}
	return 0
}

//export gompi_Info_get_valuelen
func gompi_Info_get_valuelen(h C.int, key *C.char, n, flag *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Info_get_valuelen"
	in, rc := infoArg(call, h)
	if in == nil {
		return rc
	}
	k, rc := keyArg(call, key)
	if rc != 0 {
		return rc
	}
	if n == nil || flag == nil {
		return argErr(nil, call, abi.ErrArg, "valuelen or flag is NULL")
	}
	v, ok := in.Lookup(k)
	*flag = 0
	if ok {
		*flag = 1
		*n = C.int(len(v))
	}
	return 0
}

//export gompi_Info_get_string
func gompi_Info_get_string(h C.int, key *C.char, buflen *C.int, val *C.char, flag *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Info_get_string"
	in, rc := infoArg(call, h)
	if in == nil {
		return rc
	}
	k, rc := keyArg(call, key)
	if rc != 0 {
		return rc
	}
	if buflen == nil || flag == nil {
		return argErr(nil, call, abi.ErrArg, "buflen or flag is NULL")
	}
	if *buflen < 0 {
		return argErr(nil, call, abi.ErrArg, "buflen is negative")
	}
	if *buflen > 0 && val == nil {
		return argErr(nil, call, abi.ErrArg, "value is NULL")
	}
	v, ok := in.Lookup(k)
	*flag = 0
	if !ok {
		return 0
	}
	*flag = 1
	if *buflen > 0 {
		putTrunc(val, v, int(*buflen)-1)
	}
	*buflen = C.int(len(v) + 1)
	return 0
}

//export gompi_Info_get_nkeys
func gompi_Info_get_nkeys(h C.int, n *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	in, rc := infoArg("MPI_Info_get_nkeys", h)
	if in == nil {
		return rc
	}
	if n == nil {
		return argErr(nil, "MPI_Info_get_nkeys", abi.ErrArg, "nkeys is NULL")
	}
	*n = C.int(in.Nkeys())
	return 0
}

//export gompi_Info_get_nthkey
func gompi_Info_get_nthkey(h C.int, n C.int, key *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Info_get_nthkey"
	in, rc := infoArg(call, h)
	if in == nil {
		return rc
	}
	if key == nil {
		return argErr(nil, call, abi.ErrArg, "key is NULL")
	}
	k, err := in.NthKey(int(n))
	if err != nil {
		return objErr(nil, call, err)
	}
	putCString(key, k)
	return 0
}

//export gompi_Info_dup
func gompi_Info_dup(h C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	in, rc := infoArg("MPI_Info_dup", h)
	if in == nil {
		return rc
	}
	if out == nil {
		return argErr(nil, "MPI_Info_dup", abi.ErrArg, "newinfo is NULL")
	}
	*out = C.int(mpi.NewInfoHandle(in.Dup()))
	return 0
}

//export gompi_Info_free
func gompi_Info_free(h *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	if h == nil {
		return argErr(nil, "MPI_Info_free", abi.ErrArg, "info pointer is NULL")
	}
	if _, rc := infoArg("MPI_Info_free", *h); rc != 0 {
		return rc
	}
	if err := mpi.FreeInfoHandle(int32(*h)); err != nil {
		return argErr(nil, "MPI_Info_free", abi.ErrInfo, "MPI_INFO_ENV cannot be freed")
	}
	*h = C.int(abi.InfoNull)
	return 0
}

// infoOptional checks an info argument that may be MPI_INFO_NULL: any other
// value must name a live info object (MPI_ERR_INFO on c otherwise).
func infoOptional(c *mpi.Comm, call string, h C.int) C.int {
	if int32(h) == abi.InfoNull || mpi.InfoFromHandle(int32(h)) != nil {
		return 0
	}
	return argErr(c, call, abi.ErrInfo, "invalid info handle")
}

// gompi_InfoArg is infoOptional for the C entry points (comm -1: none).
//
//export gompi_InfoArg
func gompi_InfoArg(comm C.int, call *C.char, h C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return infoOptional(mpi.CommFromHandle(int32(comm)), C.GoString(call), h)
}
