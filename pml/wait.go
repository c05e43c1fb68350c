package pml

import "time"

// waitSet is the engine's one wait policy: every transport that can put the
// process to sleep until its own traffic arrives (btl/sm's futex, btl/ofi's
// completion-queue fd, btl/sock's epoll) is an Idler. With one, a wait
// sleeps on it; with several, no single object wakes on all of them, so a
// wait takes turns sleeping on each for at most turnCap, and traffic on any
// transport is noticed within that.
type waitSet struct {
	idlers []Idler
	turn   int
}

// turnCap bounds one sleep when several transports can wake the process.
const turnCap = 500 * time.Microsecond

func (w *waitSet) add(i Idler) {
	for _, x := range w.idlers {
		if x == i {
			return
		}
	}
	w.idlers = append(w.idlers, i)
}

func (w *waitSet) empty() bool { return len(w.idlers) == 0 }

func (w *waitSet) idle(d time.Duration) {
	if len(w.idlers) == 1 {
		w.idlers[0].Idle(d)
		return
	}
	w.turn++
	w.idlers[w.turn%len(w.idlers)].Idle(min(d, turnCap))
}
