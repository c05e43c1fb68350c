package info

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/abi"
)

func class(t *testing.T, err error) int {
	t.Helper()
	require.Error(t, err)
	e, ok := err.(*Error)
	require.True(t, ok)
	return e.Class
}

func TestSetGetOrder(t *testing.T) {
	in := New()
	require.NoError(t, in.Set("b", "1"))
	require.NoError(t, in.Set("a", "2"))
	require.NoError(t, in.Set("c", "3"))
	require.NoError(t, in.Set("b", "4")) // replacing keeps the position
	assert.Equal(t, 3, in.Nkeys())
	assert.Equal(t, []string{"b", "a", "c"}, in.Keys())
	v, ok, err := in.Get("b")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "4", v)
	_, ok, err = in.Get("zz")
	require.NoError(t, err)
	assert.False(t, ok)
	k, err := in.NthKey(2)
	require.NoError(t, err)
	assert.Equal(t, "c", k)
	_, err = in.NthKey(3)
	assert.Equal(t, abi.ErrArg, class(t, err))
	_, err = in.NthKey(-1)
	assert.Equal(t, abi.ErrArg, class(t, err))
}

func TestDeleteAndDup(t *testing.T) {
	in := New()
	require.NoError(t, in.Set("x", "1"))
	require.NoError(t, in.Set("y", "2"))
	d := in.Dup()
	require.NoError(t, in.Delete("x"))
	assert.Equal(t, []string{"y"}, in.Keys())
	assert.Equal(t, abi.ErrInfoNokey, class(t, in.Delete("x")))
	// The duplicate is independent.
	assert.Equal(t, []string{"x", "y"}, d.Keys())
	require.NoError(t, d.Set("y", "3"))
	v, _ := in.Lookup("y")
	assert.Equal(t, "2", v)
}

func TestLimits(t *testing.T) {
	in := New()
	long := strings.Repeat("k", abi.MaxInfoKey)
	require.NoError(t, in.Set(long, "v"))
	assert.Equal(t, abi.ErrInfoKey, class(t, in.Set(long+"k", "v")))
	assert.Equal(t, abi.ErrInfoKey, class(t, in.Set("", "v")))
	val := strings.Repeat("v", abi.MaxInfoVal)
	require.NoError(t, in.Set("k", val))
	assert.Equal(t, abi.ErrInfoValue, class(t, in.Set("k", val+"v")))
	require.NoError(t, in.Set("empty", ""))
	v, ok := in.Lookup("empty")
	assert.True(t, ok)
	assert.Equal(t, "", v)
	_, _, err := in.Get("")
	assert.Equal(t, abi.ErrInfoKey, class(t, err))
	assert.Equal(t, abi.ErrInfoKey, class(t, in.Delete(long+"k")))
}
