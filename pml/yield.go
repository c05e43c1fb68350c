package pml

import "golang.org/x/sys/unix"

// osYield gives the core to another runnable process (Gosched only yields to
// goroutines).
func osYield() { unix.Syscall(unix.SYS_SCHED_YIELD, 0, 0, 0) }
