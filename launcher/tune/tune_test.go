package tune

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// series builds points at sizes from (latency, bandwidth) pairs.
func series(sizes []int, lb ...[2]float64) []Point {
	p := make([]Point, len(sizes))
	for i, s := range sizes {
		p[i] = Point{Size: s, Latency: lb[i][0], Bandwidth: lb[i][1]}
	}
	return p
}

var sz = []int{16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10}

func TestCrossoverSmallestSizeFromWhichSingleCopyHolds(t *testing.T) {
	off := series(sz, [2]float64{3, 5000}, [2]float64{6, 6000}, [2]float64{10, 7000}, [2]float64{20, 8000}, [2]float64{40, 8000})
	on := series(sz, [2]float64{4, 4000}, [2]float64{5, 5000}, [2]float64{8, 9000}, [2]float64{12, 12000}, [2]float64{20, 14000})
	// 32 KiB wins latency but loses bandwidth: single copy holds from 64 KiB.
	d, err := Crossover(off, on, 0)
	require.NoError(t, err)
	assert.Equal(t, Decision{Size: 64 << 10}, d)
	assert.Equal(t, "64k", d.Value())
}

func TestCrossoverNeedsBothMetricsAtEveryLargerSize(t *testing.T) {
	off := series(sz, [2]float64{3, 5000}, [2]float64{6, 6000}, [2]float64{10, 7000}, [2]float64{20, 8000}, [2]float64{40, 8000})
	// Wins at 16 and 32 KiB, loses latency at 64 KiB, wins above: the early
	// wins do not count, the crossover is past the last loss.
	on := series(sz, [2]float64{2, 6000}, [2]float64{5, 7000}, [2]float64{11, 9000}, [2]float64{12, 12000}, [2]float64{20, 14000})
	d, err := Crossover(off, on, 0)
	require.NoError(t, err)
	assert.Equal(t, 128<<10, d.Size)

	// Single copy wins everywhere: the smallest size.
	d, err = Crossover(off[2:], on[2:], 0)
	require.NoError(t, err)
	assert.Equal(t, Decision{Size: 128 << 10}, d)
	on[2].Latency = 10
	d, err = Crossover(off, on, 0)
	require.NoError(t, err)
	assert.Equal(t, Decision{Size: 16 << 10}, d, "equal counts as at least as fast")
}

func TestCrossoverNever(t *testing.T) {
	off := series(sz, [2]float64{3, 5000}, [2]float64{6, 6000}, [2]float64{10, 7000}, [2]float64{20, 8000}, [2]float64{40, 9000})
	// Better everywhere but the largest size's bandwidth.
	on := series(sz, [2]float64{2, 6000}, [2]float64{5, 7000}, [2]float64{8, 9000}, [2]float64{12, 9000}, [2]float64{20, 8999})
	d, err := Crossover(off, on, 0)
	require.NoError(t, err)
	assert.True(t, d.Never)
	assert.Equal(t, "1g", d.Value())
	assert.Contains(t, d.Describe(256<<10), "never")
}

func TestCrossoverTolerance(t *testing.T) {
	off := series(sz[:2], [2]float64{10, 1000}, [2]float64{20, 1000})
	on := series(sz[:2], [2]float64{10.2, 990}, [2]float64{15, 2000})
	d, err := Crossover(off, on, 0)
	require.NoError(t, err)
	assert.Equal(t, 32<<10, d.Size, "2% slower loses without tolerance")
	d, err = Crossover(off, on, 0.03)
	require.NoError(t, err)
	assert.Equal(t, 16<<10, d.Size, "within 3% counts as as fast")
	on[0].Bandwidth = 960
	d, err = Crossover(off, on, 0.03)
	require.NoError(t, err)
	assert.Equal(t, 32<<10, d.Size, "4% less bandwidth is slower")
}

func TestCrossoverRejectsBadInput(t *testing.T) {
	good := series(sz[:2], [2]float64{1, 1}, [2]float64{1, 1})
	for name, c := range map[string][2][]Point{
		"empty":      {nil, nil},
		"lengths":    {good, good[:1]},
		"sizes":      {good, series([]int{16 << 10, 48 << 10}, [2]float64{1, 1}, [2]float64{1, 1})},
		"descending": {series([]int{2, 1}, [2]float64{1, 1}, [2]float64{1, 1}), series([]int{2, 1}, [2]float64{1, 1}, [2]float64{1, 1})},
		"zero":       {good, series(sz[:2], [2]float64{1, 1}, [2]float64{0, 1})},
	} {
		_, err := Crossover(c[0], c[1], 0)
		assert.Error(t, err, name)
	}
	_, err := Crossover(good, good, 1)
	assert.Error(t, err)
}

