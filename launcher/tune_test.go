package launcher

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gompi/internal/testtime"
	"gompi/launcher/tune"
)

func TestParseTune(t *testing.T) {
	o, err := Parse([]string{"--tune"})
	require.NoError(t, err)
	assert.True(t, o.Tune)
	assert.Equal(t, 2, o.NP)
	o, err = Parse([]string{"-x", "A=1", "--tune", "--tune-file=/tmp/t.conf", "--tune-time", "7.5", "-n", "2"})
	require.NoError(t, err)
	assert.Equal(t, &Options{NP: 2, Env: []string{"A=1"}, Tune: true, TuneFile: "/tmp/t.conf",
		TuneTime: 7500 * time.Millisecond, ExecBound: -1}, o)
	for _, args := range [][]string{
		{"--tune", "prog"}, {"--tune", "-n", "3"}, {"--tune", "--bind-to", "none"},
		{"--tune", "--cpu-set", "0"}, {"--tune", "--mpich-binary"}, {"--tune=1"},
		{"--tune", "--tune-file"}, {"--tune", "--tune-file="}, {"--tune", "--tune-time", "0"},
		{"--tune-file", "x", "prog"}, {"--tune-time", "3", "prog"},
	} {
		_, err := Parse(args)
		assert.ErrorIs(t, err, ErrUsage, "%q", args)
	}
}

func TestParseCPUSet(t *testing.T) {
	o, err := Parse([]string{"--cpu-set", "3,0-1", "p"})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 3}, o.CPUSet)
	for _, v := range []string{"", "x", "3-1"} {
		_, err := Parse([]string{"--cpu-set", v, "p"})
		assert.ErrorIs(t, err, ErrUsage, v)
	}
}

func TestRestrictCPUs(t *testing.T) {
	got, err := RestrictCPUs([]int{0, 1, 2, 3}, []int{3, 1, 3})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3}, got)
	_, err = RestrictCPUs([]int{0, 1}, []int{1, 5})
	assert.ErrorContains(t, err, "CPU 5")
}

func TestTunePlacements(t *testing.T) {
	// 2 sockets x 2 cores x 2 threads; siblings are n and n+4.
	two := fakeSysfs(t, map[int][2]int{
		0: {0, 0}, 1: {0, 1}, 2: {1, 0}, 3: {1, 1},
		4: {0, 0}, 5: {0, 1}, 6: {1, 0}, 7: {1, 1},
	})
	places := func(cpus []int, root string) (*Placement, *Placement) {
		p := TunePlacements(cpus, root)
		return p[0], p[1]
	}
	same, cross := places([]int{0, 1, 2, 3, 4, 5, 6, 7}, two)
	require.NotNil(t, same)
	require.NotNil(t, cross)
	assert.Equal(t, Placement{Name: "same socket", Key: tune.KeySame, CPUs: []int{0, 1}, Pkgs: []int{0, 0}}, *same)
	assert.Equal(t, Placement{Name: "other socket", Key: tune.KeyCross, CPUs: []int{0, 2}, Pkgs: []int{0, 1}}, *cross)

	// Only the allowed CPUs count: one core per socket left, so "same" means
	// hardware threads of one core.
	same, cross = places([]int{0, 4, 6}, two)
	require.NotNil(t, same)
	assert.Equal(t, []int{0, 4}, same.CPUs)
	assert.Equal(t, []int{0, 6}, cross.CPUs)
	// One CPU in each socket: no same-socket pair.
	same, cross = places([]int{1, 3}, two)
	assert.Nil(t, same)
	assert.Equal(t, []int{1, 3}, cross.CPUs)

	one := fakeSysfs(t, map[int][2]int{0: {0, 0}, 1: {0, 1}})
	same, cross = places([]int{0, 1}, one)
	assert.Equal(t, []int{0, 1}, same.CPUs)
	assert.Nil(t, cross)
	same, cross = places([]int{1}, one)
	assert.Nil(t, same)
	assert.Nil(t, cross)

	// Unreadable topology: the first two CPUs, sockets unknown.
	same, cross = places([]int{5, 9}, t.TempDir())
	assert.Equal(t, &Placement{Name: "same socket", Key: tune.KeySame, CPUs: []int{5, 9}, Pkgs: []int{-1, -1}}, same)
	assert.Nil(t, cross)
}

func TestAddTuneFile(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".config", "gompi", "tune.conf")
	env := envList{"HOME=" + home}
	addTuneFile(&env)
	_, set := env.get(tune.EnvFile)
	assert.False(t, set, "no file, no variable")

	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte("GOMPI_SM_GET_MIN_SAME=64k\n"), 0o644))
	addTuneFile(&env)
	v, _ := env.get(tune.EnvFile)
	assert.Equal(t, path, v)

	xdg := t.TempDir()
	env = envList{"HOME=" + home, "XDG_CONFIG_HOME=" + xdg}
	addTuneFile(&env)
	_, set = env.get(tune.EnvFile)
	assert.False(t, set, "XDG_CONFIG_HOME decides where the file is")

	for _, user := range []string{"/elsewhere.conf", ""} {
		env = envList{"HOME=" + home, tune.EnvFile + "=" + user}
		addTuneFile(&env)
		v, _ = env.get(tune.EnvFile)
		assert.Equal(t, user, v, "the user's choice stays, even an empty one")
	}
}

