package coll

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

var sizes = []int{1, 2, 3, 4, 5, 7, 8, 9, 16}

func ptr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

// fill gives rank r's buffer recognisable bytes.
func fill(r, n, salt int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r*31 + i*7 + salt)
	}
	return b
}

// Two reductions: int32 sum (commutative) and the composition of affine maps
// x -> m*x + c on uint32 (associative, not commutative).
func sum32(in, inout unsafe.Pointer, n int) {
	a, b := unsafe.Slice((*int32)(in), n), unsafe.Slice((*int32)(inout), n)
	for i := range b {
		b[i] += a[i]
	}
}

func affine(in, inout unsafe.Pointer, n int) {
	a, b := unsafe.Slice((*uint32)(in), 2*n), unsafe.Slice((*uint32)(inout), 2*n)
	for i := 0; i < n; i++ {
		am, ac, bm, bc := a[2*i], a[2*i+1], b[2*i], b[2*i+1]
		b[2*i], b[2*i+1] = am*bm, bm*ac+bc // first a, then b
	}
}

type redOp struct {
	name    string
	fn      Reducer
	ext     int
	commute bool
}

var ops = []redOp{{"sum", sum32, 4, true}, {"affine", affine, 8, false}}

// contrib is rank r's input for a reduction of count elements.
func contrib(op redOp, r, count int) []byte {
	b := make([]byte, count*op.ext)
	if op.ext == 4 {
		s := unsafe.Slice((*int32)(ptr(b)), count)
		for i := range s {
			s[i] = int32(r*1000 + i*3 + 1)
		}
	} else {
		s := unsafe.Slice((*uint32)(ptr(b)), 2*count)
		for i := 0; i < count; i++ {
			s[2*i], s[2*i+1] = uint32(2*r+3+2*i), uint32(r*7+i+1)
		}
	}
	return b
}

// serial folds ranks lo..hi-1 in order.
func serial(op redOp, lo, hi, count int) []byte {
	acc := contrib(op, lo, count)
	for r := lo + 1; r < hi; r++ {
		x := contrib(op, r, count)
		op.fn(ptr(acc), ptr(x), count)
		acc = x
	}
	return acc
}

var counts = []int{0, 1, 2, 3, 5, 17, 64}

func TestBarrier(t *testing.T) {
	for _, alg := range []string{BarrierDissemination, BarrierLinear} {
		for _, n := range sizes {
			sc := make([]*Schedule, n)
			for r := range sc {
				sc[r] = Barrier(n, r, alg)
			}
			run(t, sc)
		}
	}
}

// A barrier must not complete anywhere before every rank entered: start all
// ranks but one and check nobody finishes.
func TestBarrierWaitsForLast(t *testing.T) {
	for _, alg := range []string{BarrierDissemination, BarrierLinear} {
		for _, n := range []int{2, 3, 5, 8} {
			f := newFakeNet(n)
			sc := make([]*Schedule, n)
			for r := range sc {
				sc[r] = Barrier(n, r, alg)
			}
			for r := 0; r < n-1; r++ {
				sc[r].Start(&fakePort{net: f, me: r}, 1)
			}
			for i := 0; i < 3; i++ {
				for r := 0; r < n-1; r++ {
					require.False(t, sc[r].Advance(), "%s n=%d rank %d passed early", alg, n, r)
				}
			}
		}
	}
}

func TestBcast(t *testing.T) {
	for _, alg := range []string{BcastBinomial, BcastPipeline, BcastLinear, BcastScatterAllgather} {
		for _, n := range sizes {
			for _, bytes := range []int{0, 1, 7, 100, 1000} {
				for _, root := range []int{0, n - 1, n / 2} {
					want := fill(root, bytes, 1)
					bufs := make([][]byte, n)
					sc := make([]*Schedule, n)
					for r := range sc {
						bufs[r] = make([]byte, bytes)
						if r == root {
							copy(bufs[r], want)
						}
						sc[r] = Bcast(n, r, root, ptr(bufs[r]), bytes, alg, 64)
					}
					run(t, sc)
					for r := range bufs {
						require.Equal(t, want, bufs[r], "%s n=%d bytes=%d root=%d rank %d", alg, n, bytes, root, r)
					}
				}
			}
		}
	}
}

