package main

/*
#include <stdint.h>
*/
import "C"

import (
	"unsafe"

	"gompi/abi"
	"gompi/internal/mtlock"
	"gompi/mpi"
)

// notReady reports a datatype call made outside MPI_Init..MPI_Finalize.
func dtNotReady(call string) C.int { return C.int(mpi.Code(mpi.NotReady(call))) }

// typeArg resolves a datatype handle, raising MPI_ERR_TYPE when invalid.
func dtArg(call string, h C.int) (*mpi.Datatype, C.int) {
	t := mpi.TypeFromHandle(int32(h))
	if t != nil {
		return t, 0
	}
	what := "invalid datatype handle"
	if int32(h) == abi.DatatypeNull {
		what = "datatype is MPI_DATATYPE_NULL"
	}
	return nil, argErr(nil, call, abi.ErrType, what)
}

// gompi_NullArg reports an invalid pointer argument found in C (what says which).
//
//export gompi_NullArg
func gompi_NullArg(call, what *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	if !mpi.Ready() {
		return dtNotReady(name)
	}
	return argErr(nil, name, abi.ErrArg, C.GoString(what))
}

// cInts and cAints view C arrays (nil for a NULL pointer or no elements).
func dtCInts(p *C.int, n int) []C.int {
	if p == nil || n <= 0 {
		return nil
	}
	return unsafe.Slice(p, n)
}

func dtInts(p *C.int, n int) []int {
	out := make([]int, max(n, 0))
	for i, v := range dtCInts(p, n) {
		out[i] = int(v)
	}
	return out
}

// dtCounts reads n ints, or n MPI_Counts when wide (an _c constructor).
func dtCounts(p unsafe.Pointer, n int, wide bool) []int {
	if !wide {
		return dtInts((*C.int)(p), n)
	}
	out := make([]int, max(n, 0))
	copy(out, countSlice(p, n, true))
	return out
}

func dtAints(p *C.long, n int) []int64 {
	out := make([]int64, max(n, 0))
	if p != nil && n > 0 {
		for i, v := range unsafe.Slice(p, n) {
			out[i] = int64(v)
		}
	}
	return out
}

// newTypeOut checks a constructor's common arguments: the library is ready
// and newtype is not NULL.
func newTypeOut(call string, out *C.int) C.int {
	if !mpi.Ready() {
		return dtNotReady(call)
	}
	if out == nil {
		return argErr(nil, call, abi.ErrArg, "newtype is NULL")
	}
	return 0
}

// setNew stores the handle of a type a constructor made.
func setNew(out *C.int, t *mpi.Datatype, err error) C.int {
	if err != nil {
		return C.int(mpi.Code(err))
	}
	*out = C.int(t.Handle)
	return 0
}

//export gompi_Type_contiguous
func gompi_Type_contiguous(count C.long, old C.int, out *C.int, wide C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := callC("MPI_Type_contiguous", wide != 0)
	if rc := newTypeOut(call, out); rc != 0 {
		return rc
	}
	o, rc := dtArg(call, old)
	if o == nil {
		return rc
	}
	t, err := mpi.TypeContiguous(int(count), o)
	return setNew(out, t, err)
}

var vectorNames = [...]string{"MPI_Type_vector", "MPI_Type_create_hvector", "MPI_Type_hvector"}

//export gompi_Type_vector
func gompi_Type_vector(count, blocklen C.long, stride C.long, old C.int, out *C.int, kind C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	wide := kind&wideBit != 0
	kind &^= wideBit
	call := callC(vectorNames[kind], wide)
	if rc := newTypeOut(call, out); rc != 0 {
		return rc
	}
	o, rc := dtArg(call, old)
	if o == nil {
		return rc
	}
	var t *mpi.Datatype
	var err error
	if kind == 0 {
		t, err = mpi.TypeVector(int(count), int(blocklen), int(stride), o)
	} else {
		t, err = mpi.TypeHvector(int(count), int(blocklen), int64(stride), o)
	}
	return setNew(out, t, err)
}

var indexedNames = [...]string{"MPI_Type_indexed", "MPI_Type_create_hindexed", "MPI_Type_hindexed",
	"MPI_Type_create_indexed_block", "MPI_Type_create_hindexed_block"}

