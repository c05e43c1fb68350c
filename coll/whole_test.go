package coll

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func wholeFlags(s *Schedule) (whole, plain int) {
	for _, st := range s.steps {
		if st.kind == stRecv {
			if st.whole {
				whole++
			} else {
				plain++
			}
		}
	}
	return
}

// Receives a reduce of the same round works on are read whole by this
// process; plain data movement is not.
func TestWholeReceives(t *testing.T) {
	buf := make([]float32, 1024)
	out := make([]float32, 1024)
	sum := func(in, inout unsafe.Pointer, n int) {}
	d := Data{Sbuf: unsafe.Pointer(&buf[0]), Rbuf: unsafe.Pointer(&out[0]), Count: 1024, Ext: 4, Fn: sum, Commute: true}
	w, p := wholeFlags(Reduce(2, 0, 0, d, ReduceBinomial))
	require.Equal(t, 1, w)
	require.Equal(t, 0, p)
	w, p = wholeFlags(Bcast(2, 1, 0, unsafe.Pointer(&buf[0]), 4096, BcastBinomial, 0))
	require.Equal(t, 0, w)
	require.Equal(t, 1, p)
}