func TestReduce(t *testing.T) {
	for _, alg := range []string{ReduceBinomial, ReduceLinear} {
		for _, op := range ops {
			for _, n := range sizes {
				for _, count := range counts {
					for _, root := range []int{0, n - 1, n / 2} {
						for _, inPlace := range []bool{false, true} {
							name := fmt.Sprintf("%s/%s n=%d count=%d root=%d inplace=%v", alg, op.name, n, count, root, inPlace)
							sb := make([][]byte, n)
							rb := make([]byte, count*op.ext)
							sc := make([]*Schedule, n)
							for r := range sc {
								sb[r] = contrib(op, r, count)
								d := Data{Sbuf: ptr(sb[r]), Count: count, Ext: op.ext, Fn: op.fn, Commute: op.commute}
								if r == root {
									d.Rbuf = ptr(rb)
									if inPlace {
										copy(rb, sb[r])
										d.Sbuf = d.Rbuf
									}
								}
								sc[r] = Reduce(n, r, root, d, alg)
							}
							run(t, sc)
							require.Equal(t, serial(op, 0, n, count), rb, name)
							for r := range sb {
								if !(inPlace && r == root) {
									require.Equal(t, contrib(op, r, count), sb[r], "%s: send buffer of %d changed", name, r)
								}
							}
						}
					}
				}
			}
		}
	}
}

func TestAllreduce(t *testing.T) {
	for _, alg := range []string{AllreduceRecursiveDoubling, AllreduceRabenseifner, AllreduceRing, AllreduceReduceBcast, AllreduceLinear} {
		for _, op := range ops {
			for _, n := range sizes {
				for _, count := range counts {
					for _, inPlace := range []bool{false, true} {
						name := fmt.Sprintf("%s/%s n=%d count=%d inplace=%v", alg, op.name, n, count, inPlace)
						sb := make([][]byte, n)
						rb := make([][]byte, n)
						sc := make([]*Schedule, n)
						for r := range sc {
							sb[r] = contrib(op, r, count)
							rb[r] = make([]byte, count*op.ext)
							d := Data{Sbuf: ptr(sb[r]), Rbuf: ptr(rb[r]), Count: count, Ext: op.ext, Fn: op.fn, Commute: op.commute}
							if inPlace {
								copy(rb[r], sb[r])
								d.Sbuf = d.Rbuf
							}
							sc[r] = Allreduce(n, r, d, alg)
						}
						run(t, sc)
						want := serial(op, 0, n, count)
						for r := range rb {
							require.Equal(t, want, rb[r], "%s rank %d", name, r)
						}
					}
				}
			}
		}
	}
}

func TestGatherScatter(t *testing.T) {
	for _, alg := range []string{GatherLinear, GatherBinomial} {
		for _, n := range sizes {
			for _, bytes := range []int{0, 1, 5, 64} {
				for _, root := range []int{0, n - 1, n / 2} {
					for _, inPlace := range []bool{false, true} {
						name := fmt.Sprintf("%s n=%d bytes=%d root=%d inplace=%v", alg, n, bytes, root, inPlace)
						// gather
						all := make([]byte, n*bytes)
						sb := make([][]byte, n)
						sc := make([]*Schedule, n)
						for r := range sc {
							sb[r] = fill(r, bytes, 3)
							s := ptr(sb[r])
							if r == root && inPlace {
								copy(all[r*bytes:], sb[r])
								s = nil
							}
							sc[r] = Gather(n, r, root, s, bytes, Regular(ptr(all), n, bytes), alg)
						}
						run(t, sc)
						for r := 0; r < n; r++ {
							require.Equal(t, sb[r], all[r*bytes:(r+1)*bytes], "gather %s block %d", name, r)
						}
						// scatter back
						src := make([]byte, n*bytes)
						for r := 0; r < n; r++ {
							copy(src[r*bytes:], fill(r, bytes, 9))
						}
						rb := make([][]byte, n)
						for r := range sc {
							rb[r] = make([]byte, bytes)
							d := ptr(rb[r])
							if r == root && inPlace {
								d = nil
							}
							sc[r] = Scatter(n, r, root, Regular(ptr(src), n, bytes), d, bytes, alg)
						}
						run(t, sc)
						for r := 0; r < n; r++ {
							if r == root && inPlace {
								continue
							}
							require.Equal(t, fill(r, bytes, 9), rb[r], "scatter %s rank %d", name, r)
						}
					}
				}
			}
		}
	}
}