//export gompi_Type_indexed
func gompi_Type_indexed(count C.long, blocklens unsafe.Pointer, blocklen C.long, disps unsafe.Pointer, old C.int, out *C.int, kind C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	wide := kind&wideBit != 0
	kind &^= wideBit
	call := callC(indexedNames[kind], wide)
	if rc := newTypeOut(call, out); rc != 0 {
		return rc
	}
	if count < 0 {
		return argErr(nil, call, abi.ErrCount, "count is negative")
	}
	if count > 0 && (disps == nil || kind < 3 && blocklens == nil) {
		return argErr(nil, call, abi.ErrArg, "an array argument is NULL")
	}
	o, rc := dtArg(call, old)
	if o == nil {
		return rc
	}
	n := int(count)
	var t *mpi.Datatype
	var err error
	switch kind {
	case 0:
		t, err = mpi.TypeIndexed(dtCounts(blocklens, n, wide), dtCounts(disps, n, wide), o)
	case 1, 2:
		t, err = mpi.TypeHindexed(dtCounts(blocklens, n, wide), dtAints((*C.long)(disps), n), o)
	case 3:
		t, err = mpi.TypeIndexedBlock(int(blocklen), dtCounts(disps, n, wide), o)
	default:
		t, err = mpi.TypeHindexedBlock(int(blocklen), dtAints((*C.long)(disps), n), o)
	}
	return setNew(out, t, err)
}

//export gompi_Type_struct
func gompi_Type_struct(count C.long, blocklens unsafe.Pointer, disps *C.long, types *C.int, out *C.int, mpi1 C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	wide := mpi1&wideBit != 0
	mpi1 &^= wideBit
	call := callC("MPI_Type_create_struct", wide)
	if mpi1 != 0 {
		call = "MPI_Type_struct"
	}
	if rc := newTypeOut(call, out); rc != 0 {
		return rc
	}
	if count < 0 {
		return argErr(nil, call, abi.ErrCount, "count is negative")
	}
	n := int(count)
	if n > 0 && (blocklens == nil || disps == nil || types == nil) {
		return argErr(nil, call, abi.ErrArg, "an array argument is NULL")
	}
	ts := make([]*mpi.Datatype, n)
	for i, h := range dtCInts(types, n) {
		if ts[i] = mpi.TypeFromHandle(int32(h)); ts[i] == nil {
			return argErr(nil, call, abi.ErrType, "array_of_types holds an invalid datatype")
		}
	}
	t, err := mpi.TypeStruct(dtCounts(blocklens, n, wide), dtAints(disps, n), ts)
	return setNew(out, t, err)
}

//export gompi_Type_create_subarray
func gompi_Type_create_subarray(ndims C.int, sizes, subsizes, starts unsafe.Pointer, order, old C.int, out *C.int, wide C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := callC("MPI_Type_create_subarray", wide != 0)
	if rc := newTypeOut(call, out); rc != 0 {
		return rc
	}
	n := int(ndims)
	if n <= 0 {
		return argErr(nil, call, abi.ErrArg, "ndims is not positive")
	}
	if sizes == nil || subsizes == nil || starts == nil {
		return argErr(nil, call, abi.ErrArg, "an array argument is NULL")
	}
	o, rc := dtArg(call, old)
	if o == nil {
		return rc
	}
	w := wide != 0
	t, err := mpi.TypeSubarray(dtCounts(sizes, n, w), dtCounts(subsizes, n, w), dtCounts(starts, n, w), int(order), o)
	return setNew(out, t, err)
}

//export gompi_Type_create_darray
func gompi_Type_create_darray(size, rank, ndims C.int, gsizes unsafe.Pointer, distribs, dargs, psizes *C.int, order, old C.int, out *C.int, wide C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := callC("MPI_Type_create_darray", wide != 0)
	if rc := newTypeOut(call, out); rc != 0 {
		return rc
	}
	n := int(ndims)
	if n <= 0 {
		return argErr(nil, call, abi.ErrArg, "ndims is not positive")
	}
	if gsizes == nil || distribs == nil || dargs == nil || psizes == nil {
		return argErr(nil, call, abi.ErrArg, "an array argument is NULL")
	}
	o, rc := dtArg(call, old)
	if o == nil {
		return rc
	}
	t, err := mpi.TypeDarray(int(size), int(rank), dtCounts(gsizes, n, wide != 0), dtInts(distribs, n), dtInts(dargs, n),
		dtInts(psizes, n), int(order), o)
	return setNew(out, t, err)
}

