package hitopo

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

const (
	oneSocket = "testdata/1s4c8t"
	twoSocket = "testdata/2s16c2n"
)

func read(t *testing.T, root string, cpus ...int) Loc {
	t.Helper()
	l, err := Read(root, cpus)
	require.NoError(t, err)
	return l
}

func TestReadOneSocket(t *testing.T) {
	cases := []struct {
		name string
		cpus []int
		want Loc
	}{
		{"bound to cpu 5", []int{5}, Loc{Unknown, 0, 0, 0, 1, 5}},
		{"both threads of core 2", []int{2, 6}, Loc{Unknown, 0, 0, 0, 2, Unknown}},
		{"two cores", []int{0, 1}, Loc{Unknown, 0, 0, 0, Unknown, Unknown}},
		{"whole machine", []int{0, 1, 2, 3, 4, 5, 6, 7}, Loc{Unknown, 0, 0, 0, Unknown, Unknown}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, read(t, oneSocket, c.cpus...))
		})
	}
}

func TestReadTwoSocket(t *testing.T) {
	cases := []struct {
		name string
		cpus []int
		want Loc
	}{
		{"cpu 0", []int{0}, Loc{Unknown, 0, 0, 0, 0, 0}},
		{"cpu 13: socket 1, core id 8", []int{13}, Loc{Unknown, 1, 1, 8, 8, 13}},
		{"cpu 29: sibling of 13", []int{29}, Loc{Unknown, 1, 1, 8, 8, 29}},
		{"core of cpu 7", []int{7, 23}, Loc{Unknown, 0, 0, 0, 10, Unknown}},
		{"socket 1", []int{8, 9, 10, 11, 12, 13, 14, 15, 24, 25}, Loc{Unknown, 1, 1, 8, Unknown, Unknown}},
		// Same core id on both sockets: the core is unknown with the package.
		{"core 0 of each socket", []int{0, 8}, UnknownLoc},
		{"everything", []int{0, 31}, UnknownLoc},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, read(t, twoSocket, c.cpus...))
		})
	}
}

func withNode(l Loc, n int) Loc {
	l.Node = n
	return l
}

func TestDistanceOnRecordedMachines(t *testing.T) {
	at := func(root string, node int, cpus ...int) Loc { return withNode(read(t, root, cpus...), node) }
	c0 := at(twoSocket, 0, 0)
	assert.Equal(t, 0, Distance(c0, c0))
	assert.Equal(t, 1, Distance(c0, at(twoSocket, 0, 16)), "hyperthread sibling")
	assert.Equal(t, 2, Distance(c0, at(twoSocket, 0, 3)), "same socket and L3")
	assert.Equal(t, 5, Distance(c0, at(twoSocket, 0, 8)), "other socket, same core id")
	assert.Equal(t, 6, Distance(c0, at(twoSocket, 1, 0)), "same cpu number on another node")
	assert.True(t, SameSocket(c0, at(twoSocket, 0, 7)))
	assert.False(t, SameSocket(c0, at(twoSocket, 0, 8)))
	assert.False(t, SameSocket(c0, at(twoSocket, 1, 0)))

	// A process spread over socket 0 is 2 from a process on one of its CPUs.
	spread := at(twoSocket, 0, 0, 1, 2, 3)
	assert.Equal(t, 2, Distance(spread, c0))
	assert.Equal(t, 2, Distance(spread, spread), "unknown cpu and core never match")

	a := at(oneSocket, 0, 1)
	assert.Equal(t, 1, Distance(a, at(oneSocket, 0, 5)))
	assert.Equal(t, 2, Distance(a, at(oneSocket, 0, 2)))
}

func TestDistanceLevels(t *testing.T) {
	base := Loc{Node: 0, Package: 0, NUMA: 0, L3: 0, Core: 0, CPU: 0}
	mod := func(f func(*Loc)) Loc { l := base; f(&l); return l }
	assert.Equal(t, 0, Distance(base, base))
	assert.Equal(t, 1, Distance(base, mod(func(l *Loc) { l.CPU = 1 })))
	assert.Equal(t, 2, Distance(base, mod(func(l *Loc) { l.CPU, l.Core = 1, 1 })))
	assert.Equal(t, 3, Distance(base, mod(func(l *Loc) { l.CPU, l.Core, l.L3 = 1, 1, 4 })))
	assert.Equal(t, 4, Distance(base, mod(func(l *Loc) { l.CPU, l.Core, l.L3, l.NUMA = 1, 1, 4, 1 })))
	assert.Equal(t, 5, Distance(base, Loc{0, 1, 1, 8, 0, 8}))
	assert.Equal(t, 6, Distance(base, withNode(base, 1)))
	assert.Equal(t, 6, Distance(UnknownLoc, UnknownLoc))
	assert.Equal(t, 5, Distance(withNode(UnknownLoc, 3), withNode(UnknownLoc, 3)))
	// Symmetric.
	for _, b := range []Loc{base, withNode(base, 1), Loc{0, 1, 1, 8, 0, 8}, withNode(UnknownLoc, 0)} {
		assert.Equal(t, Distance(base, b), Distance(b, base))
	}
}

