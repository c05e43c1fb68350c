package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// AllowedCPUs lists the CPUs this process may run on, ascending.
func AllowedCPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, err
	}
	var cpus []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// RestrictCPUs returns the CPUs of set (--cpu-set) in ascending order; each
// must be one this process may use.
func RestrictCPUs(allowed, set []int) ([]int, error) {
	ok := map[int]bool{}
	for _, c := range allowed {
		ok[c] = true
	}
	seen := map[int]bool{}
	var out []int
	for _, c := range set {
		if !ok[c] {
			return nil, fmt.Errorf("--cpu-set: CPU %d is not among the CPUs gompirun may use (%s)", c, formatCPUs(allowed))
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Ints(out)
	return out, nil
}

func formatCPUs(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}

// cpuTopo is where one CPU sits, read from sysfs.
type cpuTopo struct {
	cpu, pkg, core, thread int // thread: index among its core's allowed siblings
}

// OrderCPUs orders cpus so that consecutive ranks land on distinct physical
// cores first (package by package), and on second hardware threads only when
// every core has one rank. sysRoot is normally /sys/devices/system/cpu; when
// it cannot be read the order is unchanged.
func OrderCPUs(cpus []int, sysRoot string) []int {
	topo := make([]cpuTopo, 0, len(cpus))
	threads := map[[2]int]int{}
	for _, c := range cpus {
		dir := filepath.Join(sysRoot, "cpu"+strconv.Itoa(c), "topology")
		pkg, err1 := readInt(filepath.Join(dir, "physical_package_id"))
		core, err2 := readInt(filepath.Join(dir, "core_id"))
		if err1 != nil || err2 != nil {
			return append([]int{}, cpus...)
		}
		k := [2]int{pkg, core}
		topo = append(topo, cpuTopo{cpu: c, pkg: pkg, core: core, thread: threads[k]})
		threads[k]++
	}
	sort.SliceStable(topo, func(i, j int) bool {
		a, b := topo[i], topo[j]
		if a.thread != b.thread {
			return a.thread < b.thread
		}
		if a.pkg != b.pkg {
			return a.pkg < b.pkg
		}
		if a.core != b.core {
			return a.core < b.core
		}
		return a.cpu < b.cpu
	})
	out := make([]int, len(topo))
	for i, t := range topo {
		out[i] = t.cpu
	}
	return out
}

func readInt(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

// PlanBinding returns the CPU of each rank, or nil for no binding.
func PlanBinding(policy string, np int, ordered []int) ([]int, error) {
	switch policy {
	case BindNone:
		return nil, nil
	case BindAuto:
		if np > len(ordered) {
			return nil, nil // oversubscribed: let the kernel share the CPUs
		}
	case BindCore:
		if np > len(ordered) {
			return nil, fmt.Errorf("--bind-to core: %d processes but only %d CPUs available; use --bind-to none",
				np, len(ordered))
		}
	default:
		return nil, fmt.Errorf("unknown binding policy %q", policy)
	}
	return append([]int{}, ordered[:np]...), nil
}

// execPreloadVar carries LD_PRELOAD across the pinning re-exec, so a preloaded
// library (libgompi.so is a Go runtime of its own) never loads into gompirun.
const execPreloadVar = "GOMPI_EXEC_LD_PRELOAD"

// ExecBound pins the calling process to cpus and replaces it with prog. The
// affinity is set on the thread that calls execve, which becomes the new
// program's only thread, so the whole program starts pinned. It returns only
// on failure.
func ExecBound(cpus []int, prog string, args []string) error {
	runtime.LockOSThread()
	var set unix.CPUSet
	for _, cpu := range cpus {
		set.Set(cpu)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("cannot bind to CPUs %s: %w", formatCPUs(cpus), err)
	}
	env := os.Environ()
	out := env[:0]
	preload, havePreload := "", false
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, execPreloadVar+"="):
			preload, havePreload = strings.TrimPrefix(kv, execPreloadVar+"="), true
		case strings.HasPrefix(kv, "LD_PRELOAD="):
			// Only ours (restored below) may reach the program.
		default:
			out = append(out, kv)
		}
	}
	if havePreload {
		out = append(out, "LD_PRELOAD="+preload)
	}
	err := syscall.Exec(prog, append([]string{prog}, args...), out)
	return fmt.Errorf("cannot run %s: %w", prog, err)
}
