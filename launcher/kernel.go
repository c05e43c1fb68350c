package launcher

import (
	"os"
	"strings"
)

// BootID names the running kernel. Network namespaces and containers of one
// machine report the same one, separate machines different ones, so the head
// can tell "hosts" that share CPUs. Empty when unknown.
func BootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// kernelShares returns, per daemon index, how many ranks run on all hosts
// sharing its kernel and where its own ranks start among them ({0, 0} when
// it shares with nobody). Without it every namespace of a test rig binds its
// first rank to CPU 0, and two ranks spinning on one core turn a 10 us
// round trip into a scheduler time slice.
func kernelShares(ds []*hostDaemon) [][2]int {
	out := make([][2]int, len(ds))
	total := map[string]int{}
	hosts := map[string]int{}
	for _, d := range ds {
		if d.kernel != "" {
			total[d.kernel] += len(d.ranks)
			hosts[d.kernel]++
		}
	}
	seen := map[string]int{}
	for i, d := range ds {
		if d.kernel == "" || hosts[d.kernel] < 2 {
			continue
		}
		out[i] = [2]int{total[d.kernel], seen[d.kernel]}
		seen[d.kernel] += len(d.ranks)
	}
	return out
}
