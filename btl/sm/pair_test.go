package sm

import (
	"encoding/binary"
	"os"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// pairProc is one simulated process: its pairs and what they delivered.
type pairProc struct {
	p   *Pairs
	got []pairFrag
}

type pairFrag struct {
	src int
	tag uint8
	b   []byte
}

// newPairProcs makes n Pairs under distinct pids; the first has this
// process's real pid, so single copy from the others to it works.
func newPairProcs(t *testing.T, n int, cfg PairConfig) []*pairProc {
	procs := make([]*pairProc, n)
	base := uint64(3_000_000_000 + os.Getpid()*8)
	for i := range procs {
		c := cfg
		c.Pid = base + uint64(i)
		if i == 0 {
			c.Pid = uint64(os.Getpid())
		}
		pp := &pairProc{}
		p, err := NewPairs(c, func(src int, tag uint8, data []byte) {
			pp.got = append(pp.got, pairFrag{src, tag, append([]byte(nil), data...)})
		})
		require.NoError(t, err)
		pp.p = p
		procs[i] = pp
		t.Cleanup(func() { p.Close() })
	}
	return procs
}

// connectAll has every process set up pairs with all the others at once;
// endpoint i is process i.
func connectAll(t *testing.T, procs []*pairProc) [][]bool {
	oks := make([][]bool, len(procs))
	var wg sync.WaitGroup
	for i, pp := range procs {
		var eps []int
		var pids []uint64
		for j, o := range procs {
			if j != i {
				eps, pids = append(eps, j), append(pids, o.p.cfg.Pid)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := pp.p.Connect(eps, pids, func(int) { time.Sleep(100 * time.Microsecond) }, time.Now().Add(20*time.Second))
			require.NoError(t, err)
			oks[i] = ok
		}()
	}
	wg.Wait()
	return oks
}

func TestPairsConnectAndTransfer(t *testing.T) {
	procs := newPairProcs(t, 3, PairConfig{RingSize: 64 << 10, GetMin: 1})
	for _, ok := range connectAll(t, procs) {
		require.Equal(t, []bool{true, true}, ok)
	}
	for i, pp := range procs {
		require.Equal(t, 2, pp.p.Peers())
		for j := range procs {
			require.Equal(t, i != j, pp.p.Reaches(j))
		}
	}
	// Every process sends sizes 0..EagerLimit to every other; order and
	// contents must hold, with the rings wrapping many times.
	hdr := [8]byte{}
	lim := procs[0].p.EagerLimit()
	sizes := []int{0, 1, 7, 100, 4096, lim - 8}
	payload := make([]byte, lim)
	for k := range payload {
		payload[k] = byte(k * 7)
	}
	const rounds = 20
	for r := 0; r < rounds; r++ {
		for i, pp := range procs {
			for j := range procs {
				if i == j {
					continue
				}
				for _, n := range sizes {
					binary.LittleEndian.PutUint32(hdr[:], uint32(n))
					hdr[4] = byte(i)
					for !pp.p.SendI(j, uint8(n), unsafe.Pointer(&hdr[0]), 8, unsafe.Pointer(&payload[0]), n) {
						procs[j].p.Progress()
					}
				}
			}
		}
		for _, pp := range procs {
			for pp.p.Progress() > 0 {
			}
		}
	}
	for j, pp := range procs {
		require.Len(t, pp.got, rounds*2*len(sizes), "process %d", j)
		next := map[int]int{}
		for _, f := range pp.got {
			n := sizes[next[f.src]%len(sizes)]
			next[f.src]++
			require.Equal(t, uint8(n), f.tag)
			require.Len(t, f.b, 8+n)
			require.Equal(t, uint32(n), binary.LittleEndian.Uint32(f.b))
			require.Equal(t, byte(f.src), f.b[4])
			require.Equal(t, payload[:n], f.b[8:])
		}
	}
	// Single copy: every other process reads process 0 (this process's
	// real pid); process 0 cannot read the made-up pids.
	src := []byte("single copy through process_vm_readv")
	dst := make([]byte, len(src))
	require.True(t, procs[1].p.CanGet(0))
	require.NoError(t, procs[1].p.Get(0, unsafe.Pointer(&dst[0]), len(dst), uintptr(unsafe.Pointer(&src[0]))))
	require.Equal(t, src, dst)
	require.False(t, procs[0].p.CanGet(1))
	require.Equal(t, "get", procs[1].p.PreferredProtocol(0, 1<<20).String())
	require.Equal(t, "send", procs[0].p.PreferredProtocol(1, 1<<20).String())
}

// A process with pairs off refuses every pair, and both sides know it.
func TestPairsRefused(t *testing.T) {
	procs := newPairProcs(t, 2, PairConfig{})
	procs[1].p.cfg.Off = true
	for _, ok := range connectAll(t, procs) {
		require.Equal(t, []bool{false}, ok)
	}
	require.Equal(t, 0, procs[0].p.Peers()+procs[1].p.Peers())
}

// A sleeping receiver is woken by a send on a pair.
func TestPairsWake(t *testing.T) {
	procs := newPairProcs(t, 2, PairConfig{})
	connectAll(t, procs)
	idler := PairsIdler{procs[1].p}
	done := make(chan time.Duration)
	go func() {
		t0 := time.Now()
		for procs[1].p.Progress() == 0 {
			idler.Idle(10 * time.Second)
		}
		done <- time.Since(t0)
	}()
	time.Sleep(50 * time.Millisecond)
	var h [8]byte
	require.True(t, procs[0].p.SendI(1, 1, unsafe.Pointer(&h[0]), 8, nil, 0))
	select {
	case d := <-done:
		require.Less(t, d, 5*time.Second)
	case <-time.After(10 * time.Second):
		t.Fatal("the sleeping receiver was not woken")
	}
}

// A process that never answers makes Connect fail by the deadline.
func TestPairsDeadline(t *testing.T) {
	procs := newPairProcs(t, 2, PairConfig{})
	// procs[0] has the lower pid... unless the made-up one is lower: wait
	// from the one that must receive an offer.
	lo, hi := procs[0], procs[1]
	if lo.p.cfg.Pid > hi.p.cfg.Pid {
		lo, hi = hi, lo
	}
	_, err := hi.p.Connect([]int{0}, []uint64{lo.p.cfg.Pid}, func(int) { time.Sleep(time.Millisecond) }, time.Now().Add(200*time.Millisecond))
	require.ErrorContains(t, err, "never offered")
}