//export gompi_Type_create_resized
func gompi_Type_create_resized(old C.int, lb, extent C.long, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Type_create_resized"
	if rc := newTypeOut(call, out); rc != 0 {
		return rc
	}
	o, rc := dtArg(call, old)
	if o == nil {
		return rc
	}
	t, err := mpi.TypeResized(o, int64(lb), int64(extent))
	return setNew(out, t, err)
}

//export gompi_Type_dup
func gompi_Type_dup(old C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Type_dup"
	if rc := newTypeOut(call, out); rc != 0 {
		return rc
	}
	o, rc := dtArg(call, old)
	if o == nil {
		return rc
	}
	t, err := mpi.TypeDup(o)
	return setNew(out, t, err)
}

// typeInOut resolves the handle behind a datatype pointer argument.
func typeInOut(call string, p *C.int) (*mpi.Datatype, C.int) {
	if !mpi.Ready() {
		return nil, dtNotReady(call)
	}
	if p == nil {
		return nil, argErr(nil, call, abi.ErrArg, "datatype pointer is NULL")
	}
	return dtArg(call, *p)
}

//export gompi_Type_commit
func gompi_Type_commit(p *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	t, rc := typeInOut("MPI_Type_commit", p)
	if t == nil {
		return rc
	}
	return C.int(mpi.Code(mpi.TypeCommit(t)))
}

//export gompi_Type_free
func gompi_Type_free(p *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	t, rc := typeInOut("MPI_Type_free", p)
	if t == nil {
		return rc
	}
	if err := mpi.TypeFree(t); err != nil {
		return C.int(mpi.Code(err))
	}
	*p = C.int(abi.DatatypeNull)
	return 0
}

// queryType checks a query's readiness and datatype handle.
func queryType(call string, h C.int) (*mpi.Datatype, C.int) {
	if !mpi.Ready() {
		return nil, dtNotReady(call)
	}
	return dtArg(call, h)
}

//export gompi_Type_size
func gompi_Type_size(dt C.int, size *C.long, isNull C.int, call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	t, rc := queryType(name, dt)
	if t == nil {
		return rc
	}
	if isNull != 0 {
		return argErr(nil, name, abi.ErrArg, "size is NULL")
	}
	*size = C.long(t.Size)
	return 0
}

// Extent query modes (dtype.c).
const (
	extExtent = iota
	extTrue
	extMPI1Extent
	extMPI1LB
	extMPI1UB
)

//export gompi_Type_extent
func gompi_Type_extent(dt C.int, lb, extent *C.long, mode C.int, call *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	name := C.GoString(call)
	t, rc := queryType(name, dt)
	if t == nil {
		return rc
	}
	if lb == nil || extent == nil {
		return argErr(nil, name, abi.ErrArg, "an output argument is NULL")
	}
	switch mode {
	case extTrue:
		*lb, *extent = C.long(t.TrueLB), C.long(t.TrueExtent)
	case extMPI1UB:
		*lb = C.long(t.LB + t.Extent)
	default:
		*lb, *extent = C.long(t.LB), C.long(t.Extent)
	}
	return 0
}

//export gompi_Type_get_envelope
func gompi_Type_get_envelope(dt C.int, ni, na, nd, combiner *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Type_get_envelope"
	t, rc := queryType(call, dt)
	if t == nil {
		return rc
	}
	if ni == nil || na == nil || nd == nil || combiner == nil {
		return argErr(nil, call, abi.ErrArg, "an output argument is NULL")
	}
	a, b, c, d := t.Envelope()
	*ni, *na, *nd, *combiner = C.int(a), C.int(b), C.int(c), C.int(d)
	return 0
}

//export gompi_Type_get_contents
func gompi_Type_get_contents(dt, maxInts, maxAddrs, maxTypes C.int, ints *C.int, addrs *C.long, types *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Type_get_contents"
	t, rc := queryType(call, dt)
	if t == nil {
		return rc
	}
	if t.Combiner() == abi.CombinerNamed {
		return argErr(nil, call, abi.ErrType, "datatype "+t.Name+" is predefined")
	}
	ni, na, nt, _ := t.Envelope()
	if int(maxInts) < ni || int(maxAddrs) < na || int(maxTypes) < nt {
		return argErr(nil, call, abi.ErrArg, "the arrays are shorter than MPI_Type_get_envelope says")
	}
	if maxInts > 0 && ints == nil || maxAddrs > 0 && addrs == nil || maxTypes > 0 && types == nil {
		return argErr(nil, call, abi.ErrArg, "an array argument is NULL")
	}
	is, as, ts, err := mpi.TypeGetContents(t)
	if err != nil {
		return C.int(mpi.Code(err))
	}
	if ni > 0 {
		for i, v := range is {
			unsafe.Slice(ints, ni)[i] = C.int(v)
		}
	}
	if na > 0 {
		for i, v := range as {
			unsafe.Slice(addrs, na)[i] = C.long(v)
		}
	}
	if nt > 0 {
		for i, v := range ts {
			unsafe.Slice(types, nt)[i] = C.int(v.Handle)
		}
	}
	return 0
}

