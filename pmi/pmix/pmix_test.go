package pmix

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Without a PMIx server, libpmix (v4) makes the process a singleton: the
// calls gompi uses must work on it, or Open must fail with a clear error.
func TestOpenWithoutServer(t *testing.T) {
	for _, kv := range os.Environ() {
		if len(kv) > 5 && kv[:5] == "PMIX_" {
			t.Skipf("running inside a PMIx job (%s)", kv)
		}
	}
	px, err := Open()
	if err != nil {
		assert.Regexp(t, `^pmix: (PMIx_Init: |cannot load libpmix)`, err.Error())
		t.Logf("no singleton support: %v", err)
		return
	}
	defer px.Finalize()
	assert.Equal(t, 0, px.Rank())
	assert.Equal(t, 1, px.Size())
	assert.NotEmpty(t, px.Namespace())
	require.NoError(t, px.Put("gompi.test", "value 1"))
	require.NoError(t, px.Fence())
	v, ok, err := px.Get(0, "gompi.test")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "value 1", v)
	_, ok, err = px.Get(0, "gompi.none")
	assert.NoError(t, err)
	assert.False(t, ok)
	_, err = Open()
	assert.ErrorContains(t, err, "already initialised")
}
