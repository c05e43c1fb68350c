package mpi

import (
	"runtime"

	"gompi/abi"
	"gompi/internal/mtlock"
)

// grantThread is the thread level provided for required. MULTIPLE is real
// (docs/threads.md): every C entry takes mtlock and waits release it. It
// is refused (SERIALIZED) only to a runtime already started below
// MULTIPLE, whose C fast paths are on and would race other threads.
func grantThread(required int) int {
	l := min(max(required, abi.ThreadSingle), abi.ThreadMultiple)
	if l == abi.ThreadMultiple && st.ready && !mtlock.On {
		l = abi.ThreadSerialized
	}
	return l
}

// mtProcs is the fewest Go Ps at MULTIPLE: each C thread inside MPI needs
// a P, and with one P per core a thread returning from its own computation
// would wait for the runtime to take back the P of a thread that sleeps
// in the kernel (sysmon polls every 20 us to 10 ms). Idle Ps cost nothing.
const mtProcs = 32

// enableMultiple turns the MULTIPLE lock on, once the runtime runs: from
// here every entry takes it.
func enableMultiple() {
	if mtlock.On {
		return
	}
	if runtime.GOMAXPROCS(0) < mtProcs {
		runtime.GOMAXPROCS(mtProcs)
	}
	mtlock.On = true
}

// Multiple reports whether MPI_THREAD_MULTIPLE is in force.
func Multiple() bool { return mtlock.On }
