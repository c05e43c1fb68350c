package shmcoll

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
	"unsafe"

	"gompi/internal/testtime"

	"github.com/stretchr/testify/require"
)

func gosched(*int) { runtime.Gosched() }

// groups builds p groups over one area, with counters left at arbitrary
// values by an earlier user (bases), as a new communicator finds them.
func groups(p, slot int, start []uint64) []*Group {
	return groupsBig(p, slot, 0, start)
}

// groupsBig is groups over an area with big slots of big bytes.
func groupsBig(p, slot, big int, start []uint64) []*Group {
	mem := make([]uint64, AreaSize(p, slot)/8+1)
	a := NewArea(unsafe.Pointer(&mem[0]), p, slot)
	if big > 0 {
		bigMem := make([]uint64, BigSize(p, big)/8+1)
		a.SetBig(unsafe.Pointer(&bigMem[0]), big)
	}
	locals := make([]int, p)
	for i := range locals {
		locals[i] = p - 1 - i // ranks and node-local indexes differ
		*a.counter(locals[i]) = start[i]
	}
	bases := make([]uint64, p)
	for i := range bases {
		bases[i] = a.Counter(locals[i])
	}
	gs := make([]*Group, p)
	for i := range gs {
		gs[i] = NewGroup(a, locals, bases, i, gosched)
	}
	return gs
}

// failer records the first failure of rank me in errs.
func failer(errs []string, me int) func(format string, a ...any) {
	return func(format string, a ...any) {
		if errs[me] == "" {
			errs[me] = fmt.Sprintf(format, a...)
		}
	}
}

func run(gs []*Group, f func(g *Group)) {
	var wg sync.WaitGroup
	for _, g := range gs {
		wg.Add(1)
		go func() { defer wg.Done(); f(g) }()
	}
	wg.Wait()
}

// concat is an associative, non-commutative op on 8-byte words: the decimal
// digits of in followed by those of inout.
func concat(in, inout unsafe.Pointer, _ int) {
	b := *(*int64)(inout)
	shift := int64(10)
	for x := b; x >= 10; x /= 10 {
		shift *= 10
	}
	*(*int64)(inout) = *(*int64)(in)*shift + b
}

// concatN is concat over count elements.
func concatN(in, inout unsafe.Pointer, count int) {
	for i := range count {
		concat(unsafe.Add(in, 8*i), unsafe.Add(inout, 8*i), 1)
	}
}

func TestCollectivesManyRounds(t *testing.T) {
	for _, p := range []int{1, 2, 3, 5} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			gs := groups(p, 64, []uint64{7, 0, 3, 100, 1}[:p])
			errs := make([]string, p)
			run(gs, func(g *Group) {
				me := g.me
				for round := 0; round < 300; round++ {
					fail := func(format string, a ...any) {
						if errs[me] == "" {
							errs[me] = fmt.Sprintf("round %d: ", round) + fmt.Sprintf(format, a...)
						}
					}
					if round%10 == 9 { // an alltoall now and then
						in := make([]int16, p)
						for r := range in {
							in[r] = int16(100*me + r + round)
						}
						out := make([]int16, p)
						g.Alltoall(unsafe.Pointer(&in[0]), unsafe.Pointer(&out[0]), 2)
						for r := range out {
							if out[r] != int16(100*r+me+round) {
								fail("alltoall from %d: %d", r, out[r])
							}
						}
					}
					switch round % 5 {
					case 0:
						g.Barrier()
					case 1:
						root := round % p
						v := int64(-1)
						if me == root {
							v = int64(round*100 + root)
						}
						g.Bcast(unsafe.Pointer(&v), 8, root)
						if v != int64(round*100+root) {
							fail("bcast got %d", v)
						}
					case 2:
						in, out := int64(me+1), int64(0)
						g.Allreduce(unsafe.Pointer(&in), unsafe.Pointer(&out), 1, 8, Fold{Op: concat})
						want := int64(0)
						for r := 0; r < p; r++ {
							want = want*10 + int64(r+1)
						}
						if out != want {
							fail("allreduce %d want %d", out, want)
						}
					case 3:
						root := (round / 5) % p
						in, out := int64(me+1), int64(-5)
						g.Reduce(unsafe.Pointer(&in), unsafe.Pointer(&out), 1, 8, root, Fold{Op: concat})
						if me == root {
							want := int64(0)
							for r := 0; r < p; r++ {
								want = want*10 + int64(r+1)
							}
							if out != want {
								fail("reduce %d want %d", out, want)
							}
						} else if out != -5 {
							fail("reduce touched a non-root buffer")
						}
					case 4:
						in := [2]int32{int32(me), int32(round)}
						out := make([][2]int32, p)
						g.Allgather(unsafe.Pointer(&in), unsafe.Pointer(&out[0]), 8)
						for r := range out {
							if out[r] != [2]int32{int32(r), int32(round)} {
								fail("allgather[%d] = %v", r, out[r])
							}
						}
					}
				}
			})
			for i, e := range errs {
				require.Empty(t, e, "rank %d", i)
			}
		})
	}
}

