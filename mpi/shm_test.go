package mpi

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"gompi/btl/sm"
)

// TestShmLimits: which collectives take shared memory, and up to what,
// with a core per rank and oversubscribed, with and without big slots,
// and with an algorithm forced.
func TestShmLimits(t *testing.T) {
	defer func(o bool, f [shmKinds]bool) { st.oversub, shmForced = o, f }(st.oversub, shmForced)
	shmForced = [shmKinds]bool{}
	const big = 64 << 10
	slot := sm.CollSlot
	unlimited := math.MaxInt

	st.oversub = false
	l := shmLimits(big, 4)
	assert.Equal(t, big, l[shmBcast], "bcast: the big slots")
	assert.Equal(t, unlimited, l[shmReduce], "reduce: any size, a slot per call")
	for _, k := range []int{shmAllreduce, shmAllgather, shmAlltoall, shmReduceScatter} {
		assert.Equal(t, slot, l[k], "kind %d: small slots only with a core per rank", k)
	}
	assert.Equal(t, 2<<10, shmLimits(big, 2)[shmAllgather], "two ranks exchange allgathers from 2 KiB")
	assert.Equal(t, big, shmLimits(big, 2)[shmBcast], "two ranks' bcasts: the big slots too")
	assert.Equal(t, slot, shmLimits(big, 2)[shmReduce], "two ranks send reduces above a slot")

	st.oversub = true
	l = shmLimits(big, 4)
	for _, k := range []int{shmBcast, shmReduce, shmAllreduce, shmReduceScatter} {
		assert.Equal(t, unlimited, l[k], "kind %d: any size when oversubscribed", k)
		assert.Equal(t, unlimited, shmLimits(big, 2)[k], "kind %d: two ranks on one core too", k)
	}
	assert.Equal(t, big, l[shmAllgather])
	assert.Equal(t, big, l[shmAlltoall])

	l = shmLimits(slot, 4) // an area without big slots: nothing above a slot
	for k := range l {
		assert.LessOrEqual(t, l[k], slot, "kind %d", k)
	}

	shmForced[shmReduce] = true
	assert.Equal(t, -1, shmLimits(big, 4)[shmReduce], "a forced algorithm keeps the kind off shared memory")
}
