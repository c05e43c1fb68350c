package pml

import (
	"os"
	"runtime"
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

// YieldCore gives the core away to other goroutines and processes (waits
// that nobody will wake through the doorbell).
func YieldCore() {
	runtime.Gosched()
	osYield()
}
