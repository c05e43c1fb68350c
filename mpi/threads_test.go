package mpi

import (
	"fmt"
	"sync"
	"testing"
	"unsafe"

	"gompi/abi"
	"gompi/op"
)

// The Go API at MPI_THREAD_MULTIPLE, in one process (a singleton, no
// launcher): goroutines on their own communicators and on MPI_COMM_WORLD
// with their own tags, matched probes with wildcards, a request waited for
// by another goroutine than the one that started it, collectives on
// per-goroutine communicators. Run under -race: it checks that everything
// the goroutines share is behind the lock.
func TestThreadMultipleGoroutines(t *testing.T) {
	// The runtime starts once per process and is left running (go test
	// -count=N reruns the test on it; a singleton needs no MPI_Finalize).
	mtOnce.Do(func() { mtGot, mtErr = InitThread(abi.ThreadMultiple) })
	if mtErr != nil || mtGot != abi.ThreadMultiple || !Multiple() {
		t.Fatalf("InitThread(MULTIPLE) = %d, %v (Multiple %v)", mtGot, mtErr, Multiple())
	}
	const G, rounds, n = 6, 40, 257
	errs := make(chan error, G*rounds*4)
	fail := func(format string, a ...any) { errs <- fmt.Errorf(format, a...) }
	handoff := make(chan *Request, G)
	var wg sync.WaitGroup
	for g := 0; g < G; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			c, err := World().Dup()
			if err != nil {
				fail("Dup: %v", err)
				return
			}
			for r := 0; r < rounds; r++ {
				out := make([]int32, n)
				in := make([]int32, n)
				for i := range out {
					out[i] = int32(g*1000000 + r*1000 + i)
				}
				// Own communicator, then world with tag g.
				for _, cc := range []*Comm{c, World()} {
					rq, err := IrecvSlice(cc, in, 0, g)
					if err != nil {
						fail("Irecv: %v", err)
						return
					}
					if err := SendSlice(cc, out, 0, g); err != nil {
						fail("Send: %v", err)
						return
					}
					if _, err := Waitall([]*Request{rq}); err != nil {
						fail("Waitall: %v", err)
					}
					for i := range in {
						if in[i] != out[i] {
							fail("goroutine %d round %d: element %d is %d, want %d", g, r, i, in[i], out[i])
							break
						}
					}
				}
				// Wildcard matched probe on the own communicator.
				if err := SendSlice(c, out[:3], 0, 100+r); err != nil {
					fail("Send: %v", err)
				}
				h, s, _, err := c.Mprobe("MPI_Mprobe", abi.AnySource, abi.AnyTag, true)
				if err != nil || s.Tag != 100+r {
					fail("Mprobe: tag %d, %v", s.Tag, err)
					continue
				}
				buf := make([]int32, 3)
				if _, s, err = Mrecv("MPI_Mrecv", unsafe.Pointer(&buf[0]), 3, TypeOf[int32](), h, true); err != nil || buf[2] != out[2] {
					fail("Mrecv: %v %v", buf, err)
				}
				// Hand a receive to the next goroutine, wait for the one handed to us.
				rq, err := IrecvSlice(c, make([]int32, 1), 0, 7)
				if err != nil {
					fail("Irecv: %v", err)
					return
				}
				if err := SendSlice(c, out[:1], 0, 7); err != nil {
					fail("Send: %v", err)
				}
				handoff <- rq
				if _, err := Waitall([]*Request{<-handoff}); err != nil {
					fail("Waitall of a handed-over request: %v", err)
				}
				sum := make([]int64, 4)
				if err := AllreduceSlice(c, []int64{1, 2, 3, int64(g)}, sum, op.Sum); err != nil || sum[3] != int64(g) {
					fail("Allreduce: %v %v", sum, err)
				}
			}
			if err := c.Free(); err != nil {
				fail("Free: %v", err)
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

var (
	mtOnce sync.Once
	mtGot  int
	mtErr  error
)
