package mpi

import (
	"os"
	"strings"

	"gompi/modex"
)

// Ranks of different nodes may share one machine's CPUs: nodes split out of
// one machine (GOMPI_NODE_SPLIT), network namespaces or containers of one
// kernel (the test rig). Counted per node they look idle, and waits spun
// as if each rank had a core: 3 ranks split into nodes on 2 cores took
// 5.7 ms per 4-byte allreduce against 0.6 ms with waits that give the core
// away. So the wait policy counts every rank on this kernel, whose boot id
// each node leader publishes as node data.

// kernelShareMaxNodes bounds the node cards read at start-up (one PMI get
// each): beyond it the job runs on real machines, not namespaces of one.
const kernelShareMaxNodes = 64

// kernelRanks is how many ranks of the job run on this kernel: those of
// every node whose boot id is ours. Nodes whose id is unknown count as
// other machines.
func kernelRanks(me, nodes int, boot func(node int) (string, bool), ranks func(node int) int) int {
	mine, ok := boot(me)
	if !ok || mine == "" {
		return ranks(me)
	}
	n := 0
	for i := 0; i < nodes; i++ {
		if i == me {
			n += ranks(i)
			continue
		}
		if b, ok := boot(i); ok && b == mine {
			n += ranks(i)
		}
	}
	return n
}

// publishKernel puts this machine's boot id on the node's card (before the
// modex exchange).
func publishKernel(mx *modex.Modex, key modex.Key) {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if id := strings.TrimSpace(string(b)); err == nil && id != "" {
		mx.SetNode(key, []byte(id))
	}
}

// ranksOnKernel counts the job's ranks sharing this process's CPUs; the
// node's own count when that alone decides (one node, or too few ranks in
// the job to oversubscribe), or when the job spans many nodes.
func ranksOnKernel(mx *modex.Modex, key modex.Key, cpus int) int {
	local := len(mx.LocalRanks())
	if mx.Nodes() < 2 || mx.Size() <= cpus || local > cpus || mx.Nodes() > kernelShareMaxNodes {
		return local
	}
	boot := func(n int) (string, bool) {
		v, ok, err := mx.GetNode(mx.Leader(n), key)
		if err != nil || !ok {
			return "", false
		}
		return string(v), true
	}
	return kernelRanks(mx.NodeOf(mx.Rank()), mx.Nodes(), boot, func(n int) int { return len(mx.NodeRanks(n)) })
}