// vblocks is an irregular layout: rank r has r%3+1 units, with gaps.
func vblocks(buf []byte, n, unit int) Blocks {
	bl := Blocks{Buf: ptr(buf), Count: make([]int, n), Displ: make([]int, n)}
	off := 0
	for r := n - 1; r >= 0; r-- { // reverse order: displacements need not grow
		bl.Count[r] = (r%3 + 1) * unit
		if r == 2 {
			bl.Count[r] = 0
		}
		bl.Displ[r] = off
		off += bl.Count[r] + 3
	}
	return bl
}

func vsize(n, unit int) int { return n*(3*unit+3) + 8 }

func TestGathervScatterv(t *testing.T) {
	for _, n := range sizes {
		for _, root := range []int{0, n - 1} {
			buf := make([]byte, vsize(n, 4))
			bl := vblocks(buf, n, 4)
			sc := make([]*Schedule, n)
			for r := range sc {
				sc[r] = Gather(n, r, root, ptr(fill(r, bl.Count[r], 5)), bl.Count[r], bl, GatherLinear)
			}
			run(t, sc)
			for r := 0; r < n; r++ {
				require.Equal(t, fill(r, bl.Count[r], 5), buf[bl.Displ[r]:bl.Displ[r]+bl.Count[r]])
			}
			rb := make([][]byte, n)
			for r := range sc {
				rb[r] = make([]byte, bl.Count[r])
				sc[r] = Scatter(n, r, root, bl, ptr(rb[r]), bl.Count[r], GatherLinear)
			}
			run(t, sc)
			for r := 0; r < n; r++ {
				require.Equal(t, fill(r, bl.Count[r], 5), rb[r])
			}
		}
	}
}

func TestAllgather(t *testing.T) {
	for _, alg := range []string{AllgatherRing, AllgatherBruck, AllgatherRecursiveDoubling, AllgatherLinear} {
		for _, n := range sizes {
			for _, bytes := range []int{0, 1, 6, 50} {
				for _, inPlace := range []bool{false, true} {
					rb := make([][]byte, n)
					sc := make([]*Schedule, n)
					for r := range sc {
						rb[r] = make([]byte, n*bytes)
						s := ptr(fill(r, bytes, 2))
						if inPlace {
							copy(rb[r][r*bytes:], fill(r, bytes, 2))
							s = nil
						}
						sc[r] = Allgather(n, r, s, bytes, Regular(ptr(rb[r]), n, bytes), alg)
					}
					run(t, sc)
					for r := 0; r < n; r++ {
						for q := 0; q < n; q++ {
							require.Equal(t, fill(q, bytes, 2), rb[r][q*bytes:(q+1)*bytes], "%s n=%d bytes=%d rank %d block %d", alg, n, bytes, r, q)
						}
					}
				}
			}
		}
		// v layout (ring only handles it; others fall back when asked)
	}
	for _, n := range sizes {
		rb := make([][]byte, n)
		bls := make([]Blocks, n)
		sc := make([]*Schedule, n)
		for r := range sc {
			rb[r] = make([]byte, vsize(n, 3))
			bls[r] = vblocks(rb[r], n, 3)
			sc[r] = Allgather(n, r, ptr(fill(r, bls[r].Count[r], 4)), bls[r].Count[r], bls[r], AllgatherRing)
			if n%2 == 1 {
				sc[r] = Allgather(n, r, ptr(fill(r, bls[r].Count[r], 4)), bls[r].Count[r], bls[r], AllgatherLinear)
			}
		}
		run(t, sc)
		for r := 0; r < n; r++ {
			for q := 0; q < n; q++ {
				bl := bls[r]
				require.Equal(t, fill(q, bl.Count[q], 4), rb[r][bl.Displ[q]:bl.Displ[q]+bl.Count[q]])
			}
		}
	}
}