// TestInlineAndSlotSizesInterleave: contributions that ride on the counter
// line and ones in the slots alternate without disturbing each other.
func TestInlineAndSlotSizesInterleave(t *testing.T) {
	gs := groups(3, 256, []uint64{0, 0, 0})
	errs := make([]string, 3)
	run(gs, func(g *Group) {
		for round := 0; round < 200; round++ {
			n := []int{8, 24, 25, 200}[round%4]
			in := make([]byte, n)
			for i := range in {
				in[i] = byte(g.me*50 + round + i)
			}
			out := make([]byte, 3*n)
			g.Allgather(unsafe.Pointer(&in[0]), unsafe.Pointer(&out[0]), n)
			for r := 0; r < 3; r++ {
				for i := 0; i < n; i++ {
					if out[r*n+i] != byte(r*50+round+i) && errs[g.me] == "" {
						errs[g.me] = fmt.Sprintf("round %d size %d: block %d byte %d = %d", round, n, r, i, out[r*n+i])
					}
				}
			}
		}
	})
	for i, e := range errs {
		require.Empty(t, e, "rank %d", i)
	}
}

// TestRootsRunAhead: a root of back-to-back broadcasts and reductions may
// run Depth calls ahead of slow readers without overwriting unread data.
func TestRootsRunAhead(t *testing.T) {
	gs := groups(4, 64, []uint64{3, 1, 4, 1})
	errs := make([]string, 4)
	run(gs, func(g *Group) {
		for i := 0; i < 500; i++ {
			v := int64(-1)
			if g.me == 0 {
				v = int64(i)
			} else if i%7 == g.me {
				runtime.Gosched() // a slow reader
			}
			g.Bcast(unsafe.Pointer(&v), 8, 0)
			if v != int64(i) && errs[g.me] == "" {
				errs[g.me] = fmt.Sprintf("bcast %d got %d", i, v)
			}
		}
		for i := 0; i < 500; i++ {
			in, out := int64(i*10+g.me), int64(0)
			g.Reduce(unsafe.Pointer(&in), unsafe.Pointer(&out), 1, 8, 3, Fold{Op: func(a, b unsafe.Pointer, _ int) {
				*(*int64)(b) += *(*int64)(a)
			}})
			if g.me == 3 && out != int64(i*40+6) && errs[g.me] == "" {
				errs[g.me] = fmt.Sprintf("reduce %d got %d", i, out)
			}
		}
	})
	for i, e := range errs {
		require.Empty(t, e, "rank %d", i)
	}
}