func TestDisagreement(t *testing.T) {
	off := []tune.Point{{Size: 16 << 10, Latency: 1, Bandwidth: 1}, {Size: 32 << 10, Latency: 2, Bandwidth: 2}, {Size: 64 << 10, Latency: 4, Bandwidth: 4}}
	win := []tune.Point{{Size: 16 << 10, Latency: 1, Bandwidth: 1}, {Size: 32 << 10, Latency: 1, Bandwidth: 3}, {Size: 64 << 10, Latency: 3, Bandwidth: 5}}
	lose := []tune.Point{{Size: 16 << 10, Latency: 1, Bandwidth: 1}, {Size: 32 << 10, Latency: 3, Bandwidth: 1}, {Size: 64 << 10, Latency: 3, Bandwidth: 5}}
	assert.Empty(t, disagreement([][]tune.Point{off, off}, [][]tune.Point{win, win}, 16<<10))
	msg := disagreement([][]tune.Point{off, off}, [][]tune.Point{win, lose}, 16<<10)
	assert.Contains(t, msg, "32 KiB and 64 KiB")
}

func TestTuneFileContentOneSocket(t *testing.T) {
	pts := func(lat ...float64) []tune.Point {
		var p []tune.Point
		for i, l := range lat {
			p = append(p, tune.Point{Size: (16 << 10) << i, Latency: l, Bandwidth: 1000 / l})
		}
		return p
	}
	o := &tuneOutcome{pl: &Placement{Name: "same socket", Key: tune.KeySame, CPUs: []int{0, 1}},
		off: pts(3, 5, 9), on: pts(3, 6, 8), eager: 16 << 10, dec: tune.Decision{Size: 64 << 10}}
	comments, settings := tuneFileContent([]*tuneOutcome{o}, "")
	assert.Equal(t, []tune.Setting{{Key: tune.KeySame, Value: "64k"}, {Key: tune.KeyCross, Value: "64k"}}, settings)
	text := strings.Join(comments, "\n")
	assert.Contains(t, text, "same socket (CPUs 0 and 1): single copy from 64 KiB on.")
	assert.Contains(t, text, "One socket here")
	assert.Regexp(t, `64 KiB .* single`, text)

	// Sockets of one CPU each: only the other-socket pair was measured.
	o.pl = &Placement{Name: "other socket", Key: tune.KeyCross, CPUs: []int{1, 3}}
	comments, settings = tuneFileContent([]*tuneOutcome{o}, "busy")
	assert.Equal(t, []tune.Setting{{Key: tune.KeySame, Value: "64k"}, {Key: tune.KeyCross, Value: "64k"}}, settings)
	assert.Contains(t, strings.Join(comments, "\n"), "Warning: busy")
}

// The whole --tune path, measuring little: gompitune runs under gompirun,
// the file appears with both keys, and jobs get it by default. The sizes
// end at 256 KiB instead of 8 MiB (GOMPI_TUNE_MAX): a test checks the path,
// not the machine, and the large sizes' fixed repetitions took 40 s of 90
// under the race detector on a busy machine, and a job over 64 s at a load
// of 32 on 2 CPUs.
func TestTuneEndToEnd(t *testing.T) {
	cpus, err := AllowedCPUs()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(cpus), 2, "--tune needs two CPUs")
	xdg := t.TempDir()
	path := filepath.Join(xdg, "gompi", "tune.conf")
	r := runFor(t, testtime.D(10*time.Minute), nil, []string{"XDG_CONFIG_HOME=" + xdg, "GOMPI_TUNE_FILE=", "GOMPI_TUNE_MAX=256k"},
		gompirun, "--tune", "--tune-time", "2")
	require.Equal(t, 0, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	assert.Contains(t, r.stdout, "wrote "+path)
	assert.Regexp(t, `same socket \(CPUs \d+ and \d+\): (single copy from \d+ [KM]iB on|single copy is not at least as fast)`, r.stdout)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	set, err := tune.Parse(b)
	require.NoError(t, err)
	keys := map[string]string{}
	for _, s := range set {
		keys[s.Key] = s.Value
	}
	require.Contains(t, keys, tune.KeySame)
	require.Contains(t, keys, tune.KeyCross)
	for _, k := range []string{tune.KeySame, tune.KeyCross} {
		n, err := tune.ParseSize(keys[k])
		require.NoError(t, err)
		assert.Greater(t, n, 16<<10, "a crossover above the eager limit")
	}

	// Ranks get the file unless the user names another (or none).
	show := `echo "tf=$GOMPI_TUNE_FILE"`
	env := []string{"XDG_CONFIG_HOME=" + xdg}
	r = runWith(t, nil, env, gompirun, "-n", "2", "sh", "-c", show)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, strings.Repeat("tf="+path+"\n", 2), r.stdout)
	r = runWith(t, nil, env, gompirun, "-x", "GOMPI_TUNE_FILE=", "sh", "-c", show)
	assert.Equal(t, "tf=\n", r.stdout)
}

func TestTuneNeedsGompitune(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "gompirun")
	require.NoError(t, os.WriteFile(self, nil, 0o755))
	_, err := TuneProgram(self)
	assert.ErrorContains(t, err, "gompitune")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gompitune"), nil, 0o755))
	p, err := TuneProgram(self)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "gompitune"), p)
}

func TestCPUSetBinding(t *testing.T) {
	cpus, err := AllowedCPUs()
	require.NoError(t, err)
	last := cpus[len(cpus)-1]
	r := run(t, "--cpu-set", strconv.Itoa(last), "sh", "-c", `echo "bound=$GOMPI_BOUND_CPU"`)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "bound="+strconv.Itoa(last)+"\n", r.stdout)
	r = run(t, "--cpu-set", strconv.Itoa(cpus[len(cpus)-1]+1000), "true")
	assert.Equal(t, 1, r.code)
	assert.Regexp(t, regexp.MustCompile(`--cpu-set: CPU \d+ is not among`), r.stderr)
}
