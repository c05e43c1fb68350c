package main

/*
#include "gompi.h"
*/
import "C"

import (
	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

//export gompi_Intercomm_create_from_groups
func gompi_Intercomm_create_from_groups(lgh C.int, ll C.int, rgh C.int, rl C.int, tag *C.char, inh, eh C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Intercomm_create_from_groups"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	h, fail, rc := newCommErrh(call, eh)
	if h == nil {
		return rc
	}
	lg, rg := mpi.GroupFromHandle(int32(lgh)), mpi.GroupFromHandle(int32(rgh))
	if lg == nil || lg.Size() == 0 {
		return fail(abi.ErrGroup, "invalid or empty local group")
	}
	if rg == nil || rg.Size() == 0 {
		return fail(abi.ErrGroup, "invalid or empty remote group")
	}
	if tag == nil {
		return fail(abi.ErrArg, "stringtag is NULL")
	}
	if out == nil {
		return fail(abi.ErrArg, "newintercomm pointer is NULL")
	}
	in, ok := infoOrNull(inh)
	if !ok {
		return fail(abi.ErrInfo, "invalid info handle")
	}
	c, err := mpi.IntercommFromGroups(lg, int(ll), rg, int(rl), C.GoString(tag), in, h)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	commOut(out, c)
	return 0
}
