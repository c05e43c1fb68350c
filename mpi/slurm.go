package mpi

import (
	"os"
	"strconv"
)

// nodeCPUs is how many CPUs the ranks of this node share: the node's online
// CPUs, or fewer when Slurm allotted the job fewer here (SLURM_CPUS_ON_NODE;
// its cgroup confines the job to them, and srun --overcommit packs more
// tasks than CPUs).
func nodeCPUs() int {
	n := onlineCPUs()
	if s, ok := os.LookupEnv("SLURM_CPUS_ON_NODE"); ok {
		if k, err := strconv.Atoi(s); err == nil && k > 0 && k < n {
			return k
		}
	}
	return n
}
