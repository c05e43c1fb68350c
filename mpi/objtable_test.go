package mpi

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A freed object's index names nothing, also once its slot is reused, and
// slots are still recycled (the table stays small).
func TestObjTableGenerations(t *testing.T) {
	var tab objTable[int]
	a, b := 1, 2
	ia := tab.add(&a)
	assert.Same(t, &a, tab.get(ia))
	tab.remove(ia)
	assert.Nil(t, tab.get(ia))
	ib := tab.add(&b)
	assert.NotEqual(t, ia, ib, "the reused slot must get a new index")
	assert.Equal(t, ia&objSlotMask, ib&objSlotMask, "the slot is reused")
	assert.Nil(t, tab.get(ia), "stale index resolves to the new object")
	assert.Same(t, &b, tab.get(ib))
	tab.remove(ia) // a stale free must not free the new object
	assert.Same(t, &b, tab.get(ib))
	assert.Equal(t, 1, tab.live())
	for i := 0; i < 3*(objGenMask+1); i++ { // generations wrap within the index bits
		tab.remove(ib)
		ib = tab.add(&b)
		assert.Less(t, ib, 1<<26)
	}
	assert.Len(t, tab.objs, 1)
	assert.Nil(t, tab.get(-1))
	assert.Nil(t, tab.get(1<<25))
}
