package pml

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"gompi/abi"
)

// A partition readied early reaches the receiver while the others are not
// ready yet; sides partition differently; rounds restart with new data; a
// transport with little room makes runs and control messages queue.
func TestPartitionedMovesReadyPartitions(t *testing.T) {
	for _, room := range []int{0, 2} {
		for _, c := range []struct{ sp, sb, rp, rb int }{{4, 3000, 2, 6000}, {3, 100, 6, 50}, {8, 1, 8, 1}, {1, 10000, 5, 2000}} {
			t.Run(fmt.Sprintf("room=%d/%dx%d->%dx%d", room, c.sp, c.sb, c.rp, c.rb), func(t *testing.T) {
				f := newFakeNet(2, false)
				f.room = room
				total := c.sp * c.sb
				sbuf, rbuf := make([]byte, total), make([]byte, total)
				firstSeen := make(chan struct{})
				const rounds = 5
				f.run(func(e *Engine, cm *Comm) {
					r := e.PsendInit(cm, ptr(sbuf), c.sp, c.sb, 1, 7)
					rng := rand.New(rand.NewSource(1))
					for round := 0; round < rounds; round++ {
						copy(sbuf, pattern(total, round))
						e.StartPart(r)
						order := rng.Perm(c.sp)
						require.True(t, e.PartReady(r, order[0], order[0]))
						if round == 0 {
							// Only one partition is ready: it must get there.
						wait:
							for {
								select {
								case <-firstSeen:
									break wait
								default:
									e.Progress()
								}
							}
						}
						for _, p := range order[1:] {
							require.True(t, e.PartReady(r, p, p))
						}
						require.False(t, e.PartReady(r, order[0], order[0]), "readied twice")
						e.Wait(r)
					}
					require.Positive(t, e.Counters.PartRuns)
				}, func(e *Engine, cm *Comm) {
					r := e.PrecvInit(cm, ptr(rbuf), c.rp, c.rb, 0, 7)
					for round := 0; round < rounds; round++ {
						e.StartPart(r)
						if round == 0 {
							// Wait until some receive partition fully arrived
							// (the sender's first partition covers at least
							// one when it is the larger), or any byte did.
							for r.Part.got == 0 {
								e.Progress()
							}
							close(firstSeen)
						}
						e.Wait(r)
						require.Equal(t, pattern(total, round), rbuf, "round %d", round)
						require.Equal(t, total, r.Status.Count)
						for i := 0; i < c.rp; i++ {
							require.True(t, e.PartArrived(r, i))
						}
						r.Active = false // as mpi.Finish does
					}
				})
			})
		}
	}
}

// Init order decides matching: two sends with one tag go to the receives in
// the order the receives were made, whatever the order of the starts.
func TestPartitionedInitOrder(t *testing.T) {
	f := newFakeNet(2, false)
	a, b := pattern(64, 1), pattern(64, 2)
	ra, rb := make([]byte, 64), make([]byte, 64)
	f.run(func(e *Engine, c *Comm) {
		sa := e.PsendInit(c, ptr(a), 2, 32, 1, 3)
		sb := e.PsendInit(c, ptr(b), 4, 16, 1, 3)
		e.StartPart(sb)
		e.PartReady(sb, 0, 3)
		e.StartPart(sa)
		e.PartReady(sa, 0, 1)
		e.Wait(sb)
		e.Wait(sa)
	}, func(e *Engine, c *Comm) {
		r1 := e.PrecvInit(c, ptr(ra), 1, 64, 0, 3)
		r2 := e.PrecvInit(c, ptr(rb), 8, 8, 0, 3)
		e.StartPart(r2)
		e.StartPart(r1)
		e.Wait(r2)
		e.Wait(r1)
	})
	require.Equal(t, a, ra)
	require.Equal(t, b, rb)
}

// A sender larger than the receive truncates: the receiver gets what fits
// and MPI_ERR_TRUNCATE; a smaller one completes with its count.
func TestPartitionedSizes(t *testing.T) {
	for _, c := range []struct{ send, recv, count, err int }{{100, 60, 60, abi.ErrTruncate}, {60, 100, 60, 0}, {0, 10, 0, 0}} {
		f := newFakeNet(2, false)
		s, r := pattern(c.send, 5), make([]byte, c.recv+1)
		var st Status
		f.run(func(e *Engine, cm *Comm) {
			q := e.PsendInit(cm, ptr(s), 1, c.send, 1, 0)
			e.StartPart(q)
			e.PartReady(q, 0, 0)
			e.Wait(q)
		}, func(e *Engine, cm *Comm) {
			q := e.PrecvInit(cm, ptr(r), 1, c.recv, 0, 0)
			e.StartPart(q)
			e.Wait(q)
			st = q.Status
		})
		require.Equal(t, c.count, st.Count, "%+v", c)
		require.Equal(t, c.err, st.Err, "%+v", c)
		require.Equal(t, s[:c.count], r[:c.count])
		require.Zero(t, r[c.recv], "wrote past the receive")
	}
}

// The queue statistics follow posted and unexpected messages.
func TestQueueStats(t *testing.T) {
	f := newFakeNet(2, false)
	buf := make([]byte, 8)
	f.run(func(e *Engine, c *Comm) {
		for i := 0; i < 3; i++ {
			e.Send(c, ptr(buf), 8, 1, 1, ModeStandard)
		}
		e.Send(c, ptr(buf), 8, 1, 2, ModeSync)
	}, func(e *Engine, c *Comm) {
		r := e.Irecv(c, ptr(buf), 8, 0, 2) // posted; the three tag-1 messages pass it
		require.Equal(t, int64(1), e.Counters.Queues.Posted)
		e.Wait(r)
		require.Equal(t, int64(0), e.Counters.Queues.Posted)
		require.Equal(t, int64(3), e.Counters.Queues.Unexp)
		for i := 0; i < 3; i++ {
			e.Recv(c, ptr(buf), 8, 0, 1)
		}
		require.Equal(t, int64(0), e.Counters.Queues.Unexp)
		require.Equal(t, int64(3), e.Counters.Queues.UnexpPeak)
	})
}
