package pml

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// Receives held outside the engine are adopted before the engine matches:
// before a later receive is posted and before progress reads a transport.
func TestForeignReceivesAdoptedFirst(t *testing.T) {
	f := newFakeNet(2, false)
	var held, wild, later int32
	var adoptions int
	f.run(func(e *Engine, c *Comm) {
		count := int32(1)
		var adopted *Request
		e.SetForeign(&count, func() {
			count = 0
			adoptions++
			adopted = e.Irecv(c, unsafe.Pointer(&held), 4, 1, 5)
		})
		w := e.Irecv(c, unsafe.Pointer(&wild), 4, AnySource, 5) // adopts the held receive first
		require.Equal(t, 1, adoptions)
		e.Send(c, nil, 0, 1, 100, ModeStandard)
		e.Wait(adopted)
		e.Wait(w)
		count = 1 // held again: progress must adopt before it reads the transport
		e.Send(c, nil, 0, 1, 101, ModeStandard)
		for adoptions < 2 {
			e.Progress()
		}
		e.Wait(adopted)
		r := e.Irecv(c, unsafe.Pointer(&later), 4, 1, 5)
		e.Wait(r)
	}, func(e *Engine, c *Comm) {
		e.Recv(c, nil, 0, 0, 100)
		for _, v := range []int32{1, 2} {
			e.Send(c, unsafe.Pointer(&v), 4, 0, 5, ModeStandard)
		}
		e.Recv(c, nil, 0, 0, 101)
		for _, v := range []int32{3, 4} {
			e.Send(c, unsafe.Pointer(&v), 4, 0, 5, ModeStandard)
		}
	})
	require.Equal(t, int32(3), held)
	require.Equal(t, int32(2), wild)
	require.Equal(t, int32(4), later)
	require.Equal(t, 2, adoptions)
}
