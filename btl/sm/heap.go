package sm

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"

	"gompi/mem"
)

// A process may keep its large allocations in a shared heap: one memfd
// mapped at a fixed range (libgompi's malloc does this for C programs).
// A peer that maps the same file reads a rendezvous buffer in that range
// with a plain memory copy, 3-4x faster here than process_vm_readv, which
// pins and copies page by page in the kernel.
var localHeap heapRange

type heapRange struct {
	fd         int
	base, size uintptr
}

// SetSharedHeap tells the transport that [base, base+size) of this process
// is file fd, mapped shared, before Open publishes it.
func SetSharedHeap(fd int, base, size uintptr) {
	localHeap = heapRange{fd: fd, base: base, size: size}
}

// SharedBuffer reports that peer can read [buf, buf+n) of ours with a plain
// copy: it lies in our shared heap and peer passed the single-copy probe.
func (m *Module) SharedBuffer(peer int, buf unsafe.Pointer, n int) bool {
	off := uintptr(buf) - localHeap.base
	return off < localHeap.size && uintptr(n) <= localHeap.size-off && m.canGet[m.local[peer]]
}

// SharedFrom is the smallest message to read from our shared heap, 0 when
// there is none.
func (m *Module) SharedFrom() int {
	if localHeap.size == 0 {
		return 0
	}
	return m.cfg.SharedGetMin
}

// NodeSharesHeaps reports that every process of the node published a
// shared heap: the same answer in all of them (it comes from the segment),
// so collectives may choose their algorithm by it.
func (m *Module) NodeSharesHeaps() bool {
	for _, c := range m.peerCtl {
		if c.heapSize == 0 {
			return false
		}
	}
	return true
}

// peerHeap is a peer's shared heap and, once a copy needed it, our mapping.
type peerHeap struct {
	heapRange
	pid    int
	mapped unsafe.Pointer
	failed bool
}

// at returns where the peer's [addr, addr+n) lies in our mapping, mapping
// the heap at first use, or nil when the range is outside it or it cannot
// be mapped (the caller then uses process_vm_readv/writev).
func (h *peerHeap) at(addr uintptr, n int) unsafe.Pointer {
	off := addr - h.base
	if off >= h.size || uintptr(n) > h.size-off {
		return nil
	}
	if h.mapped == nil {
		if h.failed || h.mapHeap() != nil {
			h.failed = true
			return nil
		}
	}
	return unsafe.Add(h.mapped, off)
}

func (h *peerHeap) mapHeap() error {
	fd, err := unix.Open(fmt.Sprintf("/proc/%d/fd/%d", h.pid, h.fd), unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	h.mapped, err = unix.MmapPtr(fd, 0, nil, h.size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		h.mapped = nil
	}
	return err
}

func (h *peerHeap) unmap() {
	if h.mapped != nil {
		unix.MunmapPtr(h.mapped, h.size)
		h.mapped = nil
	}
}

// copyFrom copies the peer's [addr, addr+n) to dst through its shared
// heap; false when the range is not there.
func (h *peerHeap) copyFrom(dst unsafe.Pointer, addr uintptr, n int) bool {
	src := h.at(addr, n)
	if src == nil {
		return false
	}
	mem.Copy(dst, src, n)
	return true
}

// copyTo is copyFrom's other direction.
func (h *peerHeap) copyTo(addr uintptr, src unsafe.Pointer, n int) bool {
	dst := h.at(addr, n)
	if dst == nil {
		return false
	}
	mem.Copy(dst, src, n)
	return true
}
