package mpi

import "math/bits"

// Context ids are handed out in pairs (point-to-point 2b, collective 2b+1)
// from a per-process mask of free pair slots. A new communicator takes the
// lowest slot free in every member (a bitwise AND reduced over the creating
// group), which is why groups creating communicators concurrently never
// collide where they share a process, and disjoint groups may reuse a slot.
const ctxSlots = 2048

type ctxMask [ctxSlots / 64]uint64

// ctxFree is this process's mask: a set bit is a free slot.
var ctxFree = func() (m ctxMask) {
	for i := range m {
		m[i] = ^uint64(0)
	}
	m[0] &^= 1<<(ctxWorld/2) | 1<<(ctxSelf/2) // the predefined communicators
	return
}()

// lowest returns the lowest set slot of m, or -1.
func (m *ctxMask) lowest() int {
	for i, w := range m {
		if w != 0 {
			return i*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// lowestN returns the n lowest set slots of m (fewer when m runs out).
func (m *ctxMask) lowestN(n int) []int {
	tmp := *m
	var out []int
	for len(out) < n {
		s := tmp.lowest()
		if s < 0 {
			break
		}
		tmp.clear(s)
		out = append(out, s)
	}
	return out
}

func (m *ctxMask) clear(s int) { m[s/64] &^= 1 << (s % 64) }
func (m *ctxMask) set(s int)   { m[s/64] |= 1 << (s % 64) }

func (m *ctxMask) and(o *ctxMask) {
	for i := range m {
		m[i] &= o[i]
	}
}
