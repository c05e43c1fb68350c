package pml

// Receives a C fast path queued outside the engine (capi/fastslot.h) must
// become the engine's own before it matches anything, or a message could
// overtake them (MPI's order is posting order). count is C memory the fast
// path keeps nonzero while it holds receives; adopt posts them here in order
// and zeroes it.
func (e *Engine) SetForeign(count *int32, adopt func()) {
	e.foreign, e.adopt = count, adopt
}

func (e *Engine) adoptForeign() {
	if e.foreign != nil && *e.foreign != 0 {
		e.adopt()
	}
}

// AdoptForeign makes the receives a C fast path queued the engine's own
// now (before the communicator they were posted on goes away).
func (e *Engine) AdoptForeign() { e.adoptForeign() }
