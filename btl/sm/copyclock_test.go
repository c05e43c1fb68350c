package sm

import (
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"gompi/btl/shmring"
)

func TestCopyClock(t *testing.T) {
	require.Equal(t, copyClock{}, newCopyClock(0), "0 turns the verdict off")
	k := newCopyClock(16 << 10)
	require.Equal(t, 16<<10, k.from)
	require.Positive(t, k.picos)
	k.picos = 100 // 10 GB/s
	require.False(t, k.slow(1600*time.Nanosecond, 16<<10), "within the allowance")
	require.True(t, k.slow(6500*time.Nanosecond, 16<<10))

	mem := make([]uint64, shmring.Size(1024)/8)
	p, _ := shmring.Attach(unsafe.Pointer(&mem[0]), 1024, nil, nil)
	timed := 0
	for range 16 {
		if k.sample(p) {
			timed++
		}
	}
	require.Equal(t, 4, timed, "one copy in four while fast")
	p.NoteCopy(true)
	p.NoteCopy(true)
	for range 4 {
		require.True(t, k.sample(p), "every copy while slow")
	}
}
