package launcher

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJobIDIsGlobSafe(t *testing.T) {
	a, b := NewJobID(), NewJobID()
	assert.NotEqual(t, a, b)
	assert.NotContains(t, a, "-")
	assert.False(t, strings.ContainsAny(a, "*?[]/\\ "))
}

func TestBaseEnv(t *testing.T) {
	t.Setenv("GOMPI_TEST_FROM_US", "here")
	parent := []string{"PATH=/bin", "PMI_FD=9", "PMI_PORT=h:1", "GOMPI_DEBUG=1", "LD_PRELOAD=/x.so", "HYDI_CONTROL_FD=7"}
	env, err := BaseEnv(parent, []string{"A=1", "GOMPI_TEST_FROM_US", "PATH=/usr/bin"}, "/lib/libgompi.so")
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"PATH=/usr/bin", "GOMPI_DEBUG=1", "LD_PRELOAD=/lib/libgompi.so:/x.so",
		"A=1", "GOMPI_TEST_FROM_US=here"}, []string(env))
	_, err = BaseEnv(parent, []string{"GOMPI_SURELY_UNSET_VAR"}, "")
	assert.Error(t, err)
}

func TestRankEnv(t *testing.T) {
	base := envList{"HOME=/root", "PMI_RANK=7", "LD_PRELOAD=/p.so"}
	env := envList(RankEnv(base, "123xab", 2, 4, 8, 5))
	want := map[string]string{
		"PMI_FD": "3", "PMI_RANK": "2", "PMI_SIZE": "4", "MPI_LOCALRANKID": "2", "MPI_LOCALNRANKS": "4",
		"GOMPI_JOBID": "123xab", "GOMPI_LOCAL_RANK": "2", "GOMPI_LOCAL_SIZE": "4", "GOMPI_NUM_CPUS": "8",
		"GOMPI_OVERSUBSCRIBED": "0", "GOMPI_BOUND_CPU": "5", "HOME": "/root", execPreloadVar: "/p.so",
	}
	for k, v := range want {
		got, ok := env.get(k)
		assert.True(t, ok, k)
		assert.Equal(t, v, got, k)
	}
	_, ok := env.get("LD_PRELOAD")
	assert.False(t, ok, "bound ranks carry LD_PRELOAD past the re-exec")
	assert.Equal(t, "LD_PRELOAD=/p.so", base[2], "base is not modified")

	env = RankEnv(base, "j", 0, 9, 8, -1)
	_, ok = env.get("GOMPI_BOUND_CPU")
	assert.False(t, ok)
	v, _ := env.get("GOMPI_OVERSUBSCRIBED")
	assert.Equal(t, "1", v)
	v, _ = env.get("LD_PRELOAD")
	assert.Equal(t, "/p.so", v)
}

func TestLibraryPath(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "bin"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "lib"), 0o755))
	self := filepath.Join(root, "bin", "gompirun")
	require.NoError(t, os.WriteFile(self, nil, 0o755))
	_, err := LibraryPath(self)
	assert.Error(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(root, "lib", "libgompi.so"), nil, 0o644))
	p, err := LibraryPath(self)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(root, "lib", "libgompi.so"), p)
	// Through a symlink elsewhere (gompiexec -> gompirun, or /usr/local/bin links).
	link := filepath.Join(t.TempDir(), "gompiexec")
	require.NoError(t, os.Symlink(self, link))
	p, err = LibraryPath(link)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(root, "lib", "libgompi.so"), p)
}

func TestRemoveShm(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"gompi-12xab-seg", "gompi-12xab-ring-1", "gompi-12xabc-seg", "gompi-13xab-seg", "other"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), nil, 0o600))
	}
	assert.Len(t, ShmFiles(dir, "12xab"), 2)
	assert.Equal(t, 2, RemoveShm(dir, "12xab"))
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	assert.Len(t, left, 3)
}
