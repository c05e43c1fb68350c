package mpit

import (
	"testing"

	"github.com/stretchr/testify/require"

	"gompi/abi"
)

// reset empties the registry between tests.
func reset() {
	cvars, pvars, cats, enums, sessions, handles, cvarHandles = nil, nil, nil, nil, nil, nil, nil
	initCount = 0
}

func TestCvarsParseAndWrite(t *testing.T) {
	reset()
	val := ""
	set := func(s string) int { val = s; return 0 }
	get := func() string { return val }
	e := &Enum{Name: "MODE", Items: []string{"auto", "on", "off"}}
	AddCategory("root", "the root", "")
	AddCvar(&Cvar{Name: "SIZE", Default: "64k", Get: get, Set: set, Category: "root"})
	AddCvar(&Cvar{Name: "MODE", Default: "auto", Enum: e, Get: get, Set: set, Category: "root"})
	AddCvar(&Cvar{Name: "FIXED", Str: true, Default: "x", Get: func() string { return "" }})

	sz := CvarAt(CvarIndex("SIZE"))
	require.Equal(t, 64<<10, sz.ReadInt(), "default with a suffix")
	val = "2m"
	require.Equal(t, 2<<20, sz.ReadInt())
	val = "junk"
	require.Equal(t, 64<<10, sz.ReadInt(), "unparsable: the default")
	require.Zero(t, sz.WriteInt(4096))
	require.Equal(t, "4096", val)

	m := CvarAt(CvarIndex("MODE"))
	val = ""
	require.Equal(t, 0, m.ReadInt())
	require.Zero(t, m.WriteInt(2))
	require.Equal(t, "off", val)
	require.Equal(t, 2, m.ReadInt())
	require.Equal(t, abi.TErrInvalid, m.WriteInt(3))
	require.Equal(t, 1, EnumID(e))
	require.Same(t, e, EnumAt(1))
	require.Nil(t, EnumAt(2))

	f := CvarAt(CvarIndex("FIXED"))
	require.Equal(t, "x", f.ReadString())
	require.Equal(t, abi.TErrCvarSetNever, f.WriteString("y"))
	ro := &Cvar{Name: "RO", Str: true, Scope: abi.TScopeReadonly, Get: func() string { return "" }}
	require.Equal(t, abi.TErrNotAccessible, ro.WriteString("y")) // MPI-4.1: never writable
	require.Equal(t, abi.TErrNotAccessible, ro.WriteInt(1))
	require.Equal(t, -1, CvarIndex("NONE"))
	require.Nil(t, CvarAt(3))
	require.Equal(t, []int{0, 1}, cats[CategoryIndex("root")].Cvars)
}

func TestPvarSessionsAndHandles(t *testing.T) {
	reset()
	require.False(t, Active())
	require.Equal(t, abi.ThreadSingle, Init(abi.ThreadSingle))
	require.Equal(t, abi.ThreadSerialized, Init(abi.ThreadMultiple))
	var n uint64
	timing := 0
	AddCategory("c", "counters", "")
	AddCategory("sub", "below c", "c")
	AddPvar(&Pvar{Name: "count", Class: abi.TPvarClassCounter, Read: func() uint64 { return n }, Category: "sub"})
	AddPvar(&Pvar{Name: "level", Class: abi.TPvarClassLevel, Read: func() uint64 { return n * 2 }, Category: "c"})
	AddPvar(&Pvar{Name: "timer", Class: abi.TPvarClassTimer, Read: func() uint64 { return n },
		Timing: func(on bool) {
			if on {
				timing++
			} else {
				timing--
			}
		}})
	require.Equal(t, []int{1}, cats[0].Cats)
	require.Equal(t, 0, PvarIndex("count", abi.TPvarClassCounter))
	require.Equal(t, -1, PvarIndex("count", abi.TPvarClassLevel))

	s := NewSession()
	hc, rc := AllocHandle(s, 0)
	require.Zero(t, rc)
	hl, _ := AllocHandle(s, 1)
	ht, _ := AllocHandle(s, 2)
	_, rc = AllocHandle(s, 3)
	require.Equal(t, abi.TErrInvalidIndex, rc)
	_, rc = AllocHandle(99, 0)
	require.Equal(t, abi.TErrInvalidSession, rc)

	c, _ := HandleAt(s, hc)
	l, _ := HandleAt(s, hl)
	n = 10
	require.Zero(t, c.Value(), "a counter handle starts stopped")
	require.Equal(t, uint64(20), l.Value(), "a level is continuous")
	require.Zero(t, Start(s, AllHandles), "start all skips the continuous level")
	require.Equal(t, 1, timing, "the timer measures while started")
	n = 15
	require.Equal(t, uint64(5), c.Value())
	require.Zero(t, Stop(s, hc))
	n = 40
	require.Equal(t, uint64(5), c.Value(), "stopped")
	require.Zero(t, Start(s, hc))
	n = 42
	require.Equal(t, uint64(7), c.Value(), "accumulates over started periods")
	require.Zero(t, c.Write(100))
	n = 43
	require.Equal(t, uint64(101), c.Value())
	require.Zero(t, Reset(s, hc))
	require.Zero(t, c.Value())

	require.Equal(t, abi.TErrPvarNoStartstop, Start(s, hl))
	require.Equal(t, abi.TErrPvarNoStartstop, Stop(s, hl))
	require.Equal(t, abi.TErrPvarNoWrite, Reset(s, hl))
	require.Equal(t, abi.TErrPvarNoWrite, l.Write(1))

	s2 := NewSession()
	_, rc = HandleAt(s2, hc)
	require.Equal(t, abi.TErrInvalidHandle, rc, "a handle of another session")
	require.Zero(t, FreeHandle(s, ht))
	require.Equal(t, 0, timing, "freeing the started timer handle stops timing")
	require.Equal(t, abi.TErrInvalidHandle, FreeHandle(s, ht))
	require.Zero(t, FreeSession(s))
	require.Equal(t, abi.TErrInvalidSession, FreeSession(s))
	_, rc = HandleAt(s, hc)
	require.Equal(t, abi.TErrInvalidSession, rc)

	require.Zero(t, Finalize())
	require.True(t, Active(), "reference counted")
	require.Zero(t, Finalize())
	require.False(t, Active())
	require.Equal(t, abi.TErrNotInitialized, Finalize())
}
