package repo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoot(t *testing.T) {
	r, err := Root()
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(r, "internal", "repo", "repo.go"))
	assert.NoError(t, err, "the root holds this package")
	_, err = RootFrom(t.TempDir())
	assert.Error(t, err, "no gompi tree above a temporary directory")
}
