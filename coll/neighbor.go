package coll

import "unsafe"

// Part is one message of a neighbourhood collective: Peer < 0 (MPI_PROC_NULL)
// moves nothing. Off distinguishes messages between the same two ranks that
// the standard pairs by direction rather than by order (a Cartesian
// dimension of size 1 or 2 where both neighbours are one rank).
type Part struct {
	Peer int
	Buf  unsafe.Pointer
	N    int
	Off  int
}

// Neighbor builds a neighbourhood exchange: every receive and send posted at
// once. Runs use as many tags as the largest Off plus one.
func Neighbor(sends, recvs []Part) *Schedule {
	b := newBuilder(nil)
	for _, p := range recvs {
		if p.Peer >= 0 && p.N > 0 {
			b.add(step{kind: stRecv, peer: p.Peer, off: p.Off, a: p.Buf, n: p.N})
		}
	}
	for _, p := range sends {
		if p.Peer >= 0 && p.N > 0 {
			b.add(step{kind: stSend, peer: p.Peer, off: p.Off, a: p.Buf, n: p.N})
		}
	}
	return b.done()
}
