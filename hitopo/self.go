package hitopo

import (
	"fmt"

	"golang.org/x/sys/unix"
)

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
