// Package op holds MPI reduction operations: the predefined ops with a kernel
// for every type the standard allows, and user-defined ops. Apply is what
// MPI_Reduce_local and the reduction collectives call; it allocates nothing
// and consults no map, since collectives reduce tiny buffers constantly.
package op

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/mem"
)

// Predefined op indices: the low bits of the handle minus one (MPI_MAX is 0).
const (
	iMax = iota
	iMin
	iSum
	iProd
	iLand
	iBand
	iLor
	iBor
	iLxor
	iBxor
	iMinloc
	iMaxloc
	iReplace
	iNoOp
	nPredef
)

// UserFunc is a user reduction: inout[i] = in[i] op inout[i] for count
// elements of the datatype whose handle is dt (the standard's
// MPI_User_function, with pointers instead of pointers to ints).
type UserFunc func(in, inout unsafe.Pointer, count int, dt int32)

// Op is one reduction operation.
type Op struct {
	Handle  int32
	Name    string
	Commute bool
	code    int      // predefined op index, or -1 for a user op
	user    UserFunc // nil for predefined ops
	freed   bool
}

// Predefined reports whether o is one of MPI's predefined ops.
func (o *Op) Predefined() bool { return o.code >= 0 }

var predef [nPredef]*Op

// init runs the package's set-up in dependency order (Go would otherwise
// order the files' init functions by file name).
func init() {
	initTypes()
	initGroups()
	initPacked()
	initPredefined()
	initGoKernels()
	initC() // last: publishes the C fast path, which uses all of the above
}

// The predefined ops, for Go callers.
var (
	Max, Min, Sum, Prod, Land, Band, Lor, Bor, Lxor, Bxor, Minloc, Maxloc, Replace, NoOp *Op
)

func initPredefined() {
	names := [nPredef]string{"MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_BAND",
		"MPI_LOR", "MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"}
	for i := range predef {
		predef[i] = &Op{Handle: abi.OpMax + int32(i), Name: names[i], Commute: true, code: i}
	}
	Max, Min, Sum, Prod, Land, Band, Lor, Bor, Lxor, Bxor = predef[iMax], predef[iMin], predef[iSum],
		predef[iProd], predef[iLand], predef[iBand], predef[iLor], predef[iBor], predef[iLxor], predef[iBxor]
	Minloc, Maxloc, Replace, NoOp = predef[iMinloc], predef[iMaxloc], predef[iReplace], predef[iNoOp]
}

// User ops live in a copy-on-write table indexed by the handle's index, so
// Lookup is one atomic load and an index, safe under MPI_THREAD_MULTIPLE.
var (
	userMu   sync.Mutex
	userTab  atomic.Pointer[[]*Op]
	userFree []uint32 // indices of freed ops, reused first
)

// Lookup returns the op of handle h (predefined or user), or nil when h is
// not a valid op (MPI_OP_NULL included).
func Lookup(h int32) *Op {
	switch abi.HandleKind(h) {
	case abi.KindBuiltin:
		if i := abi.HandleIndex(h); abi.HandleObj(h) == abi.ObjOp && i >= 1 && i <= nPredef {
			return predef[i-1]
		}
	case abi.KindDirect:
		if abi.HandleObj(h) != abi.ObjOp {
			return nil
		}
		if tab := userTab.Load(); tab != nil {
			if i := abi.HandleIndex(h); i < uint32(len(*tab)) {
				return (*tab)[i]
			}
		}
	}
	return nil
}

// NewUser registers a user op. Its handle is an MPICH direct op handle
// (0x98000000 | index).
func NewUser(fn UserFunc, commute bool) *Op {
	userMu.Lock()
	defer userMu.Unlock()
	var old []*Op
	if p := userTab.Load(); p != nil {
		old = *p
	}
	tab := append([]*Op(nil), old...)
	var idx uint32
	if n := len(userFree); n > 0 {
		idx, userFree = userFree[n-1], userFree[:n-1]
	} else {
		idx = uint32(len(tab))
		tab = append(tab, nil)
	}
	o := &Op{Handle: abi.MakeHandle(abi.KindDirect, abi.ObjOp, idx), Name: "user op", Commute: commute, code: -1, user: fn}
	tab[idx] = o
	userTab.Store(&tab)
	return o
}

// Free releases a user op and returns 0, or MPI_ERR_OP for a predefined,
// already freed or nil op. Operations already using o may still run it.
func Free(o *Op) int {
	if o == nil || o.code >= 0 {
		return abi.ErrOp
	}
	userMu.Lock()
	defer userMu.Unlock()
	if o.freed {
		return abi.ErrOp
	}
	o.freed = true
	tab := append([]*Op(nil), *userTab.Load()...)
	idx := abi.HandleIndex(o.Handle)
	tab[idx] = nil
	userFree = append(userFree, idx)
	userTab.Store(&tab)
	return 0
}

// Check returns 0 when o may reduce data of type t (MPI_Reduce_local and
// the reduction collectives), MPI_ERR_OP when the standard does not define o
// for t (MPI-3.1 5.9.2; REPLACE and NO_OP are for one-sided accumulates
// only, 11.3.4), MPI_ERR_TYPE for a nil type. User ops accept every type.
func (o *Op) Check(t *datatype.Type) int {
	if t == nil {
		return abi.ErrType
	}
	if o == nil {
		return abi.ErrOp
	}
	if o.user != nil {
		return 0
	}
	b := baseOf(t)
	if b == nil {
		return abi.ErrOp // mixed basic types: no predefined op applies
	}
	ti := info(b)
	if !ti.ok || groupOps[ti.group]&(1<<o.code) == 0 {
		return abi.ErrOp
	}
	return 0
}

