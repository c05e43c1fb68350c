package sm

import (
	"os"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// A peer's shared heap is reached through /proc/<pid>/fd/<fd>; this process
// plays the peer with a memfd of its own, mapped where "its" heap would be.
func TestPeerHeapCopiesInsideTheRangeOnly(t *testing.T) {
	const size = 1 << 20
	fd, err := unix.MemfdCreate("gompi-heap-test", unix.MFD_CLOEXEC)
	require.NoError(t, err)
	defer unix.Close(fd)
	require.NoError(t, unix.Ftruncate(fd, size))
	own, err := unix.Mmap(fd, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	require.NoError(t, err)
	defer unix.Munmap(own)
	base := uintptr(unsafe.Pointer(&own[0]))
	for i := range own {
		own[i] = byte(i * 7)
	}

	h := peerHeap{pid: os.Getpid(), heapRange: heapRange{fd: fd, base: base, size: size}}
	defer h.unmap()
	dst := make([]byte, 4096)
	require.True(t, h.copyFrom(unsafe.Pointer(&dst[0]), base+100, len(dst)))
	require.Equal(t, own[100:100+len(dst)], dst)

	src := []byte("written through the peer's mapping")
	require.True(t, h.copyTo(base+size-uintptr(len(src)), unsafe.Pointer(&src[0]), len(src)))
	require.Equal(t, src, own[size-len(src):])

	// Outside the range, or running past its end: the caller falls back.
	require.False(t, h.copyFrom(unsafe.Pointer(&dst[0]), base-1, 1))
	require.False(t, h.copyFrom(unsafe.Pointer(&dst[0]), base+size-10, 11))
	require.False(t, h.copyFrom(unsafe.Pointer(&dst[0]), base+size, 1))

	// A heap that cannot be mapped is tried once, then left to the fallback.
	bad := peerHeap{pid: os.Getpid(), heapRange: heapRange{fd: 1 << 20, base: base, size: size}}
	require.False(t, bad.copyFrom(unsafe.Pointer(&dst[0]), base, 1))
	require.True(t, bad.failed)
}

func TestSharedBufferNeedsOurHeapAndAProbedPeer(t *testing.T) {
	saved := localHeap
	defer func() { localHeap = saved }()
	buf := make([]byte, 8192)
	base := uintptr(unsafe.Pointer(&buf[0]))
	m := &Module{local: []int{0, 1}, canGet: []bool{false, true}, cfg: Config{SharedGetMin: 32 << 10}}

	localHeap = heapRange{}
	require.Zero(t, m.SharedFrom(), "no heap, no shared reads")
	require.False(t, m.SharedBuffer(1, unsafe.Pointer(&buf[0]), 10))

	SetSharedHeap(3, base, 4096)
	require.Equal(t, 32<<10, m.SharedFrom())
	require.True(t, m.SharedBuffer(1, unsafe.Pointer(&buf[0]), 4096))
	require.False(t, m.SharedBuffer(1, unsafe.Pointer(&buf[1]), 4096), "runs past the heap")
	require.False(t, m.SharedBuffer(1, unsafe.Pointer(&buf[4096]), 1), "after the heap")
	require.False(t, m.SharedBuffer(0, unsafe.Pointer(&buf[0]), 10), "peer failed the probe")
}

func TestNodeSharesHeapsOnlyWhenEveryProcessHasOne(t *testing.T) {
	ctl := []ctlBlock{{heapSize: 1 << 30}, {heapSize: 1 << 30}, {}}
	m := &Module{peerCtl: []*ctlBlock{&ctl[0], &ctl[1]}}
	require.True(t, m.NodeSharesHeaps())
	m.peerCtl = append(m.peerCtl, &ctl[2])
	require.False(t, m.NodeSharesHeaps())
}
