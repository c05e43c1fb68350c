package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// PlanBindingSets returns the CPUs each rank is bound to (nil: no binding).
// For socket and numa a rank gets the core --bind-to core would give it
// (wrapping around when oversubscribed) widened to every allowed CPU of that
// core's socket or NUMA node, as Open MPI's --bind-to socket|numa does.
func PlanBindingSets(policy string, np int, ordered []int, sysRoot string) ([][]int, error) {
	if policy != BindSocket && policy != BindNUMA {
		b, err := PlanBinding(policy, np, ordered)
		if err != nil || b == nil {
			return nil, err
		}
		sets := make([][]int, np)
		for r, c := range b {
			sets[r] = []int{c}
		}
		return sets, nil
	}
	if len(ordered) == 0 {
		return nil, fmt.Errorf("--bind-to %s: no CPUs", policy)
	}
	domain := map[int][]int{} // domain id -> its allowed CPUs
	of := map[int]int{}
	for _, c := range ordered {
		d := cpuDomain(policy, c, sysRoot)
		domain[d] = append(domain[d], c)
		of[c] = d
	}
	for _, cpus := range domain {
		sort.Ints(cpus)
	}
	sets := make([][]int, np)
	for r := range sets {
		sets[r] = domain[of[ordered[r%len(ordered)]]]
	}
	return sets, nil
}

// cpuDomain is cpu's socket (physical package) or NUMA node; 0 when sysfs
// does not say (one domain for all).
func cpuDomain(policy string, cpu int, sysRoot string) int {
	dir := filepath.Join(sysRoot, "cpu"+strconv.Itoa(cpu))
	if policy == BindSocket {
		if n, err := readInt(filepath.Join(dir, "topology", "physical_package_id")); err == nil && n >= 0 {
			return n
		}
		return 0
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	for _, e := range ents {
		if n, err := strconv.Atoi(strings.TrimPrefix(e.Name(), "node")); err == nil && strings.HasPrefix(e.Name(), "node") {
			return n
		}
	}
	return 0
}

// describeBinding is --report-bindings' text for a rank's CPUs.
func describeBinding(policy string, cpus []int) string {
	if len(cpus) == 1 && policy != BindSocket && policy != BindNUMA {
		return "CPU " + strconv.Itoa(cpus[0])
	}
	return fmt.Sprintf("CPUs %s (%s)", formatCPUs(cpus), policy)
}