// CheckAccumulate is Check for the one-sided accumulate calls: predefined
// ops only, REPLACE and NO_OP allowed, and the type must be made of one
// predefined type (MPI-3.1 11.3.4).
func (o *Op) CheckAccumulate(t *datatype.Type) int {
	if t == nil {
		return abi.ErrType
	}
	if o == nil || o.user != nil {
		return abi.ErrOp
	}
	if o.code == iReplace || o.code == iNoOp {
		if b := baseOf(t); b == nil || !info(b).ok {
			return abi.ErrOp
		}
		return 0
	}
	return o.Check(t)
}

// goMaxBytes is the largest reduction done by the Go kernels; above it one
// cgo call into the vectorised C kernels is cheaper. Measured with
// BenchmarkSmall: SUM of doubles takes 20 ns in Go vs 44 ns through cgo at
// 512 B, 64 vs 46 ns at 1 KiB (ints alike).
const goMaxBytes = 512

// Apply computes inout[i] = in[i] op inout[i] over count elements of t, in
// MPI's order: for a non-commutative op, in holds the earlier ranks'
// contribution. The caller has checked o.Check(t) == 0 (or CheckAccumulate:
// Apply also runs REPLACE and NO_OP). in and inout must not
// overlap. Predefined and contiguous types reduce in place with no
// allocation; other derived types (made of one predefined type) are packed,
// reduced and unpacked into inout.
func (o *Op) Apply(in, inout unsafe.Pointer, count int, t *datatype.Type) {
	if count <= 0 || o.code == iNoOp {
		return
	}
	if o.user != nil {
		o.user(in, inout, count, t.Handle)
		return
	}
	kind, n, ok := kernelView(count, t)
	switch {
	case o.code == iReplace && (t.Builtin || t.Contig):
		b := count * t.Extent // Size for a contiguous type
		mem.Copy(inout, in, b)
	case ok:
		o.run(in, inout, n, kind)
	default:
		o.applyStrided(in, inout, count, t)
	}
}

// kernelView is how the kernels see count elements of t: n elements of
// kind for a predefined type, or for a contiguous one whose base elements
// sit back to back as in packed data; ok is false for other types.
func kernelView(count int, t *datatype.Type) (kind, n int, ok bool) {
	switch {
	case t.Builtin:
		ti := info(t)
		return int(ti.kind), count, ti.ok
	case t.Contig && t.Base != nil:
		ti := info(t.Base)
		return int(packedKind[ti.kind]), count * (t.Size / t.Base.Size), ti.ok
	}
	return 0, 0, false
}

// ApplyPacked is Apply on n elements of predefined type base stored back to
// back at base.Size bytes each: the packed form of any type made of base
// (what MPI_Pack and the collectives' staging buffers hold). It differs from
// Apply(in, inout, n, base) only for the pair types with padding
// (MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT).
func (o *Op) ApplyPacked(in, inout unsafe.Pointer, n int, base *datatype.Type) {
	if n <= 0 || o.code == iNoOp {
		return
	}
	if o.user != nil {
		o.user(in, inout, n, base.Handle)
		return
	}
	if o.code == iReplace {
		b := n * base.Size
		mem.Copy(inout, in, b)
		return
	}
	o.run(in, inout, n, int(packedKind[info(base).kind]))
}

// ApplyInto computes out = a op b over count elements of t, for a
// predefined op on a predefined or contiguous type with a C kernel, and
// reports whether it did (else the caller copies b to out and uses Apply).
// One pass instead of a copy and a pass; small counts, where the Go
// kernels beat a cgo call, are left to the caller. out overlaps neither.
func (o *Op) ApplyInto(a, b, out unsafe.Pointer, count int, t *datatype.Type) bool {
	if o.code < 0 || o.code >= iReplace || count*t.Size <= goMaxBytes {
		return false
	}
	kind, n, ok := kernelView(count, t)
	if !ok || !hasC[o.code][kind] {
		return false
	}
	runC3(o.code, kind, a, b, out, n)
	return true
}

// run reduces n elements of kind with a predefined op.
func (o *Op) run(in, inout unsafe.Pointer, n, kind int) {
	if n*elemSize[kind] <= goMaxBytes {
		if k := goKern[o.code][kind]; k != nil {
			k(in, inout, n)
			return
		}
	}
	runC(o.code, kind, in, inout, n)
}

// staging holds the packed copies of applyStrided, reused across calls so a
// strided reduction of a steady size allocates nothing.
var staging = sync.Pool{New: func() any { return new([]byte) }}

func stage(n int) *[]byte {
	p := staging.Get().(*[]byte)
	if cap(*p) < n {
		*p = make([]byte, n)
	}
	*p = (*p)[:n]
	return p
}

// applyStrided reduces a non-contiguous derived type through packed copies.
func (o *Op) applyStrided(in, inout unsafe.Pointer, count int, t *datatype.Type) {
	size := count * t.Size
	if size == 0 {
		return
	}
	pin := stage(size)
	defer staging.Put(pin)
	t.Pack(*pin, in, count, 0)
	out := *pin
	if o.code != iReplace {
		pio := stage(size)
		defer staging.Put(pio)
		t.Pack(*pio, inout, count, 0)
		o.ApplyPacked(unsafe.Pointer(&(*pin)[0]), unsafe.Pointer(&(*pio)[0]), count*(t.Size/t.Base.Size), t.Base)
		out = *pio
	}
	t.Unpack(inout, count, out, 0)
}