func TestEncodeDecode(t *testing.T) {
	for _, l := range []Loc{UnknownLoc, {0, 0, 0, 0, 0, 0}, {3, 1, 1, 8, 10, 29}, {100000, 7, 15, 191, 63, 383}} {
		b := l.Encode()
		assert.LessOrEqual(t, len(b), 16)
		got, err := Decode(b)
		require.NoError(t, err)
		assert.Equal(t, l, got)
	}
	assert.Len(t, Loc{3, 1, 1, 8, 10, 29}.Encode(), 7)
	good := Loc{3, 1, 1, 8, 10, 29}.Encode()
	for name, b := range map[string][]byte{
		"empty":       nil,
		"version":     append([]byte{2}, good[1:]...),
		"truncated":   good[:len(good)-1],
		"trailing":    append(append([]byte(nil), good...), 0),
		"below -1":    {1, 3, 0, 0, 0, 0, 0},
		"long varint": {1, 0x80, 0, 0, 0, 0, 0, 0},
	} {
		_, err := Decode(b)
		assert.Error(t, err, name)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(Loc{3, 1, 1, 8, 10, 29}.Encode())
	f.Add(UnknownLoc.Encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := Decode(b)
		if err != nil {
			return
		}
		if string(l.Encode()) != string(b) {
			t.Fatalf("%x decodes to %v which encodes differently", b, l)
		}
	})
}

func TestParseCPUList(t *testing.T) {
	got, err := ParseCPUList("8-11,0-3,16\n")
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 2, 3, 8, 9, 10, 11, 16}, got)
	got, err = ParseCPUList("\n")
	require.NoError(t, err)
	assert.Empty(t, got)
	for _, bad := range []string{"a", "3-1", "1-", "-1", "1,,2", "0-4000000000"} {
		_, err := ParseCPUList(bad)
		assert.Error(t, err, bad)
	}
}

// copyTree copies a fixture so a test can damage it.
func copyTree(t *testing.T, src string) string {
	dst := t.TempDir()
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
	return dst
}

func TestReadWithoutCacheOrNUMA(t *testing.T) {
	root := copyTree(t, oneSocket)
	matches, _ := filepath.Glob(filepath.Join(root, "devices/system/cpu/cpu*/cache"))
	require.Len(t, matches, 8)
	for _, m := range matches {
		require.NoError(t, os.RemoveAll(m))
	}
	require.NoError(t, os.RemoveAll(filepath.Join(root, "devices/system/node")))
	assert.Equal(t, Loc{Unknown, 0, Unknown, Unknown, 1, 5}, read(t, root, 5))

	// Nothing at all: every field but the CPU unknown, no error.
	assert.Equal(t, Loc{Unknown, Unknown, Unknown, Unknown, Unknown, 3}, read(t, t.TempDir(), 3))
}

func TestReadMalformed(t *testing.T) {
	root := copyTree(t, oneSocket)
	p := filepath.Join(root, "devices/system/cpu/cpu2/topology/core_id")
	require.NoError(t, os.WriteFile(p, []byte("two\n"), 0o644))
	_, err := Read(root, []int{2})
	assert.Error(t, err)
	_, err = Read(root, []int{3})
	assert.NoError(t, err, "other cpus unaffected")

	_, err = Read(oneSocket, nil)
	assert.Error(t, err)
	_, err = Read(oneSocket, []int{-1})
	assert.Error(t, err)
}

func TestSelf(t *testing.T) {
	cpus, err := AllowedCPUs()
	require.NoError(t, err)
	require.NotEmpty(t, cpus)
	l, err := Self()
	require.NoError(t, err)
	t.Logf("cpus %v: %v", cpus, l)
	assert.Equal(t, Unknown, l.Node, "the node comes from the job")
	if len(cpus) == 1 {
		assert.Equal(t, cpus[0], l.CPU)
	} else {
		assert.Equal(t, Unknown, l.CPU)
	}
	got, err := Decode(l.Encode())
	require.NoError(t, err)
	assert.Equal(t, l, got)
	me := withNode(l, 0)
	assert.LessOrEqual(t, Distance(me, me), 5)
	assert.Equal(t, 6, Distance(me, withNode(l, 1)))
}

func TestSelfBoundToOneCPU(t *testing.T) {
	cpus, err := AllowedCPUs()
	require.NoError(t, err)
	// Bind only this goroutine's thread, and restore it before unlocking.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var all, one unix.CPUSet
	require.NoError(t, unix.SchedGetaffinity(0, &all))
	defer func() { require.NoError(t, unix.SchedSetaffinity(0, &all)) }()
	cpu := cpus[len(cpus)-1]
	one.Set(cpu)
	require.NoError(t, unix.SchedSetaffinity(0, &one))

	l, err := Self()
	require.NoError(t, err)
	t.Logf("bound to cpu %d: %v", cpu, l)
	assert.Equal(t, cpu, l.CPU)
	want, err := Read("/sys", []int{cpu})
	require.NoError(t, err)
	assert.Equal(t, want, l)
	me := withNode(l, 0)
	assert.Equal(t, 0, Distance(me, me))
}

func TestCurrentCPUIsAllowed(t *testing.T) {
	cpus, err := AllowedCPUs()
	require.NoError(t, err)
	require.Contains(t, cpus, int(CurrentCPU()))
}