func TestMeanAndRendezvous(t *testing.T) {
	a := series(sz[:3], [2]float64{3, 100}, [2]float64{5, 300}, [2]float64{9, 200})
	b := series(sz[:3], [2]float64{4, 200}, [2]float64{4, 200}, [2]float64{9, 250})
	mean, err := Mean(a, b)
	require.NoError(t, err)
	assert.Equal(t, series(sz[:3], [2]float64{3.5, 150}, [2]float64{4.5, 250}, [2]float64{9, 225}), mean)
	assert.Equal(t, 3.0, a[0].Latency, "inputs unchanged")
	one, err := Mean(a)
	require.NoError(t, err)
	assert.Equal(t, a, one)
	_, err = Mean(a, b[:2])
	assert.Error(t, err)
	_, err = Mean(a, series([]int{1, 2, 3}, [2]float64{1, 1}, [2]float64{1, 1}, [2]float64{1, 1}))
	assert.Error(t, err)
	_, err = Mean()
	assert.Error(t, err)

	assert.Equal(t, a[1:], Rendezvous(a, 16<<10))
	assert.Equal(t, a, Rendezvous(a, 0))
	assert.Empty(t, Rendezvous(a, 1<<20))
}

func TestSizes(t *testing.T) {
	s := Sizes(16<<10, 8<<20, 2)
	assert.Len(t, s, 19)
	assert.Equal(t, []int{16 << 10, 22 << 10, 32 << 10, 45 << 10, 64 << 10}, s[:5])
	assert.Equal(t, 8<<20, s[len(s)-1])
	for i := 1; i < len(s); i++ {
		assert.Greater(t, s[i], s[i-1])
		assert.Zero(t, s[i]%1024)
	}
	assert.Equal(t, []int{16 << 10, 32 << 10, 64 << 10}, Sizes(16<<10, 64<<10, 1))
	assert.Equal(t, []int{100}, Sizes(100, 100, 3))
	assert.Nil(t, Sizes(0, 10, 1))
	assert.Nil(t, Sizes(10, 5, 1))
}

func TestSizeFormats(t *testing.T) {
	for s, n := range map[string]int{"0": 0, "65536": 65536, "64k": 64 << 10, "8M": 8 << 20, "1g": 1 << 30, " 32k ": 32 << 10} {
		got, err := ParseSize(s)
		require.NoError(t, err, s)
		assert.Equal(t, n, got, s)
	}
	for _, s := range []string{"", "k", "-1", "1.5m", "12x", "99999999999g"} {
		_, err := ParseSize(s)
		assert.Error(t, err, s)
	}
	for n, s := range map[int]string{0: "0", 1000: "1000", 22 << 10: "22k", 1448 << 10: "1448k", 8 << 20: "8m", 1 << 30: "1g"} {
		assert.Equal(t, s, FormatSize(n))
		back, err := ParseSize(s)
		require.NoError(t, err)
		assert.Equal(t, n, back)
	}
	assert.Equal(t, "1448 KiB", HumanSize(1448<<10))
	assert.Equal(t, "8 MiB", HumanSize(8<<20))
	assert.Equal(t, "100 B", HumanSize(100))
}

func TestDefaultPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	p, err := DefaultPath(env(map[string]string{"XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"}))
	require.NoError(t, err)
	assert.Equal(t, "/x/cfg/gompi/tune.conf", p)
	p, err = DefaultPath(env(map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/home/u"}))
	require.NoError(t, err)
	assert.Equal(t, "/home/u/.config/gompi/tune.conf", p, "a relative XDG_CONFIG_HOME is ignored")
	_, err = DefaultPath(env(map[string]string{}))
	assert.Error(t, err)
}

func TestFileRoundTripKeepsOtherSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "tune.conf")
	set := []Setting{{KeySame, "32k"}, {KeyCross, "64k"}}
	require.NoError(t, Write(path, []string{"first", "", "second"}, set))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "# first\n#\n# second\nGOMPI_SM_GET_MIN_SAME=32k\nGOMPI_SM_GET_MIN_CROSS=64k\n", string(b))
	got, err := Parse(b)
	require.NoError(t, err)
	assert.Equal(t, set, got)

	// A hand-added line survives the next --tune; the measured keys are replaced.
	require.NoError(t, os.WriteFile(path, append(b, []byte(" GOMPI_EAGER_LIMIT = 8k \n# note\n")...), 0o644))
	require.NoError(t, Write(path, []string{"new"}, []Setting{{KeySame, "1m"}, {KeyCross, "1m"}}))
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	got, err = Parse(b)
	require.NoError(t, err)
	assert.Equal(t, []Setting{{KeySame, "1m"}, {KeyCross, "1m"}, {"GOMPI_EAGER_LIMIT", "8k"}}, got)
	assert.NotContains(t, string(b), "first")
	assert.True(t, strings.HasPrefix(string(b), "# new\n"))
	left, err := filepath.Glob(filepath.Join(filepath.Dir(path), ".tune.conf-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "no temporary file left")

	// A damaged file is not overwritten silently.
	require.NoError(t, os.WriteFile(path, []byte("garbage line\n"), 0o644))
	assert.Error(t, Write(path, nil, set))
}

func TestTable(t *testing.T) {
	off := series(sz[:3], [2]float64{3, 5000}, [2]float64{6, 6000}, [2]float64{10, 7000})
	on := series(sz[:3], [2]float64{3, 5000}, [2]float64{7, 6000}, [2]float64{8, 9000})
	lines := Table(off, on, 16<<10, 0.03)
	require.Len(t, lines, 4)
	assert.True(t, strings.HasSuffix(lines[1], "eager"), lines[1])
	assert.True(t, strings.HasSuffix(lines[2], "copy"), lines[2])
	assert.True(t, strings.HasSuffix(lines[3], "single"), lines[3])
	assert.Contains(t, lines[3], "64 KiB")
}
