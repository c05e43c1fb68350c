package pml

import (
	"runtime"
	"time"
)

// freshTick lets the Go scheduler run the waiting goroutine afresh when it
// has not for a few milliseconds. A C thread calling into the library never
// passes through the scheduler, so Go's monitor thread takes it for a
// goroutine running too long: every 10 ms it takes the processor away and
// then wakes every 20 us for a while, each wake preempting the rank that
// spins on this core (across the rig, 1 in 7 round trips 7 us slower).
func (e *Engine) freshTick() {
	now := time.Now().UnixNano()
	if now-e.lastTick < int64(4*time.Millisecond) {
		return
	}
	e.lastTick = now
	if !noFreshTick {
		runtime.Gosched()
	}
}

var noFreshTick = envInt("GOMPI_FRESHTICK", 1) == 0