// TestBigSlots: contributions above a slot use the big slots (two calls
// deep) and interleave with inline and slot-sized ones; a broadcast root
// running ahead never overwrites big data a reader has not copied, and a
// reduce_scatter folds each rank's block in rank order.
func TestBigSlots(t *testing.T) {
	const p, slot, big = 3, 64, 1024
	gs := groupsBig(p, slot, big, []uint64{5, 0, 9})
	require.Equal(t, big, gs[0].Max())
	errs := make([]string, p)
	run(gs, func(g *Group) {
		fail := failer(errs, g.me)
		for round := 0; round < 400; round++ {
			n := []int{16, 64, 65, 1024, 200, 1000}[round%6]
			switch round % 4 {
			case 0, 2:
				buf := make([]byte, n)
				if g.me == 1 {
					for i := range buf {
						buf[i] = byte(round + i)
					}
				} else if round%7 == g.me {
					runtime.Gosched() // a slow reader
				}
				g.Bcast(unsafe.Pointer(&buf[0]), n, 1)
				for i := range buf {
					if buf[i] != byte(round+i) {
						fail("round %d bcast of %d: byte %d = %d", round, n, i, buf[i])
						break
					}
				}
			case 1:
				in := make([]byte, n)
				for i := range in {
					in[i] = byte(g.me*31 + round + i)
				}
				out := make([]byte, p*n)
				g.Allgather(unsafe.Pointer(&in[0]), unsafe.Pointer(&out[0]), n)
				for r := 0; r < p; r++ {
					for i := 0; i < n; i++ {
						if out[r*n+i] != byte(r*31+round+i) {
							fail("round %d allgather of %d: block %d byte %d", round, n, r, i)
							break
						}
					}
				}
			case 3:
				count := n / 8 // int64 elements, split 1, 2, rest
				in := make([]int64, count)
				for i := range in {
					in[i] = int64(g.me + 1)
				}
				counts := []int{1, 2, count - 3}
				out := make([]int64, counts[g.me]+1)
				out[counts[g.me]] = -7
				g.ReduceScatter(unsafe.Pointer(&in[0]), unsafe.Pointer(&out[0]), counts, 8, Fold{Op: concatN})
				for i := 0; i < counts[g.me]; i++ {
					if out[i] != 123 {
						fail("round %d reduce_scatter of %d: element %d = %d", round, count, i, out[i])
					}
				}
				if out[counts[g.me]] != -7 {
					fail("round %d reduce_scatter wrote past its block", round)
				}
			}
		}
	})
	for i, e := range errs {
		require.Empty(t, e, "rank %d", i)
	}
}

// TestAllreduceByBlocks: past AllreduceBlocks each rank folds one block
// (counts that do not divide evenly, fewer elements than ranks) in rank
// order, and the gathered result is whole on every rank.
func TestAllreduceByBlocks(t *testing.T) {
	const p = 3
	gs := groupsBig(p, 64, 1024, []uint64{2, 0, 11})
	for _, g := range gs {
		g.AllreduceBlocks = 16
	}
	errs := make([]string, p)
	run(gs, func(g *Group) {
		for round := 0; round < 300; round++ {
			count := []int{1, 2, 3, 7, 8, 64, 100, 127}[round%8]
			in := make([]int64, count)
			for i := range in {
				in[i] = int64(g.me + 1)
			}
			out := make([]int64, count+1)
			out[count] = -9
			g.Allreduce(unsafe.Pointer(&in[0]), unsafe.Pointer(&out[0]), count, 8, Fold{Op: concatN})
			for i := 0; i < count; i++ {
				if out[i] != 123 && errs[g.me] == "" {
					errs[g.me] = fmt.Sprintf("round %d count %d: element %d = %d", round, count, i, out[i])
				}
			}
			if out[count] != -9 && errs[g.me] == "" {
				errs[g.me] = fmt.Sprintf("round %d: wrote past the result", round)
			}
		}
	})
	for i, e := range errs {
		require.Empty(t, e, "rank %d", i)
	}
}

func TestBlock(t *testing.T) {
	next := 0
	for r := range 4 {
		first, k := Block(10, 4, r)
		require.Equal(t, next, first)
		require.Equal(t, []int{3, 3, 2, 2}[r], k)
		next += k
	}
	first, k := Block(2, 4, 3)
	require.Equal(t, 2, first)
	require.Equal(t, 0, k)
}

