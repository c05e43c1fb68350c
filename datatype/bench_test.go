package datatype

import (
	"testing"
	"unsafe"

	"gompi/abi"
)

// Pack speed against a plain copy of the same bytes: contiguous runs of a
// vector should move near memcpy speed; 8-byte elements pay a loop.
func benchPack(b *testing.B, t *Type, count int) {
	t.Commit()
	src := make([]byte, count*t.Extent+t.TrueExtent)
	dst := make([]byte, t.PackSize(count))
	b.SetBytes(int64(len(dst)))
	for b.Loop() {
		t.Pack(dst, unsafe.Pointer(&src[0]), count, 0)
	}
}

func BenchmarkPackVectorBlocks4K(b *testing.B) {
	benchPack(b, must(Vector(256, 512, 1024, Predefined(abi.Double))), 1) // 4 KiB runs, 1 MiB
}

func BenchmarkPackVectorDoubles(b *testing.B) {
	benchPack(b, must(Vector(131072, 1, 2, Predefined(abi.Double))), 1) // 8-byte runs, 1 MiB
}

func BenchmarkPackStructArray(b *testing.B) {
	s := must(Struct([]int{1, 1, 1}, []int64{0, 4, 8}, []*Type{Predefined(abi.Char), Predefined(abi.Int), Predefined(abi.Double)}))
	benchPack(b, s, 65536) // 13 of 16 bytes, ~832 KiB
}

func BenchmarkCopy1M(b *testing.B) {
	src, dst := make([]byte, 1<<20), make([]byte, 1<<20)
	b.SetBytes(1 << 20)
	for b.Loop() {
		copy(dst, src)
	}
}
