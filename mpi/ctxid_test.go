package mpi

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCtxMaskAgreement(t *testing.T) {
	a, b := ctxFree, ctxFree
	require.Equal(t, 4, a.lowest(), "slots 0 and 1 belong to MPI_COMM_WORLD and MPI_COMM_SELF, 2 and 3 to their idups")
	a.clear(4)
	b.clear(5)
	m := a
	m.and(&b)
	require.Equal(t, 6, m.lowest())
	require.Equal(t, []int{6, 7}, m.lowestN(2))
	m.set(4)
	require.Equal(t, 4, m.lowest())
	var empty ctxMask
	require.Equal(t, -1, empty.lowest())
	require.Empty(t, empty.lowestN(3))
}

func TestCtxMaskAreas(t *testing.T) {
	var m ctxMask
	m.set(areaBit0 + 3)
	require.Equal(t, -1, m.lowest(), "area bits are not contexts")
	require.Equal(t, 3, m.lowestArea())
	m.set(7)
	require.Equal(t, 7, m.lowest())
	require.Equal(t, 1, ctxFree.lowestArea(), "area 0 belongs to MPI_COMM_WORLD")
}

// Agreements in flight together in one process never offer the same slot,
// and a nonblocking one claims one word only, leaving blocking agreements
// the rest of their region.
func TestCtxOffersInFlightDisjoint(t *testing.T) {
	defer func() { ctxClaims = nil }()
	ctxClaims = nil
	first := ctxOfferNB(testKey(5, tagIdupBase), 0)
	words := 0
	for _, w := range first {
		if w != 0 {
			words++
		}
	}
	require.Equal(t, 1, words, "a nonblocking offer is one word")
	unclaim := ctxClaim(&first)
	second := ctxOfferNB(testKey(5, tagIdupBase-1), 0)
	third := ctxOffer(testKey(7, tagCommMgmt), 0)
	for i := range first {
		require.Zero(t, first[i]&second[i], "word %d offered twice", i)
		require.Zero(t, first[i]&third[i], "word %d offered twice", i)
	}
	require.GreaterOrEqual(t, len(third.lowestN(2)), 2, "a blocking agreement still finds slots")
	unclaim()
	require.Empty(t, ctxClaims)
	// With no claim left, after two sweeps an agreement offers everything
	// and the flag, so that exhaustion can end it.
	all := ctxOfferNB(0, 2*nbWords)
	require.NotZero(t, all[flagBit/64]&(1<<(flagBit%64)))
}

// testKey is ctxKey of a view on context ctx with tag tag.
func testKey(ctx uint32, tag int) uint64 { return uint64(ctx)<<32 | uint64(uint32(tag)) }

// Two agreements that came up empty together (each offered the word the
// other had claimed) retry together: their next choices must not keep
// colliding, whatever the lag between their attempt numbers.
func TestCtxPickPartsAfterCollision(t *testing.T) {
	require.Equal(t, 0, ctxPick(0, 0, ctxRegions), "one-shot exchanges take the first region")
	x, y := testKey(19, tagIdupBase), testKey(15, tagIdupBase)
	for lag := 0; lag < 3; lag++ {
		same := 0
		for a := 1; a <= 400; a++ {
			p := ctxPick(x, a, nbWords)
			require.True(t, p >= 0 && p < nbWords)
			if p == ctxPick(y, a+lag, nbWords) {
				same++
			}
		}
		require.Less(t, same, 400/4, "lag %d: %d collisions in 400 attempts", lag, same)
	}
}