func TestAlltoall(t *testing.T) {
	for _, alg := range []string{AlltoallLinear, AlltoallPairwise} {
		for _, n := range sizes {
			for _, bytes := range []int{0, 1, 9} {
				sb := make([][]byte, n)
				rb := make([][]byte, n)
				sc := make([]*Schedule, n)
				for r := range sc {
					sb[r] = make([]byte, n*bytes)
					for q := 0; q < n; q++ {
						copy(sb[r][q*bytes:], fill(r*100+q, bytes, 0))
					}
					rb[r] = make([]byte, n*bytes)
					sc[r] = Alltoall(n, r, Regular(ptr(sb[r]), n, bytes), Regular(ptr(rb[r]), n, bytes), alg)
				}
				run(t, sc)
				for r := 0; r < n; r++ {
					for q := 0; q < n; q++ {
						require.Equal(t, fill(q*100+r, bytes, 0), rb[r][q*bytes:(q+1)*bytes], "%s n=%d", alg, n)
					}
				}
			}
		}
		// v layout: rank r sends (r+q)%3 units to q
		for _, n := range sizes {
			sb := make([]Blocks, n)
			rb := make([]Blocks, n)
			rmem := make([][]byte, n)
			sc := make([]*Schedule, n)
			for r := range sc {
				smem := make([]byte, 0)
				sb[r] = Blocks{Count: make([]int, n), Displ: make([]int, n)}
				rb[r] = Blocks{Count: make([]int, n), Displ: make([]int, n)}
				roff := 0
				for q := 0; q < n; q++ {
					sb[r].Count[q], sb[r].Displ[q] = (r+q)%3*2, len(smem)
					smem = append(smem, fill(r*100+q, (r+q)%3*2, 1)...)
					rb[r].Count[q], rb[r].Displ[q] = (r+q)%3*2, roff
					roff += (r+q)%3*2 + 1
				}
				sb[r].Buf = ptr(append(smem, 0))
				rmem[r] = make([]byte, roff+1)
				rb[r].Buf = ptr(rmem[r])
				sc[r] = Alltoall(n, r, sb[r], rb[r], alg)
			}
			run(t, sc)
			for r := 0; r < n; r++ {
				for q := 0; q < n; q++ {
					o, k := rb[r].Displ[q], rb[r].Count[q]
					require.Equal(t, fill(q*100+r, k, 1), rmem[r][o:o+k])
				}
			}
		}
	}
}

func TestReduceScatter(t *testing.T) {
	for _, alg := range []string{ReduceScatterReduceScatterv, ReduceScatterRing, ReduceScatterLinear} {
		for _, op := range ops {
			for _, n := range sizes {
				for _, unit := range []int{0, 1, 3} {
					for _, inPlace := range []bool{false, true} {
						cnt := make([]int, n)
						total := 0
						for r := range cnt {
							cnt[r] = unit * (r%3 + 1)
							if unit == 3 && r == 1 {
								cnt[r] = 0
							}
							total += cnt[r]
						}
						off := 0
						rb := make([][]byte, n)
						sc := make([]*Schedule, n)
						for r := range sc {
							in := contrib(op, r, total)
							d := Data{Sbuf: ptr(in), Count: total, Ext: op.ext, Fn: op.fn, Commute: op.commute}
							if inPlace {
								rb[r] = in
								d.Sbuf = nil
							} else {
								rb[r] = make([]byte, cnt[r]*op.ext)
							}
							d.Rbuf = ptr(rb[r])
							sc[r] = ReduceScatter(n, r, d, cnt, alg)
						}
						run(t, sc)
						want := serial(op, 0, n, total)
						for r := 0; r < n; r++ {
							k := cnt[r] * op.ext
							require.Equal(t, want[off:off+k], rb[r][:k], "%s/%s n=%d unit=%d inplace=%v rank %d", alg, op.name, n, unit, inPlace, r)
							off += k
						}
					}
				}
			}
		}
	}
}

