package mpi

// objTable maps the index bits of user-object handles (groups, info objects,
// error handlers) to Go objects. Freed slots are reused so handle values stay
// small however many objects come and go, but an index also carries the
// slot's generation, bumped at each reuse: a freed object's handle then
// names nothing (the call's invalid-handle class) instead of whatever object
// took its slot next.
type objTable[T any] struct {
	objs []*T
	gens []uint32
	free []int
}

// An index is slot | generation<<objSlotBits; handles give it 26 bits.
const (
	objSlotBits = 20
	objSlotMask = 1<<objSlotBits - 1
	objGenMask  = 1<<(26-objSlotBits) - 1
)

func (t *objTable[T]) add(o *T) int {
	if n := len(t.free); n > 0 {
		i := t.free[n-1]
		t.free = t.free[:n-1]
		t.objs[i] = o
		t.gens[i] = (t.gens[i] + 1) & objGenMask
		return i | int(t.gens[i])<<objSlotBits
	}
	t.objs = append(t.objs, o)
	t.gens = append(t.gens, 0)
	return len(t.objs) - 1
}

func (t *objTable[T]) get(i int) *T {
	slot := i & objSlotMask
	if i < 0 || slot >= len(t.objs) || uint32(i>>objSlotBits) != t.gens[slot] {
		return nil
	}
	return t.objs[slot]
}

func (t *objTable[T]) remove(i int) {
	if t.get(i) != nil {
		slot := i & objSlotMask
		t.objs[slot] = nil
		t.free = append(t.free, slot)
	}
}

// live counts the objects in the table (for leak tests).
func (t *objTable[T]) live() int { return len(t.objs) - len(t.free) }
