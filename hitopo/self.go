package hitopo

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// CurrentCPU is the CPU the calling thread runs on now (getcpu), -1 when
// the system cannot say.
func CurrentCPU() int32 {
	var cpu uint32
	if _, _, e := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), 0, 0); e != 0 {
		return -1
	}
	return int32(cpu)
}

// AllowedCPUs returns the CPUs this process may run on (sched_getaffinity),
// ascending.
func AllowedCPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("hitopo: sched_getaffinity: %w", err)
	}
	var cpus []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// Self returns this process's place from /sys and its real affinity (that
// of the calling thread, which the launcher's binding gives every thread).
func Self() (Loc, error) {
	cpus, err := AllowedCPUs()
	if err != nil {
		return UnknownLoc, err
	}
	return Read("/sys", cpus)
}
