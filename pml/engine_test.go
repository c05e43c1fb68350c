package pml

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"gompi/abi"
	"gompi/btl/self"
)

func ptr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

func pattern(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + seed)
	}
	return b
}

func TestSendRecvAllProtocols(t *testing.T) {
	for _, get := range []bool{true, false} {
		for _, n := range []int{0, 1, 100, 4095, 4096, 4097, 10000, 1 << 20} {
			t.Run(fmt.Sprintf("get=%v/n=%d", get, n), func(t *testing.T) {
				f := newFakeNet(2, get)
				msg := pattern(n, 3)
				got := make([]byte, n)
				var st Status
				f.run(func(e *Engine, c *Comm) {
					e.Send(c, ptr(msg), n, 1, 9, ModeStandard)
				}, func(e *Engine, c *Comm) {
					st = e.Recv(c, ptr(got), n, 0, 9)
				})
				require.Equal(t, msg, got)
				require.Equal(t, Status{Source: 0, Tag: 9, Count: n}, st)
			})
		}
	}
}

func TestNonOvertakingAndOutOfOrderArrival(t *testing.T) {
	f := newFakeNet(2, false)
	f.reverse = true // every delivered batch arrives newest first
	const k = 500
	got := make([]int32, k)
	f.run(func(e *Engine, c *Comm) {
		for i := int32(0); i < k; i++ {
			v := i
			e.Send(c, unsafe.Pointer(&v), 4, 1, 1, ModeStandard)
		}
	}, func(e *Engine, c *Comm) {
		for i := 0; i < k; i++ {
			e.Recv(c, unsafe.Pointer(&got[i]), 4, 0, 1)
		}
	})
	for i := range got {
		require.Equal(t, int32(i), got[i])
	}
	require.Greater(t, f.engines[1].Counters.OutOfOrder, uint64(0))
}

func TestSequenceWrapAround(t *testing.T) {
	f := newFakeNet(2, false)
	const k = 70000 // more than 2^16 messages on one (communicator, peer)
	ok := true
	f.run(func(e *Engine, c *Comm) {
		for i := int32(0); i < k; i++ {
			v := i
			e.Send(c, unsafe.Pointer(&v), 4, 1, 2, ModeStandard)
		}
	}, func(e *Engine, c *Comm) {
		for i := int32(0); i < k; i++ {
			var v int32
			e.Recv(c, unsafe.Pointer(&v), 4, 0, 2)
			ok = ok && v == i
		}
	})
	require.True(t, ok)
}

func TestWildcardsInPostingOrder(t *testing.T) {
	f := newFakeNet(3, false)
	var a, b, w1, w2 int32
	var sa, sw1, sw2, sb Status
	f.run(func(e *Engine, c *Comm) {
		// Post: specific(1, tag 5), any(any), any(tag 7), specific(2, any).
		r1 := e.Irecv(c, unsafe.Pointer(&a), 4, 1, 5)
		r2 := e.Irecv(c, unsafe.Pointer(&w1), 4, AnySource, AnyTag)
		r3 := e.Irecv(c, unsafe.Pointer(&w2), 4, AnySource, 7)
		r4 := e.Irecv(c, unsafe.Pointer(&b), 4, 2, AnyTag)
		e.Send(c, nil, 0, 1, 100, ModeStandard) // go
		e.Send(c, nil, 0, 2, 100, ModeStandard)
		for _, r := range []*Request{r1, r2, r3, r4} {
			e.Wait(r)
		}
		sa, sw1, sw2, sb = r1.Status, r2.Status, r3.Status, r4.Status
	}, func(e *Engine, c *Comm) {
		e.Recv(c, nil, 0, 0, 100)
		v := int32(11)
		e.Send(c, unsafe.Pointer(&v), 4, 0, 5, ModeStandard) // matches r1 (posted first)
		v = 12
		e.Send(c, unsafe.Pointer(&v), 4, 0, 7, ModeStandard) // r2 before r3
	}, func(e *Engine, c *Comm) {
		e.Recv(c, nil, 0, 0, 100)
		v := int32(21)
		e.Send(c, unsafe.Pointer(&v), 4, 0, 7, ModeStandard) // r2 or r3, whichever is left
		v = 22
		e.Send(c, unsafe.Pointer(&v), 4, 0, 8, ModeStandard)
	})
	require.Equal(t, int32(11), a)
	require.Equal(t, 1, sa.Source)
	// r2 (any, any) got the first of {12 from 1, 21 from 2}; r3 (any, 7) the other tag-7 one.
	require.ElementsMatch(t, []int32{12, 21}, []int32{w1, w2})
	require.Equal(t, 7, sw2.Tag)
	require.Equal(t, int32(22), b)
	require.Equal(t, 8, sb.Tag)
	_ = sw1
}

