package pml

import (
	"time"

	"gompi/btl"
)

// Peers is the number of endpoints the engine routes: the world's ranks
// first, then processes of other jobs added by AddPeers (dynamic processes).
func (e *Engine) Peers() int { return len(e.route) }

// AddPeers grows the endpoint table by n and returns the index of the first
// new endpoint. Route them with AddTransport. Only dynamic-process calls
// grow it, so the single-job hot path never sees a resize.
func (e *Engine) AddPeers(n int) int {
	first := len(e.route)
	e.route = append(e.route, make([]btl.Module, n)...)
	e.eager = append(e.eager, make([]int, n)...)
	e.getFrom = append(e.getFrom, make([]int, n)...)
	e.backlog = append(e.backlog, make([]Backlogger, n)...)
	e.slowFrom = append(e.slowFrom, make([]int, n)...)
	e.slowed = append(e.slowed, make([]SlowCopier, n)...)
	e.sharedFrom = append(e.sharedFrom, make([]int, n)...)
	e.shared = append(e.shared, make([]SharedReader, n)...)
	e.frag = append(e.frag, make([]int, n)...)
	e.readsOut = append(e.readsOut, make([]int32, n)...)
	return first
}

// HasTransport reports whether m is already one of the engine's transports.
func (e *Engine) HasTransport(m btl.Module) bool {
	for _, x := range e.modules {
		if x == m {
			return true
		}
	}
	return false
}

// CapIdle bounds how long a wait sleeps on the idler: a transport that
// cannot wake it (btl/sock while btl/sm sleeps on its futex) is polled at
// least this often.
func (e *Engine) CapIdle(d time.Duration) {
	if e.idleCap == 0 || d < e.idleCap {
		e.idleCap = d
	}
}

// Routes reports whether a transport reaches endpoint p.
func (e *Engine) Routes(p int) bool { return p >= 0 && p < len(e.route) && e.route[p] != nil }
