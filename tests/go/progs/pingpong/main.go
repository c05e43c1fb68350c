// Command pingpong bounces messages of 0 bytes to 8 MiB between rank 0 and
// each other rank in turn (with itself when alone): the partner checks what
// arrived and answers with every byte complemented, which rank 0 checks.
// Sizes straddle the eager limit and the single-copy crossover.
package main

import (
	"fmt"

	"gompi/mpi"
	"gompi/tests/go/progs/check"
)

var sizes = []int{0, 1, 7, 64, 1000, 4096, 16383, 16384, 16385, 32 << 10, 65537, 256 << 10, 1 << 20, 3<<20 + 5, 8 << 20}

func pattern(size, peer, i int) byte { return byte(i*31 + size + peer*7) }

func main() {
	c := check.Init()
	me, n := c.Rank(), c.Size()
	buf, back := make([]byte, 8<<20), make([]byte, 8<<20)
	for peer := 1; peer < max(n, 2); peer++ {
		partner := peer
		if n == 1 {
			partner = 0
		}
		for _, size := range sizes {
			msg := buf[:size]
			tag := size % 1000
			switch {
			case me == 0:
				for i := range msg {
					msg[i] = pattern(size, partner, i)
				}
				ping, err := mpi.IsendSlice(c, msg, partner, tag)
				check.NoErr(err, "Isend")
				reply := back[:size]
				st, err := mpi.RecvSlice(c, reply, partner, tag)
				check.NoErr(err, "Recv")
				_, err = c.Wait(ping)
				check.NoErr(err, "Wait")
				check.True(st.Count == size && st.Source == partner, "reply of %d bytes from %d: count %d source %d", size, partner, st.Count, st.Source)
				want := ^byte(0)
				if partner == 0 {
					want = 0 // our own message, not complemented
				}
				for i, v := range reply {
					if v != pattern(size, partner, i)^want {
						check.Fail("reply of %d bytes from rank %d wrong at byte %d", size, partner, i)
					}
				}
			case me == partner:
				st, err := mpi.RecvSlice(c, msg, 0, tag)
				check.NoErr(err, "Recv")
				check.True(st.Count == size && st.Source == 0 && st.Tag == tag, "ping of %d bytes: count %d source %d tag %d", size, st.Count, st.Source, st.Tag)
				for i, v := range msg {
					if v != pattern(size, me, i) {
						check.Fail("ping of %d bytes wrong at byte %d", size, i)
					}
					msg[i] = ^v
				}
				check.NoErr(mpi.SendSlice(c, msg, 0, tag), "Send")
			}
		}
		c.Barrier()
	}
	// Which rendezvous protocol carried the messages this rank received.
	cnt := mpi.Engine().Counters
	fmt.Printf("received rank=%d get=%d pipe=%d\n", me, cnt.RndvGet, cnt.RndvPipe)
	check.Done(c, "pingpong")
}
