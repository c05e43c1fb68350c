package coll

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// layouts are node ids per rank: blocks, odd sizes, ranks of a node not
// consecutive (non-commutative ops then take the flat algorithms).
var layouts = [][]int{
	{0, 0, 1},
	{0, 1, 1},
	{0, 0, 1, 1},
	{0, 1, 0, 1},
	{0, 0, 0, 1},
	{0, 0, 1, 1, 2},
	{5, 3, 3, 5, 9},
	{0, 0, 0, 1, 1, 2, 2, 2, 2},
	{0, 1, 2, 0, 1, 2, 0, 1},
}

func TestGroupNodes(t *testing.T) {
	require.Nil(t, GroupNodes([]int{4, 4, 4}), "one node")
	require.Nil(t, GroupNodes([]int{0, 1, 2}), "one rank per node")
	h := GroupNodes([]int{7, 3, 7, 3, 1})
	require.Equal(t, []int{0, 1, 0, 1, 2}, h.Of)
	require.Equal(t, [][]int{{0, 2}, {1, 3}, {4}}, h.Ranks)
	require.False(t, h.Contig)
	require.True(t, GroupNodes([]int{1, 1, 0, 0, 0}).Contig)
	require.Equal(t, []int{0, 0, 0, 1, 1}, FakeNodes(5, 2, false))
	require.Equal(t, []int{0, 1, 0, 1, 0}, FakeNodes(5, 2, true))
	require.Equal(t, []int{0, 1, 1}, GroupNodes([]int{0, 1, 1}).Of)
	require.Equal(t, []int{0, 1, 3}, GroupNodes([]int{0, 1, 1, 2, 2, 0}).leaders(3))
	node, li, lead := GroupNodes([]int{0, 1, 1, 2, 2, 0}).mine(5, 0)
	require.Equal(t, []int{0, 5}, node)
	require.Equal(t, 1, li)
	require.Equal(t, 0, lead)
}

func TestHierBarrier(t *testing.T) {
	for _, ids := range layouts {
		h := GroupNodes(ids)
		sc := make([]*Schedule, len(ids))
		for r := range sc {
			sc[r] = HierBarrier(h, r)
		}
		run(t, sc)
		// no rank gets out before the last one entered
		f := newFakeNet(len(ids))
		for r := range sc {
			if r != len(ids)-1 {
				sc[r].Start(&fakePort{net: f, me: r}, 3)
				sc[r].Advance()
			}
		}
		for r := 0; r < len(ids)-1; r++ {
			require.False(t, sc[r].Advance(), "%v: rank %d left early", ids, r)
		}
	}
}

func TestHierBcast(t *testing.T) {
	for _, ids := range layouts {
		h := GroupNodes(ids)
		size := len(ids)
		for root := 0; root < size; root++ {
			for _, n := range []int{0, 1, 100, 1000} {
				for _, seg := range []int{0, 64, 200} {
					bufs := make([][]byte, size)
					sc := make([]*Schedule, size)
					want := fill(root, n, 5)
					for r := range sc {
						bufs[r] = make([]byte, n)
						if r == root {
							copy(bufs[r], want)
						}
						alg := Algorithms[KBcast][(root+n)%4]
						sc[r] = HierBcast(h, r, root, ptr(bufs[r]), n, alg, seg)
					}
					run(t, sc)
					for r := range bufs {
						require.Equal(t, want, bufs[r], "%v root %d n %d seg %d rank %d", ids, root, n, seg, r)
					}
				}
			}
		}
	}
}

func TestHierReduce(t *testing.T) {
	for _, ids := range layouts {
		h := GroupNodes(ids)
		size := len(ids)
		for _, op := range ops {
			if !h.Ordered(op.commute) {
				require.Nil(t, HierReduce(h, 0, 0, Data{Commute: false}))
				continue
			}
			for root := 0; root < size; root++ {
				for _, count := range []int{0, 1, 5, 64} {
					for _, inPlace := range []bool{false, true} {
						rb := make([]byte, count*op.ext)
						sc := make([]*Schedule, size)
						for r := range sc {
							d := Data{Sbuf: ptr(contrib(op, r, count)), Count: count, Ext: op.ext, Fn: op.fn, Commute: op.commute}
							if r == root {
								d.Rbuf = ptr(rb)
								if inPlace {
									copy(rb, contrib(op, r, count))
									d.Sbuf = d.Rbuf
								}
							}
							sc[r] = HierReduce(h, r, root, d)
						}
						run(t, sc)
						require.Equal(t, serial(op, 0, size, count), rb, "%v %s root %d count %d inplace %v", ids, op.name, root, count, inPlace)
					}
				}
			}
		}
	}
}

func TestHierAllreduce(t *testing.T) {
	for _, ids := range layouts {
		h := GroupNodes(ids)
		size := len(ids)
		for _, op := range ops {
			if !h.Ordered(op.commute) {
				continue
			}
			for _, alg := range Algorithms[KAllreduce] {
				for _, count := range []int{0, 1, 5, 64} {
					for _, seg := range []int{0, 8} {
						for _, inPlace := range []bool{false, true} {
							rb := make([][]byte, size)
							sc := make([]*Schedule, size)
							for r := range sc {
								sb := contrib(op, r, count)
								rb[r] = make([]byte, count*op.ext)
								d := Data{Sbuf: ptr(sb), Rbuf: ptr(rb[r]), Count: count, Ext: op.ext, Fn: op.fn, Commute: op.commute}
								if inPlace {
									copy(rb[r], sb)
									d.Sbuf = d.Rbuf
								}
								sc[r] = HierAllreduce(h, r, d, alg, seg)
							}
							run(t, sc)
							want := serial(op, 0, size, count)
							for r := range rb {
								require.Equal(t, want, rb[r], "%v %s %s count %d seg %d inplace %v rank %d", ids, op.name, alg, count, seg, inPlace, r)
							}
						}
					}
				}
			}
		}
	}
}

