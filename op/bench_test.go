package op

import (
	"fmt"
	"testing"
	"time"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/op/cref"
)

// BenchmarkSum1MiB times MPI_SUM over 1 MiB with our kernel (through Apply)
// and with the plain C loop compiled -O3 -march=native (op/cref), interleaved
// in the same loop so both see the same machine state; it reports both
// speeds (best call of each) and ours/cref (the target is >= 0.8).
func BenchmarkSum1MiB(b *testing.B) {
	for _, c := range []struct {
		name string
		h    int32
		ref  func(a, b unsafe.Pointer, n int)
	}{
		{"double", abi.Double, cref.SumDouble},
		{"float", abi.Float, cref.SumFloat},
		{"int", abi.Int, cref.SumInt},
	} {
		b.Run(c.name, func(b *testing.B) {
			t := datatype.Predefined(c.h)
			const bytes = 1 << 20
			n := bytes / t.Size
			in, io := make([]byte, bytes), make([]byte, bytes)
			pi, pio := unsafe.Pointer(&in[0]), unsafe.Pointer(&io[0])
			// Each call is timed on its own and the fastest of each side is
			// compared: other processes on the machine only ever add time.
			ours, ref := time.Duration(1<<62), time.Duration(1<<62)
			odd := false
			for b.Loop() {
				// Alternate which runs first, so neither always finds the
				// buffers warmed by the other.
				odd = !odd
				for k := 0; k < 2; k++ {
					t0 := time.Now()
					if (k == 0) == odd {
						Sum.Apply(pi, pio, n, t)
						ours = min(ours, time.Since(t0))
					} else {
						c.ref(pi, pio, n)
						ref = min(ref, time.Since(t0))
					}
				}
			}
			gbs := func(d time.Duration) float64 { return float64(bytes) / d.Seconds() / 1e9 }
			b.ReportMetric(gbs(ours), "ours-GB/s")
			b.ReportMetric(gbs(ref), "cref-GB/s")
			b.ReportMetric(ref.Seconds()/ours.Seconds(), "ours/cref")
		})
	}
}

// BenchmarkSmall compares the Go kernels with one cgo call into the C kernels
// for small reductions; goMaxBytes in op.go comes from it.
func BenchmarkSmall(b *testing.B) {
	for _, bytes := range []int{8, 64, 128, 256, 512, 1024} {
		for _, c := range []struct {
			name string
			kind int
		}{{"double", kF64}, {"int", kI32}} {
			n := bytes / elemSize[c.kind]
			in, io := make([]byte, bytes), make([]byte, bytes)
			pi, pio := unsafe.Pointer(&in[0]), unsafe.Pointer(&io[0])
			b.Run(fmt.Sprintf("%s/%dB/go", c.name, bytes), func(b *testing.B) {
				k := goKern[iSum][c.kind]
				for b.Loop() {
					k(pi, pio, n)
				}
			})
			b.Run(fmt.Sprintf("%s/%dB/c", c.name, bytes), func(b *testing.B) {
				for b.Loop() {
					runC(iSum, c.kind, pi, pio, n)
				}
			})
		}
	}
}

// BenchmarkApply8B is the cost of a whole Apply on one double (what
// collectives pay for a tiny reduction): it must not allocate.
func BenchmarkApply8B(b *testing.B) {
	t := datatype.Predefined(abi.Double)
	x, y := 1.0, 2.0
	b.ReportAllocs()
	for b.Loop() {
		Sum.Apply(unsafe.Pointer(&x), unsafe.Pointer(&y), 1, t)
	}
}

// BenchmarkSum1MiBGoLoop is the alternative the C kernels were chosen over:
// the Go kernel (which the Go compiler does not vectorise) and a 4-way
// unrolled Go loop, on 1 MiB of doubles.
func BenchmarkSum1MiBGoLoop(b *testing.B) {
	const n = 1 << 17
	in, io := make([]float64, n), make([]float64, n)
	b.Run("generic", func(b *testing.B) {
		b.SetBytes(n * 8)
		for b.Loop() {
			gSum[float64](unsafe.Pointer(&in[0]), unsafe.Pointer(&io[0]), n)
		}
	})
	b.Run("unrolled4", func(b *testing.B) {
		b.SetBytes(n * 8)
		for b.Loop() {
			x, y := in[:n], io[:n]
			for i := 0; i+4 <= len(y); i += 4 {
				y[i] += x[i]
				y[i+1] += x[i+1]
				y[i+2] += x[i+2]
				y[i+3] += x[i+3]
			}
		}
	})
}

// BenchmarkTiers times SUM over 1 MiB of doubles with each C kernel tier the
// CPU supports (the startup choice is the highest).
func BenchmarkTiers(b *testing.B) {
	defer setTier(Tier)
	t := datatype.Predefined(abi.Double)
	const bytes = 1 << 20
	in, io := make([]byte, bytes), make([]byte, bytes)
	for tier := 0; tier <= Tier; tier++ {
		b.Run(fmt.Sprintf("tier%d", tier), func(b *testing.B) {
			setTier(tier)
			b.SetBytes(bytes)
			for b.Loop() {
				Sum.Apply(unsafe.Pointer(&in[0]), unsafe.Pointer(&io[0]), bytes/8, t)
			}
		})
	}
}

// BenchmarkOps1MiB: every arithmetic op on 1 MiB of doubles and of ints
// (GB/s of inout), and MAXLOC on MPI_DOUBLE_INT and MPI_2INT.
func BenchmarkOps1MiB(b *testing.B) {
	const bytes = 1 << 20
	in, io := make([]byte, bytes), make([]byte, bytes)
	for i := range in {
		in[i], io[i] = byte(i*7), byte(i*13)
	}
	for _, c := range []struct {
		h   int32
		ops []*Op
	}{
		{abi.Double, []*Op{Max, Min, Sum, Prod}},
		{abi.Int, []*Op{Max, Min, Sum, Prod, Land, Lor, Lxor, Band, Bor, Bxor}},
		{abi.DoubleInt, []*Op{Maxloc, Minloc}},
		{abi.TwoInt, []*Op{Maxloc, Minloc}},
	} {
		t := datatype.Predefined(c.h)
		for _, o := range c.ops {
			b.Run(t.Name+"/"+o.Name, func(b *testing.B) {
				b.SetBytes(bytes)
				for b.Loop() {
					o.Apply(unsafe.Pointer(&in[0]), unsafe.Pointer(&io[0]), bytes/t.Extent, t)
				}
			})
		}
	}
}
