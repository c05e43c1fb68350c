package pml

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// osYield gives the core to another runnable process (Gosched only yields to
// goroutines).
func osYield() { unix.Syscall(unix.SYS_SCHED_YIELD, 0, 0, 0) }

func envInt(key string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(key)); err == nil {
		return v
	}
	return def
}

// YieldCore gives the core away to other processes (waits that nobody will
// wake through the doorbell). No runtime.Gosched: the library runs no
// goroutine that waits for it, and it wakes idle Go threads that then compete
// for the cores (see Engine.Backoff).
func YieldCore() {
	osYield()
}