//export gompi_Type_set_name
func gompi_Type_set_name(dt C.int, name *C.char) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Type_set_name"
	t, rc := queryType(call, dt)
	if t == nil {
		return rc
	}
	if name == nil {
		return argErr(nil, call, abi.ErrArg, "type_name is NULL")
	}
	s := C.GoString(name)
	if len(s) > abi.MaxObjectName-1 {
		s = s[:abi.MaxObjectName-1]
	}
	t.Name = s
	return 0
}

//export gompi_Type_get_name
func gompi_Type_get_name(dt C.int, name *C.char, resultlen *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Type_get_name"
	t, rc := queryType(call, dt)
	if t == nil {
		return rc
	}
	if name == nil || resultlen == nil {
		return argErr(nil, call, abi.ErrArg, "an output argument is NULL")
	}
	out := unsafe.Slice((*byte)(unsafe.Pointer(name)), abi.MaxObjectName)
	n := copy(out[:abi.MaxObjectName-1], t.Name)
	out[n] = 0
	*resultlen = C.int(n)
	return 0
}

//export gompi_Type_match_size
func gompi_Type_match_size(class, size C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Type_match_size"
	if rc := newTypeOut(call, out); rc != 0 {
		return rc
	}
	t, err := mpi.TypeMatchSize(int(class), int(size))
	return setNew(out, t, err)
}

var f90Names = map[C.int]string{abi.CombinerF90Real: "MPI_Type_create_f90_real",
	abi.CombinerF90Complex: "MPI_Type_create_f90_complex", abi.CombinerF90Integer: "MPI_Type_create_f90_integer"}

//export gompi_Type_create_f90
func gompi_Type_create_f90(combiner, p, r C.int, out *C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := f90Names[combiner]
	if rc := newTypeOut(call, out); rc != 0 {
		return rc
	}
	t, err := mpi.TypeF90(call, int(combiner), int(p), int(r))
	return setNew(out, t, err)
}

// cBytes views n bytes of C memory (nil for none).
func dtBytes(p unsafe.Pointer, n int) []byte {
	if p == nil || n <= 0 {
		return nil
	}
	return unsafe.Slice((*byte)(p), n)
}

//export gompi_Pack
func gompi_Pack(in unsafe.Pointer, count C.long, dt C.int, out unsafe.Pointer, outsize C.long, pos unsafe.Pointer, comm C.int, wide C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := callC("MPI_Pack", wide != 0)
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	t, rc := dtArg(call, dt)
	if t == nil {
		return rc
	}
	if pos == nil || outsize < 0 {
		return argErr(nil, call, abi.ErrArg, "position is NULL or outsize negative")
	}
	p := getCount(pos, wide != 0)
	if err := mpi.Pack(in, int(count), t, dtBytes(out, int(outsize)), &p); err != nil {
		return C.int(mpi.Code(err))
	}
	putCount(pos, wide != 0, p)
	return 0
}

//export gompi_Unpack
func gompi_Unpack(in unsafe.Pointer, insize C.long, pos unsafe.Pointer, out unsafe.Pointer, count C.long, dt, comm C.int, wide C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := callC("MPI_Unpack", wide != 0)
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	t, rc := dtArg(call, dt)
	if t == nil {
		return rc
	}
	if pos == nil || insize < 0 {
		return argErr(nil, call, abi.ErrArg, "position is NULL or insize negative")
	}
	p := getCount(pos, wide != 0)
	if err := mpi.Unpack(dtBytes(in, int(insize)), &p, out, int(count), t); err != nil {
		return C.int(mpi.Code(err))
	}
	putCount(pos, wide != 0, p)
	return 0
}

