package shmring

import (
	"encoding/binary"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func newRing(t *testing.T, size int) (*Producer, *Consumer) {
	mem := make([]uint64, Size(size)/8)
	return Attach(unsafe.Pointer(&mem[0]), size, nil, nil)
}

func TestRingOrderAndWrap(t *testing.T) {
	p, c := newRing(t, 1024)
	const total = 20000
	done := make(chan error)
	go func() {
		for i := 0; i < total; {
			n := 4 + i%200
			b := p.Reserve(n)
			if b == nil {
				continue
			}
			body := unsafe.Slice((*byte)(b), n)
			binary.LittleEndian.PutUint32(body, uint32(i))
			for j := 4; j < n; j++ {
				body[j] = byte(i + j)
			}
			p.Commit(n, uint8(i))
			i++
		}
		done <- nil
	}()
	for i := 0; i < total; {
		b, n, tag, ok := c.Peek()
		if !ok {
			continue
		}
		body := unsafe.Slice((*byte)(b), n)
		require.Equal(t, 4+i%200, n)
		require.Equal(t, uint8(i), tag)
		require.Equal(t, uint32(i), binary.LittleEndian.Uint32(body))
		for j := 4; j < n; j++ {
			require.Equal(t, byte(i+j), body[j])
		}
		c.Release(n)
		i++
	}
	<-done
	require.True(t, p.Empty())
}

func TestRingFull(t *testing.T) {
	p, c := newRing(t, 256)
	k := 0
	for p.Reserve(40) != nil {
		p.Commit(40, 1)
		k++
	}
	require.Greater(t, k, 2)
	for i := 0; i < k; i++ {
		_, n, _, ok := c.Peek()
		require.True(t, ok)
		c.Release(n)
	}
	_, _, _, ok := c.Peek()
	require.False(t, ok)
	require.NotNil(t, p.Reserve(40))
}

func TestCopyVerdict(t *testing.T) {
	p, _ := newRing(t, 1024)
	require.False(t, p.SlowCopies())
	p.NoteCopy(true)
	require.False(t, p.SlowCopies(), "one slow copy may be a preemption")
	p.NoteCopy(false)
	p.NoteCopy(true)
	require.False(t, p.SlowCopies(), "a fast copy restarts the run")
	p.NoteCopy(true)
	require.True(t, p.SlowCopies())
	p.NoteCopy(true)
	require.True(t, p.SlowCopies())
	p.NoteCopy(false)
	require.False(t, p.SlowCopies())
	require.Equal(t, uint32(0), *(*uint32)(unsafe.Add(unsafe.Pointer(p.SlowWord()), 4)))
}
