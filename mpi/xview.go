package mpi

import (
	"unsafe"

	"gompi/pml"
)

// Tags on a communicator's collective context that communicator management
// uses; user-visible collectives use tags >= 0 there.
const (
	tagCommMgmt   = -16
	tagCommBridge = -17 // intercommunicator leaders
	tagGroupBase  = -64 // MPI_Comm_create_group: tagGroupBase - (tag mod 2^20)
	// Below it, 2^20 each: tagGroupBase - 2<<20 (MPI_Intercomm_create
	// leaders), - 3<<20 (MPI_Comm_create_from_group), - 5<<20
	// (MPI_Intercomm_create_from_groups); idups from -(1<<23) (ctxid_nb.go).
)

// xview is a set of ranks of one pml communicator that runs the small
// collectives communicator management needs (masks, colours, edge lists;
// never user data). Member i is peer ranks[i] of pc.
type xview struct {
	pc    *pml.Comm
	ranks []int
	me    int
	tag   int
}

// viewOf is the view of every rank of c's collective context.
func viewOf(c *Comm) *xview {
	cc := c.cc
	if c.inter {
		cc = c.local.cc
	}
	ranks := make([]int, cc.Size())
	for i := range ranks {
		ranks[i] = i
	}
	return &xview{pc: cc, ranks: ranks, me: cc.Rank, tag: tagCommMgmt}
}

func (v *xview) size() int { return len(v.ranks) }

func bytePtr(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

func (v *xview) send(i int, b []byte) {
	st.eng.Send(v.pc, bytePtr(b), len(b), v.ranks[i], v.tag, pml.ModeStandard)
}

func (v *xview) recv(i int, b []byte) int {
	return st.eng.Recv(v.pc, bytePtr(b), len(b), v.ranks[i], v.tag).Count
}

// bcast sends b from member root to all (binomial tree).
func (v *xview) bcast(b []byte, root int) {
	n := v.size()
	rel := (v.me - root + n) % n
	mask := 1
	for mask < n {
		if rel&mask != 0 {
			v.recv((rel-mask+root)%n, b)
			break
		}
		mask <<= 1
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		if rel+mask < n {
			v.send((rel+mask+root)%n, b)
		}
	}
}

// allreduceMask leaves in m the AND of every member's m.
func (v *xview) allreduceMask(m *ctxMask) {
	buf := (*[len(ctxMask{}) * 8]byte)(unsafe.Pointer(m))[:]
	in := make([]byte, len(buf))
	n := v.size()
	for mask := 1; mask < n; mask <<= 1 {
		if v.me&mask != 0 {
			v.send(v.me-mask, buf)
			break
		}
		if v.me+mask < n {
			v.recv(v.me+mask, in)
			m.and((*ctxMask)(unsafe.Pointer(&in[0])))
		}
	}
	v.bcast(buf, 0)
}

// allgatherInts gathers len(mine) ints (the same on every member) from
// every member, in member order.
func (v *xview) allgatherInts(mine []int) []int {
	lens := make([]int, v.size())
	for i := range lens {
		lens[i] = len(mine)
	}
	return v.gathervInts(mine, lens)
}

// allgatherv gathers a variable-length int list from every member.
func (v *xview) allgatherv(mine []int) [][]int {
	lens := v.allgatherInts([]int{len(mine)})
	flat := v.gathervInts(mine, lens)
	out := make([][]int, v.size())
	off := 0
	for i, l := range lens {
		out[i] = flat[off : off+l]
		off += l
	}
	return out
}

// gathervInts collects lens[i] ints from member i at member 0 and
// broadcasts the concatenation.
func (v *xview) gathervInts(mine []int, lens []int) []int {
	total, off := 0, 0
	for i, l := range lens {
		if i == v.me {
			off = total
		}
		total += l
	}
	all := make([]byte, 8*total)
	copy(all[8*off:], intsBytes(mine))
	if v.me == 0 {
		o := lens[0]
		for i := 1; i < v.size(); i++ {
			if lens[i] > 0 {
				v.recv(i, all[8*o:8*(o+lens[i])])
			}
			o += lens[i]
		}
	} else if len(mine) > 0 {
		v.send(0, all[8*off:8*(off+len(mine))])
	}
	if total > 0 {
		v.bcast(all, 0)
	}
	return bytesInts(all)
}

// exchange swaps b with peer rank of pc (intercommunicator leaders).
func exchange(pc *pml.Comm, peer, tag int, out, in []byte) {
	r := st.eng.Isend(pc, bytePtr(out), len(out), peer, tag, pml.ModeStandard)
	st.eng.Recv(pc, bytePtr(in), len(in), peer, tag)
	if r != nil {
		st.eng.Wait(r)
		st.eng.Release(r)
	}
}
