package main

import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/group"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// groupArg resolves a group handle; MPI_GROUP_NULL and stale or forged
// handles are MPI_ERR_GROUP.
func groupArg(call, name string, h C.int) (*group.Group, C.int) {
	if !mpi.Ready() {
		return nil, C.int(mpi.Code(mpi.NotReady(call)))
	}
	g := mpi.GroupFromHandle(int32(h))
	if g == nil {
		what := "invalid group handle"
		if int32(h) == abi.GroupNull {
			what = "is MPI_GROUP_NULL"
		}
		return nil, argErr(nil, call, abi.ErrGroup, name+": "+what)
	}
	return g, 0
}

//export gompi_Group_size
func gompi_Group_size(h C.int, size *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	g, rc := groupArg("MPI_Group_size", "group", h)
	if g == nil {
		return rc
	}
	if size == nil {
		return argErr(nil, "MPI_Group_size", abi.ErrArg, "size pointer is NULL")
	}
	*size = C.int(g.Size())
	return 0
}

//export gompi_Group_rank
func gompi_Group_rank(h C.int, rank *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	g, rc := groupArg("MPI_Group_rank", "group", h)
	if g == nil {
		return rc
	}
	if rank == nil {
		return argErr(nil, "MPI_Group_rank", abi.ErrArg, "rank pointer is NULL")
	}
	*rank = C.int(g.Rank(mpi.WorldRank()))
	return 0
}

//export gompi_Group_translate_ranks
func gompi_Group_translate_ranks(h1 C.int, n C.int, ranks1 *C.int, h2 C.int, ranks2 *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Group_translate_ranks"
	g1, rc := groupArg(call, "group1", h1)
	if g1 == nil {
		return rc
	}
	g2, rc := groupArg(call, "group2", h2)
	if g2 == nil {
		return rc
	}
	if n < 0 {
		return argErr(nil, call, abi.ErrArg, "n is negative")
	}
	if n > 0 && (ranks1 == nil || ranks2 == nil) {
		return argErr(nil, call, abi.ErrArg, "ranks1 or ranks2 is NULL")
	}
	out, err := group.Translate(g1, intSlice(ranks1, int(n)), g2)
	if err != nil {
		return objErr(nil, call, err)
	}
	putInts(ranks2, out)
	return 0
}

//export gompi_Group_compare
func gompi_Group_compare(h1, h2 C.int, result *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Group_compare"
	g1, rc := groupArg(call, "group1", h1)
	if g1 == nil {
		return rc
	}
	g2, rc := groupArg(call, "group2", h2)
	if g2 == nil {
		return rc
	}
	if result == nil {
		return argErr(nil, call, abi.ErrArg, "result pointer is NULL")
	}
	*result = C.int(group.Compare(g1, g2))
	return 0
}

// setOp runs a two-group operation and returns the new handle.
func setOp(call string, h1, h2 C.int, out *C.int, op func(a, b *group.Group) *group.Group) C.int {
	g1, rc := groupArg(call, "group1", h1)
	if g1 == nil {
		return rc
	}
	g2, rc := groupArg(call, "group2", h2)
	if g2 == nil {
		return rc
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "newgroup pointer is NULL")
	}
	*out = C.int(mpi.NewGroupHandle(op(g1, g2)))
	return 0
}

//export gompi_Group_union
func gompi_Group_union(h1, h2 C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return setOp("MPI_Group_union", h1, h2, out, group.Union)
}

//export gompi_Group_intersection
func gompi_Group_intersection(h1, h2 C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return setOp("MPI_Group_intersection", h1, h2, out, group.Intersection)
}

//export gompi_Group_difference
func gompi_Group_difference(h1, h2 C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return setOp("MPI_Group_difference", h1, h2, out, group.Difference)
}

// listOp runs Incl/Excl on n ranks.
func listOp(call string, h C.int, n C.int, ranks *C.int, out *C.int, op func(*group.Group, []int) (*group.Group, error)) C.int {
	g, rc := groupArg(call, "group", h)
	if g == nil {
		return rc
	}
	if n < 0 {
		return argErr(nil, call, abi.ErrArg, "n is negative")
	}
	if n > 0 && ranks == nil {
		return argErr(nil, call, abi.ErrArg, "ranks is NULL")
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "newgroup pointer is NULL")
	}
	ng, err := op(g, intSlice(ranks, int(n)))
	if err != nil {
		return objErr(nil, call, err)
	}
	*out = C.int(mpi.NewGroupHandle(ng))
	return 0
}

//export gompi_Group_incl
func gompi_Group_incl(h C.int, n C.int, ranks *C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return listOp("MPI_Group_incl", h, n, ranks, out, group.Incl)
}

//export gompi_Group_excl
func gompi_Group_excl(h C.int, n C.int, ranks *C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return listOp("MPI_Group_excl", h, n, ranks, out, group.Excl)
}

// rangeOp runs RangeIncl/RangeExcl on n (first, last, stride) triplets.
func rangeOp(call string, h C.int, n C.int, ranges *C.int, out *C.int, op func(*group.Group, [][3]int) (*group.Group, error)) C.int {
	g, rc := groupArg(call, "group", h)
	if g == nil {
		return rc
	}
	if n < 0 {
		return argErr(nil, call, abi.ErrArg, "n is negative")
	}
	if n > 0 && ranges == nil {
		return argErr(nil, call, abi.ErrArg, "ranges is NULL")
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "newgroup pointer is NULL")
	}
	var tr [][3]int
	if n > 0 {
		flat := unsafe.Slice(ranges, 3*int(n))
		tr = make([][3]int, n)
		for i := range tr {
			tr[i] = [3]int{int(flat[3*i]), int(flat[3*i+1]), int(flat[3*i+2])}
		}
	}
	ng, err := op(g, tr)
	if err != nil {
		return objErr(nil, call, err)
	}
	*out = C.int(mpi.NewGroupHandle(ng))
	return 0
}

//export gompi_Group_range_incl
func gompi_Group_range_incl(h C.int, n C.int, ranges *C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return rangeOp("MPI_Group_range_incl", h, n, ranges, out, group.RangeIncl)
}

//export gompi_Group_range_excl
func gompi_Group_range_excl(h C.int, n C.int, ranges *C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	return rangeOp("MPI_Group_range_excl", h, n, ranges, out, group.RangeExcl)
}

//export gompi_Group_free
func gompi_Group_free(h *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Group_free"
	if !mpi.Ready() {
		return C.int(mpi.Code(mpi.NotReady(call)))
	}
	if h == nil {
		return argErr(nil, call, abi.ErrArg, "group pointer is NULL")
	}
	if _, rc := groupArg(call, "group", *h); rc != 0 {
		return rc
	}
	if err := mpi.FreeGroupHandle(int32(*h)); err != nil {
		return objErr(nil, call, err)
	}
	*h = C.int(abi.GroupNull)
	return 0
}
