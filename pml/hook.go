package pml

// KindColl marks requests of nonblocking and persistent collectives: the
// collective layer owns them and completes them with CompleteNow.
const KindColl uint8 = 3

// Hook is a progress callback: it advances work layered on the engine
// (outstanding collective schedules) and returns the number of events.
type Hook func() int

// AddHook registers h to run on every Progress until removed. Progress pays
// one length check when no hook is registered.
func (e *Engine) AddHook(h *Hook) { e.hooks = append(e.hooks, h) }

// RemoveHook unregisters h.
func (e *Engine) RemoveHook(h *Hook) {
	for i, x := range e.hooks {
		if x == h {
			e.hooks = append(e.hooks[:i], e.hooks[i+1:]...)
			return
		}
	}
}

func (e *Engine) runHooks() int {
	n := 0
	for i := 0; i < len(e.hooks); i++ {
		n += (*e.hooks[i])()
	}
	return n
}

// Activate marks a request built by an upper layer as started and not done
// (the start of a nonblocking or persistent collective).
func (e *Engine) Activate(r *Request) {
	r.done = false
	r.Active = true
}
