package osc

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Segment is a window's shared memory: a memfd mapped in every member.
type Segment struct {
	Base unsafe.Pointer
	Size int
	FD   int // the creator's descriptor until CloseFD; -1 after, or in others
}

const pageSize = 4096

func roundUp(n, a int) int { return (n + a - 1) / a * a }

// CreateSegment makes a segment of size bytes. The space is reserved now
// (fallocate) so a full /dev/shm-less memory limit fails here, not as a
// SIGBUS at the first store.
func CreateSegment(size int) (*Segment, error) {
	size = max(roundUp(size, pageSize), pageSize)
	fd, err := unix.MemfdCreate("gompi-win", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("memfd_create: %v", err)
	}
	if err := unix.Fallocate(fd, 0, 0, int64(size)); err != nil {
		if err != unix.EOPNOTSUPP {
			unix.Close(fd)
			return nil, fmt.Errorf("cannot reserve %d bytes of shared memory: %v", size, err)
		}
		if err := unix.Ftruncate(fd, int64(size)); err != nil {
			unix.Close(fd)
			return nil, fmt.Errorf("ftruncate %d bytes: %v", size, err)
		}
	}
	p, err := unix.MmapPtr(fd, 0, nil, uintptr(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("mmap %d bytes: %v", size, err)
	}
	return &Segment{Base: p, Size: size, FD: fd}, nil
}

// OpenSegment maps the segment that process pid holds as descriptor fd.
func OpenSegment(pid, fd, size int) (*Segment, error) {
	size = max(roundUp(size, pageSize), pageSize)
	f, err := unix.Open(fmt.Sprintf("/proc/%d/fd/%d", pid, fd), unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot open the window segment of process %d: %v", pid, err)
	}
	defer unix.Close(f)
	p, err := unix.MmapPtr(f, 0, nil, uintptr(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mmap the window segment: %v", err)
	}
	return &Segment{Base: p, Size: size, FD: -1}, nil
}

// CloseFD drops the creator's descriptor once every member has mapped the
// segment: from then on nothing names it and it goes with the last mapping.
func (s *Segment) CloseFD() {
	if s.FD >= 0 {
		unix.Close(s.FD)
		s.FD = -1
	}
}

// Unmap releases the mapping (and the descriptor if still open).
func (s *Segment) Unmap() {
	s.CloseFD()
	if s.Base != nil {
		unix.MunmapPtr(s.Base, uintptr(s.Size))
		s.Base = nil
	}
}