func TestManyUnexpectedBeforeReceives(t *testing.T) {
	f := newFakeNet(2, false)
	const k = 10000
	ok := true
	f.run(func(e *Engine, c *Comm) {
		for i := int32(0); i < k; i++ {
			v := i
			e.Send(c, unsafe.Pointer(&v), 4, 1, int(i%3), ModeStandard)
		}
		e.Send(c, nil, 0, 1, 99, ModeStandard)
	}, func(e *Engine, c *Comm) {
		e.Probe(c, 0, 99) // everything has arrived before any receive is posted
		for tag := 0; tag < 3; tag++ {
			for i := int32(tag); i < k; i += 3 {
				var v int32
				st := e.Recv(c, unsafe.Pointer(&v), 4, 0, tag)
				ok = ok && v == i && st.Tag == tag
			}
		}
		e.Recv(c, nil, 0, 0, 99)
	})
	require.True(t, ok)
	require.GreaterOrEqual(t, f.engines[1].Counters.Unexpected, uint64(k))
}

func TestSynchronousSendWaitsForMatch(t *testing.T) {
	for _, n := range []int{8, 100000} {
		f := newFakeNet(2, false)
		r := 0
		f.run(func(e *Engine, c *Comm) {
			req := e.Isend(c, ptr(pattern(n, 1)), n, 1, 3, ModeSync)
			for i := 0; i < 100; i++ {
				e.Progress()
			}
			require.False(t, req.Done(), "ssend completed before the receive was posted")
			e.Send(c, nil, 0, 1, 4, ModeStandard)
			e.Wait(req)
		}, func(e *Engine, c *Comm) {
			e.Recv(c, nil, 0, 0, 4)
			buf := make([]byte, n)
			e.Recv(c, ptr(buf), n, 0, 3)
			r = 1
		})
		require.Equal(t, 1, r)
	}
}

func TestTruncation(t *testing.T) {
	for _, n := range []int{100, 50000} {
		for _, get := range []bool{true, false} {
			f := newFakeNet(2, get)
			msg := pattern(n, 5)
			got := make([]byte, n/2)
			var st Status
			f.run(func(e *Engine, c *Comm) {
				e.Send(c, ptr(msg), n, 1, 1, ModeStandard)
			}, func(e *Engine, c *Comm) {
				st = e.Recv(c, ptr(got), n/2, 0, 1)
			})
			require.Equal(t, abi.ErrTruncate, st.Err)
			require.Equal(t, n/2, st.Count)
			require.Equal(t, msg[:n/2], got)
		}
	}
}