func TestHierGatherScatter(t *testing.T) {
	for _, ids := range layouts {
		h := GroupNodes(ids)
		size := len(ids)
		for root := 0; root < size; root++ {
			for _, n := range []int{0, 1, 13} {
				for _, inPlace := range []bool{false, true} {
					name := fmt.Sprintf("%v root %d n %d inplace %v", ids, root, n, inPlace)
					// gather
					all := make([]byte, n*size)
					sc := make([]*Schedule, size)
					want := []byte{}
					for r := range sc {
						want = append(want, fill(r, n, 1)...)
					}
					for r := range sc {
						sb := ptr(fill(r, n, 1))
						if r == root && inPlace {
							copy(all[r*n:], fill(r, n, 1))
							sb = nil
						}
						sc[r] = HierGather(h, r, root, sb, n, Regular(ptr(all), size, n))
					}
					run(t, sc)
					require.Equal(t, want, all, "gather "+name)
					// scatter
					out := make([][]byte, size)
					for r := range sc {
						out[r] = make([]byte, n)
						rbuf := ptr(out[r])
						var sb Blocks
						if r == root {
							sb = Regular(ptr(want), size, n)
							if inPlace {
								rbuf = nil
								copy(out[r], want[r*n:])
							}
						}
						sc[r] = HierScatter(h, r, root, sb, rbuf, n)
					}
					run(t, sc)
					for r := range out {
						require.Equal(t, want[r*n:(r+1)*n], out[r], "scatter %s rank %d", name, r)
					}
				}
			}
		}
	}
}

func TestHierAllgather(t *testing.T) {
	for _, ids := range layouts {
		h := GroupNodes(ids)
		size := len(ids)
		for _, unit := range []int{0, 1, 3} {
			for _, gaps := range []bool{false, true} {
				for _, inPlace := range []bool{false, true} {
					cnt := make([]int, size)
					for r := range cnt {
						cnt[r] = unit * (r%3 + 1)
					}
					rbs := make([][]byte, size)
					lays := make([]Blocks, size)
					sc := make([]*Schedule, size)
					for r := range sc {
						// each rank its own displacements: with gaps, reversed
						bl := Blocks{Count: append([]int(nil), cnt...), Displ: make([]int, size)}
						o := 0
						for i := range cnt {
							q := i
							if gaps && r%2 == 1 {
								q = size - 1 - i
							}
							bl.Displ[q] = o
							o += cnt[q]
							if gaps {
								o += 2
							}
						}
						rbs[r] = make([]byte, o+1)
						bl.Buf = ptr(rbs[r])
						lays[r] = bl
						sb := ptr(fill(r, cnt[r], 9))
						if inPlace {
							copy(rbs[r][bl.Displ[r]:], fill(r, cnt[r], 9))
							sb = nil
						}
						sc[r] = HierAllgather(h, r, sb, cnt[r], bl)
					}
					run(t, sc)
					for r := range sc {
						for q := range cnt {
							d := lays[r].Displ[q]
							require.Equal(t, fill(q, cnt[q], 9), rbs[r][d:d+cnt[q]], "%v unit %d gaps %v inplace %v rank %d block %d", ids, unit, gaps, inPlace, r, q)
						}
					}
				}
			}
		}
	}
}

func TestHierReduceScatter(t *testing.T) {
	for _, ids := range layouts {
		h := GroupNodes(ids)
		n := len(ids)
		for _, op := range ops {
			if !h.Ordered(op.commute) {
				continue
			}
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
						sc[r] = HierReduceScatter(h, r, d, cnt)
					}
					run(t, sc)
					want := serial(op, 0, n, total)
					off := 0
					for r := 0; r < n; r++ {
						k := cnt[r] * op.ext
						require.Equal(t, want[off:off+k], rb[r][:k], "%v %s unit %d inplace %v rank %d", ids, op.name, unit, inPlace, r)
						off += k
					}
				}
			}
		}
	}
}

func TestHierAlltoall(t *testing.T) {
	for _, ids := range layouts {
		h := GroupNodes(ids)
		size := len(ids)
		for _, n := range []int{0, 1, 5} {
			for _, gaps := range []bool{false, true} {
				sbs, rbs := make([][]byte, size), make([][]byte, size)
				rls := make([]Blocks, size)
				sc := make([]*Schedule, size)
				for r := range sc {
					sbs[r] = fill(r, size*n, 3)
					sl := Regular(ptr(sbs[r]), size, n)
					rl := Blocks{Count: make([]int, size), Displ: make([]int, size)}
					o := 0
					for q := range rl.Count { // reversed and spaced on odd ranks
						x := q
						if gaps && r%2 == 1 {
							x = size - 1 - q
						}
						rl.Count[x], rl.Displ[x] = n, o
						o += n
						if gaps {
							o++
						}
					}
					rbs[r] = make([]byte, o+1)
					rl.Buf = ptr(rbs[r])
					rls[r] = rl
					sc[r] = HierAlltoall(h, r, sl, rl, n)
				}
				run(t, sc)
				for r := range sc {
					for q := range ids {
						d := rls[r].Displ[q]
						require.Equal(t, sbs[q][r*n:(r+1)*n], rbs[r][d:d+n], "%v n %d gaps %v rank %d from %d", ids, n, gaps, r, q)
					}
				}
			}
		}
	}
}
