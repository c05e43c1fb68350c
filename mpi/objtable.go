package mpi

// objTable maps the index bits of user-object handles (groups, info objects,
// keyvals, error handlers) to Go objects; freed slots are reused so handle
// values stay small however many objects come and go.
type objTable[T any] struct {
	objs []*T
	free []int
}

func (t *objTable[T]) add(o *T) int {
	if n := len(t.free); n > 0 {
		i := t.free[n-1]
		t.free = t.free[:n-1]
		t.objs[i] = o
		return i
	}
	t.objs = append(t.objs, o)
	return len(t.objs) - 1
}

func (t *objTable[T]) get(i int) *T {
	if i < 0 || i >= len(t.objs) {
		return nil
	}
	return t.objs[i]
}

func (t *objTable[T]) remove(i int) {
	if t.get(i) != nil {
		t.objs[i] = nil
		t.free = append(t.free, i)
	}
}

// live counts the objects in the table (for leak tests).
func (t *objTable[T]) live() int { return len(t.objs) - len(t.free) }
