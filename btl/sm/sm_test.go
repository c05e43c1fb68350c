package sm_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"gompi/btl/sm"
	"gompi/pml"
)

// pair opens the sm transport for two "processes" inside this test process
// (goroutines; single copy to our own pid works) with one engine each.
func pair(t *testing.T, mode sm.SingleCopy) ([2]*pml.Engine, [2]*pml.Comm) {
	job := fmt.Sprintf("test%dx%s", os.Getpid(), t.Name())
	for i := range job {
		if job[i] == '/' {
			job = job[:i]
			break
		}
	}
	var engines [2]*pml.Engine
	var comms [2]*pml.Comm
	var mods [2]*sm.Module
	cfgs := [2]sm.Config{}
	for i := range cfgs {
		cfgs[i] = sm.Config{JobID: job, Me: i, WorldSize: 2, LocalRanks: []int{0, 1}, RingSize: 1 << 18,
			SingleCopy: mode, GetMinSameSocket: 1 << 15, GetMinCrossSocket: 1 << 15}
		engines[i] = pml.New(pml.Config{Me: i, WorldSize: 2})
	}
	require.NoError(t, sm.Prepare(&cfgs[0]))
	cfgs[1].Segment = cfgs[0].Segment
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range mods {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			mods[i], errs[i] = sm.Open(cfgs[i], engines[i].Handler())
		}(i)
	}
	wg.Wait()
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	files, _ := filepath.Glob("/dev/shm/gompi-" + job + "*")
	require.Empty(t, files, "the segment has no name")
	for i := range engines {
		engines[i].AddTransport(mods[i], []int{1 - i})
		comms[i] = pml.NewComm(0, i, []int{0, 1})
		engines[i].Register(comms[i])
	}
	t.Cleanup(func() { mods[0].Close(); mods[1].Close() })
	return engines, comms
}

func TestEagerOverSMAllocatesNothing(t *testing.T) {
	e, c := pair(t, sm.SingleCopyAuto)
	sbuf, rbuf := make([]byte, 256), make([]byte, 256)
	sp, rp := unsafe.Pointer(&sbuf[0]), unsafe.Pointer(&rbuf[0])
	for i := 0; i < 10; i++ { // warm the free lists
		e[0].Send(c[0], sp, 256, 1, 1, pml.ModeStandard)
		e[1].Recv(c[1], rp, 256, 0, 1)
	}
	allocs := testing.AllocsPerRun(2000, func() {
		e[0].Send(c[0], sp, 256, 1, 1, pml.ModeStandard) // immediate path: no request
		e[1].Recv(c[1], rp, 256, 0, 1)
		r := e[1].Irecv(c[1], rp, 256, 0, 2) // posted first, then matched on arrival
		if q := e[0].Isend(c[0], sp, 256, 1, 2, pml.ModeStandard); q != nil {
			e[0].Wait(q)
			e[0].Release(q)
		}
		e[1].Wait(r)
		e[1].Release(r)
	})
	require.Zero(t, allocs)
}

func TestRendezvousOverSM(t *testing.T) {
	for _, mode := range []sm.SingleCopy{sm.SingleCopyOn, sm.SingleCopyOff} {
		e, c := pair(t, mode)
		for _, n := range []int{40000, 1 << 20, 3<<20 + 7} {
			msg := make([]byte, n)
			for i := range msg {
				msg[i] = byte(i*31 + n)
			}
			got := make([]byte, n)
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				e[0].Send(c[0], unsafe.Pointer(&msg[0]), n, 1, 5, pml.ModeStandard)
			}()
			st := e[1].Recv(c[1], unsafe.Pointer(&got[0]), n, 0, 5)
			wg.Wait()
			require.Equal(t, n, st.Count)
			require.Equal(t, msg, got, "mode %v size %d", mode, n)
		}
		if mode == sm.SingleCopyOn {
			require.Positive(t, e[1].Counters.RndvGet)
		} else {
			require.Positive(t, e[1].Counters.RndvPipe)
		}
	}
}
