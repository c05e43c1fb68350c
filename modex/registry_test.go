package modex

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHashNameFNV1a(t *testing.T) {
	// FNV-1a 32 reference values.
	assert.Equal(t, Key(0x811c9dc5), HashName(""))
	assert.Equal(t, Key(0xe40c292c), HashName("a"))
	assert.Equal(t, Key(0xbf9cf968), HashName("foobar"))
}

// collidingNames finds two names with the same 32-bit hash (birthday bound:
// about 80 000 tries).
func collidingNames(t *testing.T) (string, string) {
	seen := make(map[Key]string)
	for i := 0; i < 1<<22; i++ {
		n := fmt.Sprintf("btl.x%d.1", i)
		k := HashName(n)
		if old, ok := seen[k]; ok {
			return old, n
		}
		seen[k] = n
	}
	t.Fatal("no collision found")
	return "", ""
}

func TestRegisterRefusesCollision(t *testing.T) {
	a, b := collidingNames(t)
	require.Equal(t, HashName(a), HashName(b))
	r := NewRegistry()
	ka, err := r.Register(a)
	require.NoError(t, err)
	_, err = r.Register(b)
	require.ErrorIs(t, err, ErrCollision)
	again, err := r.Register(a)
	require.NoError(t, err, "the same name again is fine")
	assert.Equal(t, ka, again)
	name, ok := r.Name(ka)
	assert.True(t, ok)
	assert.Equal(t, a, name)
	assert.Panics(t, func() { r.MustRegister(b) })

	// Another registry is independent: b registers there.
	_, err = NewRegistry().Register(b)
	assert.NoError(t, err)
}

func TestRegisterEmptyName(t *testing.T) {
	_, err := NewRegistry().Register("")
	assert.Error(t, err)
}
