package launcher

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseHostOptions(t *testing.T) {
	o, err := Parse([]string{"--host", "a:2,b", "-H", "c", "--map-by", "node", "--launch-agent", "ssh -o BatchMode=yes", "prog", "x"})
	require.NoError(t, err)
	assert.Equal(t, []Host{{"a", 2}, {"b", 1}, {"c", 1}}, o.Hosts)
	assert.Equal(t, 4, o.NP, "-n defaults to the slots")
	assert.Equal(t, MapByNode, o.MapBy)
	assert.Equal(t, "ssh -o BatchMode=yes", o.LaunchAgent)
	assert.Equal(t, []string{"x"}, o.Args)

	hf := filepath.Join(t.TempDir(), "hosts")
	require.NoError(t, os.WriteFile(hf, []byte("a slots=3\nb:1\n"), 0o644))
	o, err = Parse([]string{"-n", "2", "--hostfile=" + hf, "--map-by=core:PE=1", "prog"})
	require.NoError(t, err)
	assert.Equal(t, []Host{{"a", 3}, {"b", 1}}, o.Hosts)
	assert.Equal(t, 2, o.NP)
	assert.Equal(t, MapByCore, o.MapBy)

	o, err = Parse([]string{"-N", "3", "-H", "a:1,b:4", "prog"})
	require.NoError(t, err)
	assert.Equal(t, []Host{{"a", 3}, {"b", 3}}, o.Hosts, "-N sets every host's ranks")
	assert.Equal(t, 6, o.NP, "-N with hosts: N per host")

	o, err = Parse([]string{"prog"})
	require.NoError(t, err)
	assert.Nil(t, o.Hosts, "no --host: a one-node job as ever")

	for _, bad := range [][]string{
		{"--host", "a:0", "p"},
		{"--host", "", "p"},
		{"--hostfile", filepath.Join(t.TempDir(), "missing"), "p"},
		{"--map-by", "socket", "--host", "a", "p"},
		{"--map-by", "node", "p"},      // without hosts
		{"--launch-agent", "ssh", "p"}, // without hosts
		{"--launch-agent", " ", "-H", "a", "p"},
		{"--host", "a", "--mpich-binary", "p"},
		{"--host", "a", "--cpu-set", "0", "p"},
	} {
		_, err := Parse(bad)
		assert.ErrorIs(t, err, ErrUsage, "%q", bad)
	}
}
