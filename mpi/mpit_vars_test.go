package mpi

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/abi"
	"gompi/coll"
	"gompi/mpit"
)

// Every GOMPI_* setting the library's sources name is a control variable,
// so one added later cannot be missing from MPI_T.
func TestEverySettingIsACvar(t *testing.T) {
	lit := regexp.MustCompile(`"(GOMPI_[A-Z0-9_]+)"`)
	seen := 0
	for _, pat := range []string{"../mpi/*.go", "../pml/*.go", "../capi/*.go", "../capi/*.c", "../modex/*.go", "../btl/*/*.go", "../shmcoll/*.go", "../coll/*.go"} {
		files, err := filepath.Glob(pat)
		require.NoError(t, err)
		for _, f := range files {
			// layout.go files name generated C macros, not settings.
			if strings.HasSuffix(f, "_test.go") || filepath.Base(f) == "layout.go" {
				continue
			}
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			for _, m := range lit.FindAllStringSubmatch(string(b), -1) {
				name := m[1]
				if strings.HasSuffix(name, "_") { // a prefix: GOMPI_COLL_<KIND>, ...
					continue
				}
				seen++
				assert.GreaterOrEqual(t, mpit.CvarIndex(name), 0, "%s (named in %s) is not an MPI_T control variable", name, f)
			}
		}
	}
	require.Greater(t, seen, 20)
	for k := range coll.Algorithms {
		assert.GreaterOrEqual(t, mpit.CvarIndex("GOMPI_COLL_"+string(k)), 0, "GOMPI_COLL_%s", k)
	}
	for _, k := range []string{"ALLREDUCE", "REDUCE", "REDUCE_SCATTER", "BCAST"} {
		assert.GreaterOrEqual(t, mpit.CvarIndex("GOMPI_SHM_DIRECT_"+k), 0)
		assert.GreaterOrEqual(t, mpit.CvarIndex("GOMPI_SHM_DIRECT_"+k+"_BOUND"), 0)
	}
}

// Before MPI_Init a write is what MPI_Init will read (the environment wins
// over the tuning file), and reads show the environment.
func TestCvarWriteBeforeInit(t *testing.T) {
	require.False(t, st.initialized)
	t.Setenv("GOMPI_SPLIT_MIN", "")
	v := mpit.CvarAt(mpit.CvarIndex("GOMPI_SPLIT_MIN"))
	require.Equal(t, 32<<10, v.ReadInt())
	require.Zero(t, v.WriteInt(12345))
	require.Equal(t, "12345", loadSettings()["GOMPI_SPLIT_MIN"])
	require.Equal(t, 12345, v.ReadInt())
	t.Setenv("GOMPI_SPLIT_MIN", "1m")
	require.Equal(t, 1<<20, v.ReadInt())
	fixed := mpit.CvarAt(mpit.CvarIndex("GOMPI_JOBID"))
	require.Equal(t, abi.TErrNotAccessible, fixed.WriteString("x")) // read-only scope
	e := mpit.CvarAt(mpit.CvarIndex("GOMPI_SM_SINGLE_COPY"))
	require.NotNil(t, e.Enum)
	t.Setenv("GOMPI_SM_SINGLE_COPY", "off")
	require.Equal(t, 2, e.ReadInt())
}

// Performance variables read zero before MPI_Init and name their category.
func TestPvarsBeforeInit(t *testing.T) {
	require.Greater(t, mpit.NumPvars(), 20)
	for i := 0; i < mpit.NumPvars(); i++ {
		p := mpit.PvarAt(i)
		assert.NotEmpty(t, p.Desc, p.Name)
		assert.NotEmpty(t, p.Category, p.Name)
		assert.Zero(t, p.Read(), p.Name)
	}
}
