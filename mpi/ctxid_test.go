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
