package coll

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// interPort addresses a fake network through a rank map (remote rank ->
// fake rank), so two groups can share one network.
type interPort struct {
	p    fakePort
	map_ []int
}

func (q *interPort) Isend(buf unsafe.Pointer, n, peer, tag int) Req {
	return q.p.Isend(buf, n, q.map_[peer], tag)
}
func (q *interPort) Irecv(buf unsafe.Pointer, n, peer, tag int, whole bool) Req {
	return q.p.Irecv(buf, n, q.map_[peer], tag, whole)
}
func (q *interPort) Release(Req) {}

// runInter runs schedules of groups A (na ranks) and B: fake ranks 0..na-1
// are A, na.. are B; each group has its own local network.
func runInter(t *testing.T, na int, scheds []*Schedule) {
	t.Helper()
	n := len(scheds)
	inter := newFakeNet(n)
	la, lb := newFakeNet(na), newFakeNet(n-na)
	toB, toA := make([]int, n-na), make([]int, na)
	for i := range toB {
		toB[i] = na + i
	}
	for i := range toA {
		toA[i] = i
	}
	for g, s := range scheds {
		if g < na {
			s.Start2(&interPort{fakePort{inter, g}, toB}, 5, &fakePort{la, g}, 9)
		} else {
			s.Start2(&interPort{fakePort{inter, g}, toA}, 5, &fakePort{lb, g - na}, 9)
		}
	}
	for {
		before := inter.matches + la.matches + lb.matches
		all := true
		for _, s := range scheds {
			if !s.Advance() {
				all = false
			}
		}
		if all {
			break
		}
		require.NotEqual(t, before, inter.matches+la.matches+lb.matches, "deadlock")
	}
}

// group returns a rank's group size, local rank and remote size.
func group(g, na, n int) (lsize, lr, rsize int) {
	if g < na {
		return na, g, n - na
	}
	return n - na, g - na, na
}

func TestInterCollectives(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {1, 3}, {2, 3}, {4, 3}, {3, 5}, {3, 3}} {
		na, n := sz[0], sz[0]+sz[1]
		// barrier
		sc := make([]*Schedule, n)
		for g := range sc {
			ls, lr, _ := group(g, na, n)
			sc[g] = InterBarrier(ls, lr)
		}
		runInter(t, na, sc)
		for _, op := range ops {
			const count = 5
			// allreduce: each group gets the other group's reduction in rank order
			rb := make([][]byte, n)
			for g := range sc {
				ls, lr, _ := group(g, na, n)
				rb[g] = make([]byte, count*op.ext)
				d := Data{Sbuf: ptr(contrib(op, g, count)), Rbuf: ptr(rb[g]), Count: count, Ext: op.ext, Fn: op.fn, Commute: op.commute}
				sc[g] = InterAllreduce(ls, lr, d)
			}
			runInter(t, na, sc)
			for g := range sc {
				if g < na {
					require.Equal(t, serial(op, na, n, count), rb[g], "allreduce %v A rank %d", sz, g)
				} else {
					require.Equal(t, serial(op, 0, na, count), rb[g], "allreduce %v B rank %d", sz, g)
				}
			}
			// reduce to B's last rank, bcast from A's first rank
			root := n - na - 1
			out := make([]byte, count*op.ext)
			bbuf := make([][]byte, n)
			for g := range sc {
				ls, lr, _ := group(g, na, n)
				d := Data{Sbuf: ptr(contrib(op, g, count)), Count: count, Ext: op.ext, Fn: op.fn, Commute: op.commute}
				side := SideRecv
				if g >= na {
					side = SideIdle
					if lr == root {
						side, d.Rbuf = SideRoot, ptr(out)
					}
				}
				sc[g] = InterReduce(ls, lr, side, root, d)
			}
			runInter(t, na, sc)
			require.Equal(t, serial(op, 0, na, count), out, "reduce %v", sz)
			for g := range sc {
				ls, lr, _ := group(g, na, n)
				bbuf[g] = make([]byte, 7)
				side := SideRecv
				if g < na {
					side = SideIdle
					if lr == 0 {
						side = SideRoot
						copy(bbuf[g], fill(1, 7, 4))
					}
				}
				sc[g] = InterBcast(ls, lr, side, 0, ptr(bbuf[g]), 7)
			}
			runInter(t, na, sc)
			for g := na; g < n; g++ {
				require.Equal(t, fill(1, 7, 4), bbuf[g], "bcast %v", sz)
			}
			// reduce_scatter: counts per local rank r: r+1
			for g := range sc {
				ls, lr, _ := group(g, na, n)
				counts := make([]int, ls)
				total := 0
				for i := range counts {
					counts[i] = i + 1
					total += i + 1
				}
				rb[g] = make([]byte, counts[lr]*op.ext)
				d := Data{Sbuf: ptr(contrib(op, g, total)), Rbuf: ptr(rb[g]), Count: total, Ext: op.ext, Fn: op.fn, Commute: op.commute}
				sc[g] = InterReduceScatter(ls, lr, d, counts)
			}
			if na == n-na { // the totals must agree
				runInter(t, na, sc)
				for g := range sc {
					_, lr, _ := group(g, na, n)
					lo, hi := 0, na
					if g < na {
						lo, hi = na, n
					}
					off := lr * (lr + 1) / 2 * op.ext
					want := serial(op, lo, hi, na*(na+1)/2)
					require.Equal(t, want[off:off+(lr+1)*op.ext], rb[g], "reduce_scatter %v rank %d", sz, g)
				}
			}
		}
	}
}