// TestAboveMax: data above Max goes as several calls (whole elements for
// reductions; for reduce_scatter the next piece of every block, blocks of
// different lengths, in place too), interleaved with single calls, and
// comes out whole and in rank order.
func TestAboveMax(t *testing.T) {
	const p, slot, big = 3, 64, 256
	gs := groupsBig(p, slot, big, []uint64{4, 9, 0})
	for _, g := range gs {
		g.AllreduceBlocks = 96
	}
	// Rank 1 folds with a three-operand form that declines odd counts.
	into := func(a, b, out unsafe.Pointer, count int) bool {
		if count%2 == 1 {
			return false
		}
		copy(unsafe.Slice((*int64)(out), count), unsafe.Slice((*int64)(b), count))
		concatN(a, out, count)
		return true
	}
	errs := make([]string, p)
	run(gs, func(g *Group) {
		fail := failer(errs, g.me)
		fold := Fold{Op: concatN}
		if g.me == 1 {
			fold.Into = into
		}
		for round := 0; round < 120; round++ {
			count := []int{33, 32, 100, 257, 7, 64}[round%6] // int64 elements: 264 to 2056 bytes
			root := round % p
			if round%11 == g.me {
				runtime.Gosched() // a slow rank
			}
			buf := make([]byte, count*8+1)
			if g.me == root {
				for i := range buf {
					buf[i] = byte(round + i)
				}
			}
			g.Bcast(unsafe.Pointer(&buf[0]), len(buf), root)
			for i := range buf {
				if buf[i] != byte(round+i) {
					fail("round %d bcast of %d: byte %d", round, len(buf), i)
					break
				}
			}
			in := make([]int64, count)
			for i := range in {
				in[i] = digit(g.me, i)
			}
			out := make([]int64, count+1)
			out[count] = -5
			g.Reduce(unsafe.Pointer(&in[0]), unsafe.Pointer(&out[0]), count, 8, root, fold)
			for i := 0; g.me == root && i < count; i++ {
				if out[i] != want(i) {
					fail("round %d reduce of %d: element %d = %d", round, count, i, out[i])
					break
				}
			}
			out[0] = 0
			g.Allreduce(unsafe.Pointer(&in[0]), unsafe.Pointer(&out[0]), count, 8, fold)
			for i := 0; i < count; i++ {
				if out[i] != want(i) {
					fail("round %d allreduce of %d: element %d = %d", round, count, i, out[i])
					break
				}
			}
			if out[count] != -5 {
				fail("round %d: wrote past the result", round)
			}
			counts := []int{count, count / 3, 2*count + 1}
			vec := make([]int64, count*3+count/3+1)
			for i := range vec {
				vec[i] = digit(g.me, i)
			}
			first := 0
			for _, k := range counts[:g.me] {
				first += k
			}
			res := make([]int64, counts[g.me]+1)
			res[counts[g.me]] = -5
			recv := unsafe.Pointer(&res[0])
			if round%2 == 1 {
				recv = unsafe.Pointer(&vec[0]) // in place
			}
			g.ReduceScatter(unsafe.Pointer(&vec[0]), recv, counts, 8, fold)
			got := unsafe.Slice((*int64)(recv), counts[g.me]+1)
			for i := 0; i < counts[g.me]; i++ {
				if got[i] != want(first+i) {
					fail("round %d reduce_scatter %v: element %d = %d", round, counts, i, got[i])
					break
				}
			}
			if round%2 == 0 && res[counts[g.me]] != -5 {
				fail("round %d: reduce_scatter wrote past its block", round)
			}
		}
	})
	for i, e := range errs {
		require.Empty(t, e, "rank %d", i)
	}
}

// digit is rank r's element i in TestAboveMax: one decimal digit that
// depends on the element, so the concatenation shows any misplaced one.
func digit(r, i int) int64 { return int64(r + 1 + 3*(i%3)) }

// want is element i of the three ranks' digits concatenated in rank order.
func want(i int) int64 { return []int64{123, 456, 789}[i%3] }

// The C side's CPU hint and the done count share the counter line with
// the inline halves.
func TestCPUHintAfterInlineData(t *testing.T) {
	require.LessOrEqual(t, 8+2*InlineMax, CPUHintOffset)
	require.LessOrEqual(t, CPUHintOffset+4, DoneOffset)
	require.LessOrEqual(t, DoneOffset+4, lineSize)
}

