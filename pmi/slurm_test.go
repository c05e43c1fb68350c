package pmi

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSrunWithoutPMI(t *testing.T) {
	for _, k := range []string{"PMI_FD", "PMI_PORT", "PMIX_NAMESPACE", "GOMPI_PMI", "SLURM_STEP_NUM_TASKS", "SLURM_PROCID"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("SLURM_PROCID", "1")
	// A batch script: no step, a singleton.
	c, err := NewFromEnv()
	require.NoError(t, err)
	assert.True(t, c.Singleton())
	// srun -n 1: a singleton too.
	t.Setenv("SLURM_STEP_NUM_TASKS", "1")
	_, err = NewFromEnv()
	require.NoError(t, err)
	// srun --mpi=none -n 4: refused, saying what to do.
	t.Setenv("SLURM_STEP_NUM_TASKS", "4")
	_, err = NewFromEnv()
	assert.ErrorContains(t, err, "task 1 of 4 without a PMI: run srun --mpi=pmi2")
	t.Setenv("GOMPI_PMI", "singleton")
	c, err = NewFromEnv()
	require.NoError(t, err)
	assert.Equal(t, "singleton", c.Protocol())
}
