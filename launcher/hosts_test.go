package launcher

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseHostList(t *testing.T) {
	h, err := ParseHostList("n1:2,n2,n3:4,n2")
	require.NoError(t, err)
	assert.Equal(t, []Host{{"n1", 2}, {"n2", 2}, {"n3", 4}}, h)
	for _, bad := range []string{"", "a,,b", "a:0", "a:x", "-oProxyCommand=x", "a;b", "a b", "a:-1"} {
		_, err := ParseHostList(bad)
		assert.Error(t, err, bad)
	}
}

func TestParseHostfile(t *testing.T) {
	text := `# cluster
n1 slots=2
n2 slots=3 max_slots=8   # trailing comment

n3:4
n4
n1 slots=1
`
	h, err := ParseHostfile(strings.NewReader(text))
	require.NoError(t, err)
	assert.Equal(t, []Host{{"n1", 3}, {"n2", 3}, {"n3", 4}, {"n4", 1}}, h)
	for _, bad := range []string{"", "# only\n", "n1 slots=0\n", "n1 slots\n", "n1 color=red\n", "n1:x\n", "-x\n"} {
		_, err := ParseHostfile(strings.NewReader(bad))
		assert.Error(t, err, bad)
	}
}

func TestPlace(t *testing.T) {
	hosts := []Host{{"a", 2}, {"b", 2}, {"c", 1}}
	cases := []struct {
		mapBy string
		np    int
		want  []int
	}{
		{MapBySlot, 5, []int{0, 0, 1, 1, 2}},
		{MapByCore, 3, []int{0, 0, 1}},
		{MapByNode, 5, []int{0, 1, 2, 0, 1}},
		{MapByNode, 2, []int{0, 1}},
		{MapBySlot, 7, []int{0, 0, 1, 1, 2, 0, 0}}, // oversubscribed: the layout repeats
		{MapByNode, 7, []int{0, 1, 2, 0, 1, 0, 1}},
	}
	for _, c := range cases {
		got, err := Place(hosts, c.np, c.mapBy)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "%s np=%d", c.mapBy, c.np)
	}
	_, err := Place(hosts, 2, "socket")
	assert.Error(t, err)
	_, err = Place(nil, 2, MapBySlot)
	assert.Error(t, err)
}

func TestProcessMapping(t *testing.T) {
	assert.Equal(t, "(vector,(0,3,2))", ProcessMapping([]int{0, 0, 1, 1, 2, 2}))
	assert.Equal(t, "(vector,(0,3,1),(0,3,1))", ProcessMapping([]int{0, 1, 2, 0, 1, 2}))
	assert.Equal(t, "(vector,(0,1,3),(1,1,1))", ProcessMapping([]int{0, 0, 0, 1}))
	assert.Equal(t, "(vector,(0,1,4))", ProcessMapping([]int{0, 0, 0, 0}))
}