// TestRunAheadDepth: a broadcast root runs TinyDepth calls ahead of its
// readers with data up to a line, Depth calls with larger data, and waits
// there until they read.
func TestRunAheadDepth(t *testing.T) {
	for _, tc := range []struct{ n, depth int }{{1, TinyDepth}, {TinyMax, TinyDepth}, {TinyMax + 1, Depth}, {128, Depth}} {
		gs := groups(3, 128, []uint64{0, 7, 2})
		ahead, done := make(chan struct{}), make(chan struct{})
		go func() {
			buf := make([]byte, tc.n)
			for i := 0; i <= tc.depth; i++ {
				if i == tc.depth {
					close(ahead)
				}
				buf[tc.n-1], buf[0] = byte(i+1), byte(i)
				gs[0].Bcast(unsafe.Pointer(&buf[0]), tc.n, 0)
			}
			close(done)
		}()
		select {
		case <-ahead:
		case <-time.After(testtime.D(60 * time.Second)):
			t.Fatalf("%d bytes: the root stopped before %d calls", tc.n, tc.depth)
		}
		select {
		case <-done:
			t.Fatalf("%d bytes: the root ran more than %d calls ahead", tc.n, tc.depth)
		case <-time.After(50 * time.Millisecond):
		}
		run(gs[1:], func(g *Group) {
			buf := make([]byte, tc.n)
			for i := 0; i <= tc.depth; i++ {
				g.Bcast(unsafe.Pointer(&buf[0]), tc.n, 0)
				if buf[0] != byte(i) || (tc.n > 1 && buf[tc.n-1] != byte(i+1)) {
					t.Errorf("%d bytes, call %d: got %d..%d", tc.n, i, buf[0], buf[tc.n-1])
				}
			}
		})
		<-done
	}
}

// TestSpinWhileNoNeighbourBehind: with CPU set, a wait polls without Wait
// only while no rank last seen on this CPU has arrived at fewer calls, and
// at most SpinMax times.
func TestSpinWhileNoNeighbourBehind(t *testing.T) {
	gs := groups(3, 64, []uint64{4, 0, 9})
	cpus := []int32{5, 5, 7}
	for i, g := range gs {
		g.CPU, g.SpinMax = func() int32 { return cpus[i] }, 3
		*g.hint(g.locals[g.me]) = cpus[i]
	}
	spun := 0
	require.True(t, gs[0].spin(&spun), "nobody behind")
	gs[0].arrive(0)
	spun = 0
	require.False(t, gs[0].spin(&spun), "rank 1 (same CPU) is behind")
	gs[2].arrive(0)
	require.False(t, gs[0].spin(&spun), "rank 2 runs elsewhere: rank 1 still behind")
	gs[1].arrive(0)
	for range 3 {
		require.True(t, gs[0].spin(&spun))
	}
	require.False(t, gs[0].spin(&spun), "SpinMax reached")
	gs[1].CPU = nil
	spun = 0
	require.False(t, gs[1].spin(&spun), "no CPU: always Wait")
}

// TestCollectivesWithStaleCPUHints: every rank claims a CPU of its own, so
// no wait ever yields for a neighbour; the SpinMax bound keeps them moving.
func TestCollectivesWithStaleCPUHints(t *testing.T) {
	gs := groups(4, 64, []uint64{1, 2, 3, 4})
	for i, g := range gs {
		g.CPU, g.SpinMax = func() int32 { return int32(i) }, 100
	}
	errs := make([]string, len(gs))
	run(gs, func(g *Group) {
		for i := 0; i < 300; i++ {
			v, sum := int64(i+g.me), int64(0)
			g.Allreduce(unsafe.Pointer(&v), unsafe.Pointer(&sum), 1, 8, Fold{Op: func(a, b unsafe.Pointer, _ int) {
				*(*int64)(b) += *(*int64)(a)
			}})
			if sum != int64(4*i+6) && errs[g.me] == "" {
				errs[g.me] = fmt.Sprintf("allreduce %d got %d", i, sum)
			}
		}
	})
	for i, e := range errs {
		require.Empty(t, e, "rank %d", i)
	}
}
