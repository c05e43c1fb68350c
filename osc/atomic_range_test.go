package osc

import (
	"math/rand"
	"testing"
	"unsafe"

	"gompi/abi"
	"gompi/op"
)

// The word-at-a-time fold gives what the op's own kernel gives, element by
// element, at every alignment and length, with and without fetching.
func TestAtomicRangeMatchesOp(t *testing.T) {
	types := []int32{abi.Char, abi.UnsignedChar, abi.Short, abi.UnsignedShort, abi.Int, abi.Unsigned, abi.Float, abi.Int64}
	rng := rand.New(rand.NewSource(1))
	for _, h := range types {
		ty := dt(h)
		kind := op.AtomicKind(ty)
		es := elemBytes(kind)
		for i := 0; i <= op.INoOp; i++ {
			o := opOf(i)
			if !atomicFits(kind, i) || o.CheckAccumulate(ty) != 0 {
				continue
			}
			for _, shift := range []int{0, es, 3 * es} {
				for _, cnt := range []int{1, 7, 40, 301} {
					n := cnt * es
					src := make([]byte, n+8)
					dst := make([]byte, n+32)
					for k := range src {
						src[k] = byte(rng.Intn(256))
					}
					for k := range dst {
						dst[k] = byte(rng.Intn(256))
					}
					if kind == op.AtomF32 { // small floats keep sums exact
						for e := 0; e < cnt; e++ {
							*(*float32)(unsafe.Pointer(&src[e*4])) = float32(rng.Intn(100))
							*(*float32)(unsafe.Pointer(&dst[shift+e*4])) = float32(rng.Intn(100))
						}
					}
					want := append([]byte(nil), dst...)
					if i != op.INoOp {
						o.Apply(unsafe.Pointer(&src[0]), unsafe.Pointer(&want[shift]), cnt, ty)
					}
					old := append([]byte(nil), dst[shift:shift+n]...)
					res := make([]byte, n)
					var s unsafe.Pointer
					if i != op.INoOp {
						s = unsafe.Pointer(&src[0])
					}
					atomicApplyRange(kind, i, unsafe.Pointer(&dst[shift]), s, unsafe.Pointer(&res[0]), n)
					if string(dst) != string(want) {
						t.Fatalf("%s %s shift %d count %d: result differs from the op kernel", o.Name, ty.Name, shift, cnt)
					}
					if string(res) != string(old) {
						t.Fatalf("%s %s shift %d count %d: fetched values differ from the old ones", o.Name, ty.Name, shift, cnt)
					}
				}
			}
		}
	}
}

func BenchmarkAccumulateChar64K(b *testing.B) {
	src, dst := make([]byte, 64<<10), make([]byte, 64<<10)
	for i := 0; i < b.N; i++ {
		atomicApplyRange(op.AtomI8, op.ISum, unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), nil, len(dst))
	}
}
