package mpi

import "testing"

func TestNodeCPUsSlurm(t *testing.T) {
	online := onlineCPUs()
	t.Setenv("SLURM_CPUS_ON_NODE", "1")
	if got := nodeCPUs(); got != 1 {
		t.Errorf("SLURM_CPUS_ON_NODE=1: nodeCPUs() = %d, want 1", got)
	}
	for _, v := range []string{"0", "x", "100000"} {
		t.Setenv("SLURM_CPUS_ON_NODE", v)
		if got := nodeCPUs(); got != online {
			t.Errorf("SLURM_CPUS_ON_NODE=%s: nodeCPUs() = %d, want the %d online", v, got, online)
		}
	}
}
