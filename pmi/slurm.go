package pmi

import (
	"fmt"
	"os"
	"strconv"
)

// srunWithoutPMI reports a process that srun started as one task of several
// with no PMI (srun --mpi=none, the default of many clusters): alone it
// would run as a singleton, N copies of a 1-process job. Open MPI refuses
// the same way. A batch script's own process has SLURM_PROCID but no
// SLURM_STEP_NUM_TASKS; GOMPI_PMI=singleton runs each task alone anyway.
func srunWithoutPMI() error {
	if os.Getenv("GOMPI_PMI") == "singleton" {
		return nil
	}
	n, err := strconv.Atoi(os.Getenv("SLURM_STEP_NUM_TASKS"))
	if err != nil || n < 2 {
		return nil
	}
	task, ok := os.LookupEnv("SLURM_PROCID")
	if !ok {
		return nil
	}
	return fmt.Errorf("started by srun as task %s of %d without a PMI: run srun --mpi=pmi2 or --mpi=pmix "+
		"(or set GOMPI_PMI=singleton to run each task as its own 1-process job)", task, n)
}