func TestProbeMprobeCancel(t *testing.T) {
	f := newFakeNet(2, false)
	f.run(func(e *Engine, c *Comm) {
		v := int32(42)
		e.Send(c, unsafe.Pointer(&v), 4, 1, 6, ModeStandard)
		e.Send(c, ptr(pattern(20000, 1)), 20000, 1, 7, ModeStandard)
	}, func(e *Engine, c *Comm) {
		st := e.Probe(c, AnySource, 6)
		require.Equal(t, Status{Source: 0, Tag: 6, Count: 4}, st)
		m, st2 := e.Mprobe(c, 0, AnyTag)
		require.Equal(t, 6, st2.Tag)
		// A posted receive cannot take the probed message any more.
		other := e.Irecv(c, nil, 0, 0, 6)
		require.True(t, e.CancelRecv(other))
		require.True(t, other.Status.Cancelled)
		var v int32
		r := e.Imrecv(c, m, unsafe.Pointer(&v), 4)
		e.Wait(r)
		require.Equal(t, int32(42), v)
		m2, st3 := e.Mprobe(c, 0, 7)
		require.Equal(t, 20000, st3.Count)
		buf := make([]byte, 20000)
		r2 := e.Imrecv(c, m2, ptr(buf), 20000)
		e.Wait(r2)
		require.Equal(t, pattern(20000, 1), buf)
	})
}

func TestFullTransportQueuesAndRetries(t *testing.T) {
	f := newFakeNet(2, false)
	f.room = 2
	const k = 200
	sum := 0
	f.run(func(e *Engine, c *Comm) {
		var reqs []*Request
		for i := 0; i < k; i++ {
			if r := e.Isend(c, ptr(pattern(3000, i)), 3000, 1, 1, ModeStandard); r != nil {
				reqs = append(reqs, r)
			}
		}
		for _, r := range reqs {
			e.Wait(r)
		}
	}, func(e *Engine, c *Comm) {
		for i := 0; i < k; i++ {
			buf := make([]byte, 3000)
			e.Recv(c, ptr(buf), 3000, 0, 1)
			if string(buf) == string(pattern(3000, i)) {
				sum++
			}
		}
	})
	require.Equal(t, k, sum)
}

func TestEagerPathAllocatesNothing(t *testing.T) {
	// The real self transport: a ring in private memory, no per-message allocation.
	e := New(Config{Me: 0, WorldSize: 1})
	e.AddTransport(self.New(0, 1<<16, e.Handler()), []int{0})
	c := NewComm(0, 0, []int{0})
	e.Register(c)
	sbuf, rbuf := make([]byte, 64), make([]byte, 64)
	// Warm up the free lists.
	for i := 0; i < 10; i++ {
		e.Send(c, ptr(sbuf), 64, 0, 1, ModeStandard)
		e.Recv(c, ptr(rbuf), 64, 0, 1)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		r := e.Irecv(c, ptr(rbuf), 64, 0, 1)
		e.Send(c, ptr(sbuf), 64, 0, 1, ModeStandard)
		e.Wait(r)
		e.Release(r)
	})
	require.Zero(t, allocs)
}

func TestCancelUnmatchedSend(t *testing.T) {
	for _, n := range []int{4, 100000} {
		f := newFakeNet(2, false)
		var cancelled bool
		f.run(func(e *Engine, c *Comm) {
			r := e.Isend(c, ptr(pattern(n, 2)), n, 1, 80, ModeSync)
			e.CancelSend(r)
			e.Wait(r)
			cancelled = r.Status.Cancelled
			e.Send(c, nil, 0, 1, 81, ModeStandard)
		}, func(e *Engine, c *Comm) {
			e.Recv(c, nil, 0, 0, 81)
			_, ok := e.Iprobe(c, 0, 80)
			require.False(t, ok, "a withdrawn message is still there")
		})
		require.True(t, cancelled)
	}
}