//export gompi_Pack_size
func gompi_Pack_size(count C.long, dt, comm C.int, size unsafe.Pointer, wide C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := callC("MPI_Pack_size", wide != 0)
	c, rc := commArg(call, comm)
	if c == nil {
		return rc
	}
	t, rc := dtArg(call, dt)
	if t == nil {
		return rc
	}
	switch {
	case count < 0:
		return argErr(nil, call, abi.ErrCount, "count is negative")
	case size == nil:
		return argErr(nil, call, abi.ErrArg, "size is NULL")
	case !t.Committed:
		return argErr(c, call, abi.ErrType, "datatype "+t.Name+" is not committed")
	}
	if !putCount(size, wide != 0, t.PackSize(int(count))) {
		return argErr(c, call, abi.ErrValueTooLarge, "the packed size does not fit an int: use MPI_Pack_size_c")
	}
	return 0
}

//export gompi_Pack_external
func gompi_Pack_external(rep *C.char, in unsafe.Pointer, count C.long, dt C.int, out unsafe.Pointer, outsize C.long, pos *C.long) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Pack_external"
	t, rc := queryType(call, dt)
	if t == nil {
		return rc
	}
	if rep == nil || pos == nil || outsize < 0 {
		return argErr(nil, call, abi.ErrArg, "datarep or position is NULL, or outsize negative")
	}
	p := int64(*pos)
	if err := mpi.PackExternal(C.GoString(rep), in, int(count), t, dtBytes(out, int(outsize)), &p); err != nil {
		return C.int(mpi.Code(err))
	}
	*pos = C.long(p)
	return 0
}

//export gompi_Unpack_external
func gompi_Unpack_external(rep *C.char, in unsafe.Pointer, insize C.long, pos *C.long, out unsafe.Pointer, count C.long, dt C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Unpack_external"
	t, rc := queryType(call, dt)
	if t == nil {
		return rc
	}
	if rep == nil || pos == nil || insize < 0 {
		return argErr(nil, call, abi.ErrArg, "datarep or position is NULL, or insize negative")
	}
	p := int64(*pos)
	if err := mpi.UnpackExternal(C.GoString(rep), dtBytes(in, int(insize)), &p, out, int(count), t); err != nil {
		return C.int(mpi.Code(err))
	}
	*pos = C.long(p)
	return 0
}

//export gompi_Pack_external_size
func gompi_Pack_external_size(rep *C.char, count C.long, dt C.int, size *C.long) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Pack_external_size"
	t, rc := queryType(call, dt)
	if t == nil {
		return rc
	}
	switch {
	case rep == nil || size == nil:
		return argErr(nil, call, abi.ErrArg, "datarep or size is NULL")
	case C.GoString(rep) != "external32":
		return argErr(nil, call, abi.ErrArg, "data representation \""+C.GoString(rep)+"\" is not \"external32\"")
	case count < 0:
		return argErr(nil, call, abi.ErrCount, "count is negative")
	}
	*size = C.long(t.ExternalSize(int(count)))
	return 0
}

//export gompi_Get_count
func gompi_Get_count(status C.uintptr_t, dt C.int, bytes C.longlong, count *C.int, countx unsafe.Pointer, elements C.int) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	call := "MPI_Get_count"
	if elements != 0 {
		call = "MPI_Get_elements"
	}
	t, rc := dtArg(call, dt)
	if t == nil {
		return rc
	}
	n := int64(abi.Undefined)
	switch {
	case elements != 0:
		n = t.Elements(int64(bytes))
	case t.Size == 0:
		n = 0
	case int64(bytes)%int64(t.Size) == 0:
		n = int64(bytes) / int64(t.Size)
	}
	if count != nil {
		if n > 0x7fffffff {
			n = abi.Undefined
		}
		*count = C.int(n)
	} else {
		*(*int64)(countx) = n
	}
	return 0
}

//export gompi_Status_set_elements
func gompi_Status_set_elements(status C.uintptr_t, dt C.int, count C.longlong) C.int {
	if mtlock.On {
		mtlock.Lock()
		defer mtlock.Unlock()
	}
	const call = "MPI_Status_set_elements"
	t, rc := dtArg(call, dt)
	if t == nil {
		return rc
	}
	if count < 0 {
		return argErr(nil, call, abi.ErrCount, "count is negative")
	}
	cs := cstatus(status)
	n := t.ElementBytes(int64(count))
	cs.countLo = int32(uint32(n))
	cs.countHiCancelled = int32(n>>32)<<1 | cs.countHiCancelled&1
	return 0
}
