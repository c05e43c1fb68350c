package hitopo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// maxCPU bounds CPU numbers read from sysfs lists (a corrupt "0-4000000000"
// must not allocate).
const maxCPU = 1 << 16

// Read returns the place of a process allowed on cpus, from the sysfs tree at
// root ("/sys" on a live system). A field is the CPUs' common value, or
// Unknown where they differ or sysfs lacks the file (containers, VMs and
// some architectures omit cache or NUMA information). Node is left Unknown
// for the caller. Malformed file contents are an error.
func Read(root string, cpus []int) (Loc, error) {
	if len(cpus) == 0 {
		return UnknownLoc, errors.New("hitopo: no allowed CPUs")
	}
	numa, err := readNUMA(root)
	if err != nil {
		return UnknownLoc, err
	}
	loc := UnknownLoc
	for i, cpu := range cpus {
		if cpu < 0 || cpu >= maxCPU {
			return UnknownLoc, fmt.Errorf("hitopo: cpu %d", cpu)
		}
		one, err := readCPU(root, cpu)
		if err != nil {
			return UnknownLoc, err
		}
		if n, ok := numa[cpu]; ok {
			one.NUMA = n
		}
		if i == 0 {
			loc = one
			continue
		}
		loc.Package = common(loc.Package, one.Package)
		loc.NUMA = common(loc.NUMA, one.NUMA)
		loc.L3 = common(loc.L3, one.L3)
		loc.Core = common(loc.Core, one.Core)
		loc.CPU = Unknown
	}
	if loc.Package == Unknown {
		loc.Core = Unknown // a core id means nothing without its package
	}
	return loc, nil
}

func common(a, b int) int {
	if a == b {
		return a
	}
	return Unknown
}

// readCPU reads one CPU's package, core and L3 group.
func readCPU(root string, cpu int) (Loc, error) {
	dir := filepath.Join(root, "devices/system/cpu", "cpu"+strconv.Itoa(cpu))
	l := UnknownLoc
	l.CPU = cpu
	var err error
	if l.Package, err = readInt(filepath.Join(dir, "topology/physical_package_id")); err != nil {
		return l, err
	}
	if l.Core, err = readInt(filepath.Join(dir, "topology/core_id")); err != nil {
		return l, err
	}
	if l.L3, err = readL3(dir); err != nil {
		return l, err
	}
	return l, nil
}

// readInt reads a decimal id; a missing file or a negative id (arm systems
// report -1 for an unknown package) is Unknown.
func readInt(path string) (int, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Unknown, nil
	}
	if err != nil {
		return Unknown, fmt.Errorf("hitopo: %w", err)
	}
	v, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return Unknown, fmt.Errorf("hitopo: %s: %w", path, err)
	}
	return max(v, Unknown), nil
}

// readL3 finds the level-3 cache among cache/index* and names its group by
// the lowest CPU sharing it.
func readL3(cpuDir string) (int, error) {
	indexes, _ := filepath.Glob(filepath.Join(cpuDir, "cache/index[0-9]*"))
	sort.Strings(indexes)
	for _, d := range indexes {
		level, err := readInt(filepath.Join(d, "level"))
		if err != nil {
			return Unknown, err
		}
		if level != 3 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d, "shared_cpu_list"))
		if errors.Is(err, fs.ErrNotExist) {
			return Unknown, nil
		}
		if err != nil {
			return Unknown, fmt.Errorf("hitopo: %w", err)
		}
		cpus, err := ParseCPUList(string(b))
		if err != nil || len(cpus) == 0 {
			return Unknown, fmt.Errorf("hitopo: %s: bad cpu list %q", d, strings.TrimSpace(string(b)))
		}
		return cpus[0], nil
	}
	return Unknown, nil
}

// readNUMA maps each CPU to its NUMA node from node/node*/cpulist (empty
// when the tree has no NUMA information).
func readNUMA(root string) (map[int]int, error) {
	dirs, _ := filepath.Glob(filepath.Join(root, "devices/system/node/node[0-9]*"))
	m := make(map[int]int)
	for _, d := range dirs {
		n, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "node"))
		if err != nil {
			continue // not a node directory
		}
		b, err := os.ReadFile(filepath.Join(d, "cpulist"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("hitopo: %w", err)
		}
		cpus, err := ParseCPUList(string(b))
		if err != nil {
			return nil, fmt.Errorf("hitopo: %s: %w", d, err)
		}
		for _, c := range cpus {
			m[c] = n
		}
	}
	return m, nil
}

// ParseCPUList parses the kernel's cpu list format ("0-3,8,10-11", possibly
// empty) into ascending CPU numbers.
func ParseCPUList(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a || b >= maxCPU {
			return nil, fmt.Errorf("bad cpu list %q", s)
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	sort.Ints(out)
	return out, nil
}
