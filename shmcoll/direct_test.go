package shmcoll

import (
	"fmt"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// memories is every rank's buffers in one process, so a fake Direct finds
// the slice holding an address a rank posted.
type memories struct {
	bufs   [][][]byte // per rank, its buffers of the current call
	noAt   bool       // At always fails: everything goes through Read/Write
	failAt int        // Read and Write of this rank fail (-1: none)
	selfAt []int32    // per rank, how often it reached its own memory through Direct
}

func (m *memories) find(r int, addr uintptr, n int) []byte {
	for _, b := range m.bufs[r] {
		base := uintptr(unsafe.Pointer(&b[0]))
		if addr >= base && addr+uintptr(n) <= base+uintptr(len(b)) {
			off := int(addr - base)
			return b[off : off+n]
		}
	}
	panic(fmt.Sprintf("rank %d has no %d bytes at %#x", r, n, addr))
}

// direct is rank me's view of the others' memory; it counts me's uses of
// its own memory (a rank has its own buffers at hand: going through At or
// Read costs a system call in the library).
func (m *memories) direct(me int) *Direct {
	self := func(r int) {
		if r == me && m.selfAt != nil {
			atomic.AddInt32(&m.selfAt[me], 1)
		}
	}
	return &Direct{
		At: func(r int, addr uintptr, n int) unsafe.Pointer {
			self(r)
			if m.noAt {
				return nil
			}
			return unsafe.Pointer(&m.find(r, addr, n)[0])
		},
		Read: func(r int, dst unsafe.Pointer, addr uintptr, n int) bool {
			self(r)
			copy(bytes(dst, n), m.find(r, addr, n))
			return r != m.failAt
		},
		Write: func(r int, addr uintptr, src unsafe.Pointer, n int) bool {
			self(r)
			copy(m.find(r, addr, n), bytes(src, n))
			return r != m.failAt
		},
	}
}

// digits is rank r's element i for the concat op: one decimal digit.
func digits(r, i int) int64 { return int64((r+i)%9 + 1) }

// concatOf is the rank-order concat of element i over p ranks.
func concatOf(p, i int) int64 {
	v := int64(0)
	for r := range p {
		v = v*10 + digits(r, i)
	}
	return v
}

func int64s(b []byte) []int64 { return unsafe.Slice((*int64)(unsafe.Pointer(&b[0])), len(b)/8) }

// TestDirectCollectives: alltoall, allgather, allreduce, reduce, bcast and reduce_scatter
// through the other ranks' buffers, in place or not, with the buffers
// addressable or only copyable, call after call with the buffers refilled as soon as a call
// returns (a rank still reading would see the next call's data) and other
// collectives in between. The op is not commutative: rank order shows.
func TestDirectCollectives(t *testing.T) {
	// The CPU each rank says it runs on: unknown (a core each: pushBlocks
	// pushes), or known (processes outnumber cores: shareBlocks claims),
	// one for all, two shared, or changing every few calls. Here the ranks
	// really run at once, so the claims alone must keep them apart.
	cpus := map[string]func(me int, calls *int) func() int32{
		"none": nil,
		"one":  func(int, *int) func() int32 { return func() int32 { return 0 } },
		"two":  func(me int, _ *int) func() int32 { return func() int32 { return int32(me % 2) } },
		"moving": func(me int, calls *int) func() int32 {
			return func() int32 { *calls++; return int32((me + *calls/5) % 3) }
		},
	}
	for _, p := range []int{2, 3, 5} {
		for _, noAt := range []bool{false, true} {
			for cpuName, cpu := range cpus {
				t.Run(fmt.Sprintf("p=%d/noAt=%v/cpu=%s", p, noAt, cpuName), func(t *testing.T) {
					const count = 11 // not a multiple of p: blocks differ
					m := &memories{bufs: make([][][]byte, p), noAt: noAt, failAt: -1, selfAt: make([]int32, p)}
					errs := make([]string, p)
					run(groups(p, 64, []uint64{3, 0, 8, 1, 5}[:p]), func(g *Group) {
						fail := failer(errs, g.me)
						if cpu != nil {
							g.CPU = cpu(g.me, new(int))
						}
						d := m.direct(g.me)
						send, recv := make([]byte, 8*count*p), make([]byte, 8*count*p)
						m.bufs[g.me] = [][]byte{send, recv}
						fill := func(call int) {
							for i := range int64s(send) {
								int64s(send)[i] = digits(g.me, i+call)
							}
						}
						for call := range 60 {
							fill(call)
							inPlace := call%4 == 3
							sp := unsafe.Pointer(&send[0])
							if inPlace {
								copy(recv, send)
								sp = unsafe.Pointer(&recv[0])
							}
							switch call % 4 {
							case 0:
								if inPlace {
									break
								}
								g.AlltoallDirect(sp, unsafe.Pointer(&recv[0]), 8*count, d)
								fill(-1)
								for r := range p {
									for i := range count {
										if got, want := int64s(recv)[r*count+i], digits(r, g.me*count+i+call); got != want {
											fail("call %d alltoall: from %d [%d] = %d, want %d", call, r, i, got, want)
										}
									}
								}
								// Allgather, in place on odd ranks: the own block already sits in recv.
								fill(call)
								own := unsafe.Pointer(&send[0])
								if g.me%2 == 1 {
									copy(recv[8*count*g.me:], send[:8*count])
									own = unsafe.Pointer(&recv[8*count*g.me])
								}
								g.AllgatherDirect(own, unsafe.Pointer(&recv[0]), 8*count, d)
								fill(-1)
								for r := range p {
									for i := range count {
										if got, want := int64s(recv)[r*count+i], digits(r, i+call); got != want {
											fail("call %d allgather: from %d [%d] = %d, want %d", call, r, i, got, want)
										}
									}
								}
							case 1:
								g.AllreduceDirect(sp, unsafe.Pointer(&recv[0]), count, 8, Fold{Op: concatN}, d)
								fill(-1)
								for i := range count {
									if got, want := int64s(recv)[i], concatOf(p, i+call); got != want {
										fail("call %d allreduce [%d] = %d, want %d", call, i, got, want)
									}
								}
							case 2:
								root := call % p
								if inPlace && g.me != root {
									sp = unsafe.Pointer(&send[0])
								}
								g.ReduceDirect(sp, unsafe.Pointer(&recv[0]), count, 8, root, Fold{Op: concatN}, d)
								fill(-1)
								for i := 0; g.me == root && i < count; i++ {
									if got, want := int64s(recv)[i], concatOf(p, i+call); got != want {
										fail("call %d reduce to %d [%d] = %d, want %d", call, root, i, got, want)
									}
								}
								// Bcast of a length in bytes that ends mid-line, from
								// few lines (some ranks copy nothing) to all of recv.
								n := 1 + (call*37)%len(recv)
								for i := range recv {
									recv[i] = byte(g.me*31 + 1) // not the root's
									if g.me == root {
										recv[i] = byte(i*7 + call)
									}
								}
								g.BcastDirect(unsafe.Pointer(&recv[0]), n, root, d)
								for i := range n {
									if recv[i] != byte(i*7+call) {
										fail("call %d bcast from %d of %d bytes: [%d] = %d, want %d", call, root, n, i, recv[i], byte(i*7+call))
										break
									}
								}
								for i := n; g.me != root && i < len(recv); i++ {
									if recv[i] != byte(g.me*31+1) {
										fail("call %d bcast of %d bytes wrote [%d]", call, n, i)
										break
									}
								}
								for i := range recv {
									recv[i] = 0xEE // a late writer or reader would show
								}
							case 3:
								counts := make([]int, p) // uneven blocks, one empty
								for r := range counts {
									counts[r] = (r*5 + call) % 7
								}
								g.ReduceScatterDirect(sp, unsafe.Pointer(&recv[0]), counts, 8, Fold{Op: concatN}, d)
								fill(-1)
								first := 0
								for _, k := range counts[:g.me] {
									first += k
								}
								for i := range counts[g.me] {
									if got, want := int64s(recv)[i], concatOf(p, first+i+call); got != want {
										fail("call %d reduce_scatter [%d] = %d, want %d", call, i, got, want)
									}
								}
							}
							if call%5 == 0 {
								g.Barrier()
							}
						}
					})
					for me, e := range errs {
						require.Empty(t, e, "rank %d", me)
					}
					require.Equal(t, make([]int32, p), m.selfAt, "ranks reached their own buffers through Direct")
				})
			}
		}
	}
}

// TestDirectReportsUnreachableRank: a failed copy is reported and the
// protocol still runs to its end on every rank.
func TestDirectReportsUnreachableRank(t *testing.T) {
	const p, n = 3, 16
	m := &memories{bufs: make([][][]byte, p), noAt: true, failAt: 2}
	bads := make([]int, p)
	run(groups(p, 64, []uint64{0, 0, 0}), func(g *Group) {
		send, recv := make([]byte, p*n), make([]byte, p*n)
		m.bufs[g.me] = [][]byte{send, recv}
		bads[g.me] = g.AlltoallDirect(unsafe.Pointer(&send[0]), unsafe.Pointer(&recv[0]), n, m.direct(g.me))
		g.Barrier()
	})
	require.Equal(t, []int{2, 2, -1}, bads)
}
