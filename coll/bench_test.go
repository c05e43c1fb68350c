package coll

import (
	"testing"
	"unsafe"
)

// The cost of building schedules (allocation included), which blocking calls
// pay per call unless cached.
func BenchmarkBuildAllreduce2(b *testing.B) {
	s, r := make([]byte, 8), make([]byte, 8)
	d := Data{Sbuf: unsafe.Pointer(&s[0]), Rbuf: unsafe.Pointer(&r[0]), Count: 2, Ext: 4, Fn: sum32, Commute: true}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Allreduce(2, 0, d, AllreduceRecursiveDoubling)
	}
}

func BenchmarkBuildBarrier8(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Barrier(8, 3, BarrierDissemination)
	}
}