func TestScan(t *testing.T) {
	for _, alg := range []string{ScanRecursiveDoubling, ScanLinear} {
		for _, op := range ops {
			for _, n := range sizes {
				for _, count := range []int{0, 1, 4} {
					for _, excl := range []bool{false, true} {
						for _, inPlace := range []bool{false, true} {
							rb := make([][]byte, n)
							sc := make([]*Schedule, n)
							for r := range sc {
								d := Data{Sbuf: ptr(contrib(op, r, count)), Count: count, Ext: op.ext, Fn: op.fn, Commute: op.commute}
								rb[r] = make([]byte, count*op.ext)
								d.Rbuf = ptr(rb[r])
								if inPlace {
									copy(rb[r], contrib(op, r, count))
									d.Sbuf = d.Rbuf
								}
								sc[r] = Scan(n, r, d, excl, alg)
							}
							run(t, sc)
							for r := 0; r < n; r++ {
								if excl && r == 0 {
									continue
								}
								hi := r + 1
								if excl {
									hi = r
								}
								require.Equal(t, serial(op, 0, hi, count), rb[r], "%s/%s n=%d count=%d excl=%v inplace=%v rank %d", alg, op.name, n, count, excl, inPlace, r)
							}
						}
					}
				}
			}
		}
	}
}

// Schedules are reusable (persistent collectives) and several may be in
// flight at once when their tags differ.
func TestRestartAndOverlap(t *testing.T) {
	for _, n := range []int{2, 3, 5, 8} {
		f := newFakeNet(n)
		op := ops[1]
		rb := make([][]byte, n)
		ar := make([]*Schedule, n)
		bc := make([]*Schedule, n)
		bbuf := make([][]byte, n)
		for r := 0; r < n; r++ {
			rb[r] = make([]byte, 3*op.ext)
			ar[r] = Allreduce(n, r, Data{Sbuf: ptr(contrib(op, r, 3)), Rbuf: ptr(rb[r]), Count: 3, Ext: op.ext, Fn: op.fn}, AllreduceRecursiveDoubling)
			bbuf[r] = make([]byte, 33)
			bc[r] = Bcast(n, r, n-1, ptr(bbuf[r]), 33, BcastPipeline, 8)
		}
		for it := 0; it < 20; it++ {
			for r := range bbuf {
				clear(rb[r])
				if r == n-1 {
					copy(bbuf[r], fill(it, 33, 0))
				}
			}
			// start both on every rank, in opposite orders on odd ranks
			for r := 0; r < n; r++ {
				p := &fakePort{net: f, me: r}
				if r%2 == 0 {
					ar[r].Start(p, 2*it)
					bc[r].Start(p, 2*it+1)
				} else {
					bc[r].Start(p, 2*it+1)
					ar[r].Start(p, 2*it)
				}
			}
			for {
				before, all := f.matches, true
				for r := n - 1; r >= 0; r-- {
					all = bc[r].Advance() && all
					all = ar[r].Advance() && all
				}
				if all {
					break
				}
				require.NotEqual(t, before, f.matches, "deadlock")
			}
			for r := 0; r < n; r++ {
				require.Equal(t, serial(op, 0, n, 3), rb[r])
				require.Equal(t, fill(it, 33, 0), bbuf[r])
			}
		}
	}
}

// A ring of n ranks as a periodic 1-D Cartesian grid: block 0 goes to the
// left neighbour and arrives in its block 1, block 1 goes right and arrives
// in block 0, also when both neighbours are one rank (n = 2) or oneself
// (n = 1, which the fake cannot carry, so n >= 2 here).
func TestNeighborCartRing(t *testing.T) {
	for _, n := range []int{2, 3, 5} {
		rb := make([][]byte, n)
		sc := make([]*Schedule, n)
		for r := 0; r < n; r++ {
			left, right := (r-1+n)%n, (r+1)%n
			sb := append(fill(r, 3, 10), fill(r, 3, 20)...)
			rb[r] = make([]byte, 6)
			sc[r] = Neighbor(
				[]Part{{left, ptr(sb), 3, 1}, {right, ptr(sb[3:]), 3, 0}},
				[]Part{{left, ptr(rb[r]), 3, 0}, {right, ptr(rb[r][3:]), 3, 1}, {-1, nil, 3, 0}})
			require.Equal(t, 2, sc[r].Tags())
		}
		run(t, sc)
		for r := 0; r < n; r++ {
			left, right := (r-1+n)%n, (r+1)%n
			require.Equal(t, fill(left, 3, 20), rb[r][:3], "n=%d rank %d from left", n, r)
			require.Equal(t, fill(right, 3, 10), rb[r][3:], "n=%d rank %d from right", n, r)
		}
	}
}
