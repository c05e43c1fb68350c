package mpi

import (
	"gompi/internal/mtlock"
	"gompi/pml"
)

// Context ids at MPI_THREAD_MULTIPLE. agree reduces this process's free
// mask over the new communicator's members, and the reduction waits with
// the lock released: two threads creating communicators at once (on
// different parents) must not offer the same free slot to both. So each
// agreement in flight claims the bits it offered until its reduction
// returns, and an agreement that starts while others hold claims offers
// only unclaimed slots of one region (1/regions of the slot space) chosen
// from its key (the reduction's context and tag, equal in every member)
// and its attempt number. Members of one agreement therefore offer
// overlapping regions, different agreements mostly disjoint ones; an empty
// result sends every member to the next region (they all see the same
// result, so they stay in step), and a blocked agreement never stops
// another one from succeeding, whatever the order of calls in other
// processes. With no other claim a process offers its whole mask and sets
// the flag bit (slot 0: MPI_COMM_WORLD's, never free); an empty result with
// the flag set in every member means the ids are really exhausted.
var ctxClaims []*ctxMask

const (
	flagBit    = 0
	ctxRegions = 8
	regionLen  = areaBit0 / ctxRegions
)

func ctxKey(v *xview) uint64 { return uint64(v.pc.Ctx)<<32 | uint64(uint32(v.tag)) }

// ctxOffer is what this process offers now (the free mask without other
// agreements' claims; one region of it while there are claims).
func ctxOffer(key uint64, attempt int) ctxMask {
	m := ctxFree
	// Not the whole mask while a nonblocking agreement is in flight, even
	// between its rounds: it may need this process's offer to finish while
	// this agreement waits for members that are waiting for it.
	if len(ctxClaims) == 0 && len(agreements) == 0 {
		m.set(flagBit)
		return m
	}
	for _, c := range ctxClaims {
		for i := range m {
			m[i] &^= c[i]
		}
	}
	r := ctxPick(key, attempt, ctxRegions)
	for s := 0; s < areaBit0; s++ {
		if s/regionLen != r {
			m.clear(s)
		}
	}
	return m
}

// ctxPick chooses one of n regions (or words) for an attempt of the
// agreement with key: the same choice in every member. The first attempt's
// depends on the key only (key 0 takes the first); later ones hash key and
// attempt together. Not key+attempt: two agreements in flight in two
// processes at once that each claim the word the other offers both come up
// empty, retry together, and with consecutive words would collide again at
// every retry; hashed, they part at the next attempt but for 1 in n.
func ctxPick(key uint64, attempt, n int) int {
	h := key * 0x9e3779b97f4a7c15 >> 32
	if attempt > 0 {
		h = key + uint64(attempt)*0x9e3779b97f4a7c15 // splitmix64
		h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
		h = (h ^ h>>27) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return int(h % uint64(n))
}

// ctxClaim records m as offered until the returned function runs.
func ctxClaim(m *ctxMask) func() {
	ctxClaims = append(ctxClaims, m)
	return func() {
		for i, c := range ctxClaims {
			if c == m {
				ctxClaims = append(ctxClaims[:i], ctxClaims[i+1:]...)
				return
			}
		}
	}
}

// ctxSnapshot is the mask a one-shot exchange (Intercomm_create, connect
// and accept) may offer; while other agreements are in flight (threads at
// MULTIPLE, nonblocking idups) it must not hold their claims.
func ctxSnapshot() ctxMask {
	if !mtlock.On && len(ctxClaims) == 0 && len(agreements) == 0 {
		return ctxFree
	}
	m := ctxOffer(0, 0)
	m.clear(flagBit)
	return m
}

// agreeMaskMT is the reduced free mask of an agreement at MULTIPLE; empty
// only when no context id is left.
func (c *Comm) agreeMaskMT(v *xview, n int) ctxMask {
	key := ctxKey(v)
	for attempt := 0; ; attempt++ {
		m := ctxOffer(key, attempt)
		mine := m
		unclaim := ctxClaim(&mine)
		c.reduceMask(v, &m)
		unclaim()
		flag := m[flagBit/64]&(1<<(flagBit%64)) != 0
		m.clear(flagBit)
		if flag || len(m.lowestN(n)) == n {
			return m
		}
		d := mtlock.Release() // let the other agreements finish
		pml.YieldCore()
		mtlock.Reacquire(d)
		if len(agreements) > 0 { // nonblocking ones advance from progress
			st.eng.Progress()
		}
	}
}
