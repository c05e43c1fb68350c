package pml

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A released request's id resolves to nothing for C handles (Lookup), also
// once the slot is reused, while protocol lookups (get) still find the slot.
func TestRequestGenerations(t *testing.T) {
	var tab requestTable
	r := tab.alloc()
	id := r.ID
	assert.Same(t, r, tab.lookup(id))
	tab.release(r)
	assert.Nil(t, tab.lookup(id))
	r2 := tab.alloc()
	assert.Same(t, r, r2, "the slot is reused")
	assert.NotEqual(t, id, r2.ID)
	assert.Nil(t, tab.lookup(id))
	assert.Same(t, r2, tab.lookup(r2.ID))
	assert.Same(t, r2, tab.get(id), "protocol lookups go by slot")
	for i := 0; i < 100; i++ {
		tab.release(r2)
		r2 = tab.alloc()
		assert.Less(t, r2.ID, uint32(1)<<25, "ids fit the C handle")
	}
}
