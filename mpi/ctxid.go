package mpi

import (
	"math/bits"

	"gompi/btl/sm"
)

// Context ids are handed out in pairs (point-to-point 2b, collective 2b+1)
// from a per-process mask of free pair slots. A new communicator takes the
// lowest slot free in every member (a bitwise AND reduced over the creating
// group), which is why groups creating communicators concurrently never
// collide where they share a process, and disjoint groups may reuse a slot.
const ctxSlots = 2048

// The last areaSlots bits of the mask stand for the shared-memory collective
// areas (sm.CollAreas); they are agreed the same way as contexts.
const (
	areaSlots = sm.CollAreas
	areaBit0  = ctxSlots - areaSlots
)

type ctxMask [ctxSlots / 64]uint64

// The slots kept for the first MPI_Comm_idup of MPI_COMM_WORLD and
// MPI_COMM_SELF (every other intracommunicator gets its reserve when made).
const (
	slotWorldIdup = ctxFirstDyn / 2
	slotSelfIdup  = ctxFirstDyn/2 + 1
)

// ctxFree is this process's mask: a set bit is a free slot.
var ctxFree = func() (m ctxMask) {
	for i := range m {
		m[i] = ^uint64(0)
	}
	m[0] &^= 1<<(ctxWorld/2) | 1<<(ctxSelf/2)   // the predefined communicators
	m[0] &^= 1<<slotWorldIdup | 1<<slotSelfIdup // and their idup reserves
	m.clear(areaBit0 + worldArea)
	return
}()

// lowest returns the lowest set context slot of m, or -1.
func (m *ctxMask) lowest() int {
	for i, w := range m {
		if i*64+64 > areaBit0 {
			w &= 1<<(areaBit0-i*64) - 1
		}
		if w != 0 {
			return i*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// lowestArea returns the lowest free collective area of m, or -1.
func (m *ctxMask) lowestArea() int {
	for a := 0; a < areaSlots; a++ {
		if m[(areaBit0+a)/64]&(1<<((areaBit0+a)%64)) != 0 {
			return a
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