// TestSplitSingleCopy: from SplitMin on, the receiver reads the first half
// and the sender writes the second; truncated receives, odd sizes and a
// refused write (the receiver reads the rest itself) all deliver the data,
// and the send completes only once nothing reads its buffer any more.
func TestSplitSingleCopy(t *testing.T) {
	for _, refuse := range []bool{false, true} {
		for _, c := range []struct{ n, room int }{{8192, 8192}, {10001, 10001}, {1 << 20, 1 << 20}, {50000, 30000}} {
			t.Run(fmt.Sprintf("refuse=%v/n=%d/room=%d", refuse, c.n, c.room), func(t *testing.T) {
				f := newFakeNet(2, true)
				f.refusePut = refuse
				for _, e := range f.engines {
					e.cfg.SplitMin = 8192
				}
				msg := pattern(c.n, 5)
				want := append([]byte(nil), msg...)
				got := make([]byte, c.room)
				var st Status
				f.run(func(e *Engine, cm *Comm) {
					e.Send(cm, ptr(msg), c.n, 1, 4, ModeSync)
					clear(msg) // the send completed: the buffer is the sender's again
				}, func(e *Engine, cm *Comm) {
					st = e.Recv(cm, ptr(got), c.room, 0, 4)
				})
				k := min(c.n, c.room)
				require.Equal(t, want[:k], got[:k])
				require.Equal(t, k, st.Count)
				if c.room < c.n {
					require.Equal(t, abi.ErrTruncate, st.Err)
				} else {
					require.Zero(t, st.Err)
				}
			})
		}
	}
}

// TestSplitDeclinedUpFront: a sender with a receive posted from its peer
// (an exchange) flags its rendezvous busy, and the receiver reads the whole
// message itself instead of asking that sender to write half and waiting
// for the refusal; a sender not receiving is still asked.
func TestSplitDeclinedUpFront(t *testing.T) {
	for _, exchange := range []bool{false, true} {
		f := newFakeNet(2, true)
		for _, e := range f.engines {
			e.cfg.SplitMin = 8192
		}
		const n = 1 << 16
		out := [2][]byte{pattern(n, 1), pattern(n, 2)}
		in := [2][]byte{make([]byte, n), make([]byte, n)}
		side := func(me int) func(e *Engine, c *Comm) {
			return func(e *Engine, c *Comm) {
				if !exchange {
					if me == 0 {
						e.Send(c, ptr(out[0]), n, 1, 3, ModeStandard)
					} else {
						e.Recv(c, ptr(in[1]), n, 0, 3)
					}
					return
				}
				r := e.Irecv(c, ptr(in[me]), n, 1-me, 3)
				e.Send(c, ptr(out[me]), n, 1-me, 3, ModeStandard)
				e.Wait(r)
			}
		}
		f.run(side(0), side(1))
		if exchange {
			require.Equal(t, out[1], in[0])
			require.Equal(t, out[0], in[1])
			require.Zero(t, f.puts.Load(), "a busy sender was asked to write")
		} else {
			require.Equal(t, out[0], in[1])
			require.Equal(t, int32(1), f.puts.Load())
		}
	}
}

// TestSplitNotAskedOfReader: ranks that both send first and receive after
// (a bidirectional window) are each reading the other's sends, so neither
// asks the other for a split part below busySplitMin; from it they do.
func TestSplitNotAskedOfReader(t *testing.T) {
	for _, n := range []int{1 << 16, busySplitMin} {
		f := newFakeNet(2, true)
		for _, e := range f.engines {
			e.cfg.SplitMin = 8192
		}
		out := [2][]byte{pattern(n, 1), pattern(n, 2)}
		in := [2][]byte{make([]byte, n), make([]byte, n)}
		side := func(me int) func(e *Engine, c *Comm) {
			return func(e *Engine, c *Comm) {
				s := e.Isend(c, ptr(out[me]), n, 1-me, 3, ModeStandard)
				e.Wait(e.Irecv(c, ptr(in[me]), n, 1-me, 3))
				e.Wait(s)
			}
		}
		f.run(side(0), side(1))
		require.Equal(t, out[1], in[0])
		require.Equal(t, out[0], in[1])
		asked := f.engines[0].Counters.SplitAsked + f.engines[1].Counters.SplitAsked
		if n < busySplitMin {
			require.Zero(t, asked, "n=%d", n)
		} else {
			require.NotZero(t, asked, "n=%d", n)
		}
	}
}
