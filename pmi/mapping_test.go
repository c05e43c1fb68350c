package pmi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseProcessMapping(t *testing.T) {
	cases := []struct {
		s    string
		size int
		want []int
	}{
		{"(vector,(0,1,4))", 4, []int{0, 0, 0, 0}},               // one node (Slurm, gompirun)
		{"(vector,(0,2,2))", 4, []int{0, 0, 1, 1}},               // block
		{"(vector,(0,2,1))", 4, []int{0, 1, 0, 1}},               // cyclic: the pattern repeats
		{"(vector,(0,2,2),(2,1,1))", 5, []int{0, 0, 1, 1, 2}},    // uneven
		{" (vector,(1,2,3)) ", 5, []int{1, 1, 1, 2, 2}},          // base, spaces
		{"(vector,(0,3,1),(0,1,0))", 3, []int{0, 1, 2}},          // an empty block
		{"(vector,(0,1,4))", 2, []int{0, 0}},                     // covers more than the job
		{"(vector,(0,2,2),(0,1,1))", 6, []int{0, 0, 1, 1, 0, 0}}, // wraps mid-list
	}
	for _, tc := range cases {
		got, err := ParseProcessMapping(tc.s, tc.size)
		require.NoError(t, err, tc.s)
		assert.Equal(t, tc.want, got, tc.s)
	}
	for _, bad := range []string{"", "(vector)", "(vector,)", "(vector,(0,1))", "(vector,(0,1,x))",
		"(vector,(0,1,-1))", "(vector,(0,0,1))", "(vector,(0,1,1)", "(map,(0,1,1))", "(vector,(0,1,1)x)"} {
		_, err := ParseProcessMapping(bad, 4)
		assert.Error(t, err, "%q", bad)
	}
	_, err := ParseProcessMapping("(vector,(0,1,1))", 0)
	assert.Error(t, err)
}

// The PMI-2 client and the PMI-1 client read the attribute their own way.
func TestProcessMappingAttr(t *testing.T) {
	_, cs := startV2Job(t, 3)
	nodes, ok, err := cs[1].ProcessMapping()
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, []int{0, 0, 0}, nodes)

	j := startJob(t, 2)
	nodes, ok, err = j.clients[0].ProcessMapping()
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, []int{0, 0}, nodes)

	nodes, ok, err = NewSingleton().ProcessMapping()
	assert.NoError(t, err)
	assert.False(t, ok)
	assert.Nil(t, nodes)
}
