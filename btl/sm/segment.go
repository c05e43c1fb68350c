package sm

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"

	"gompi/btl/shmring"
	"gompi/shmcoll"
)

// Segment layout: a header page, one control block per local process, one
// ring per (receiver, sender) pair, then the collective areas (shmcoll).
const (
	segMagic     = 0x676f6d7069736d31 // "gompism1"
	headerSize   = 4096
	ctlBlockSize = 256
	// CollAreas is how many communicators of a process can use shared-memory
	// collectives at once; CollSlot the largest contribution per process.
	CollAreas = 16
	CollSlot  = 4096
	// CollBig is the big slot of area 0 (MPI_COMM_WORLD's): contributions
	// up to 64 KiB go through shared memory there, which pays when ranks
	// outnumber cores (no rendezvous waiting for each peer to be scheduled).
	// Only one area has them: the segment grows by 512 KiB per process.
	CollBig = 64 << 10
)

type segHeader struct {
	magic    uint64
	nlocal   uint32
	ringSize uint32
	attached uint32
	collBig  uint32 // area 0's big slot size, 0 when the segment had no room for them
}

type ctlBlock struct {
	sleeping uint32
	_        [60]byte
	doorbell uint32
	_        [60]byte
	pid      int32
	ready    uint32
	probe    uint64 // address of a word with probeValue, for the single-copy probe
	heapFD   int32  // the shared heap (heap.go); size 0 when there is none
	heapBase uint64
	heapSize uint64
}

const probeValue = 0x5ca1ab1e0ddba11

// segment is the mapped shared-memory file of one node.
type segment struct {
	mem      []byte
	fd       int // kept open so processes of other jobs can map our bell (pair.go)
	nlocal   int
	ringSize int
	bigSlot  int
}

func segmentSize(nlocal, ringSize, collBig int) int {
	return bigOffset(nlocal, ringSize) + shmcoll.BigSize(nlocal, collBig)
}

// collBigFor is area 0's big slot size on a node of nlocal processes: none
// past shmcoll.MaxGroup, where MPI_COMM_WORLD takes no shared-memory
// collectives.
func collBigFor(nlocal int) int {
	if nlocal > shmcoll.MaxGroup {
		return 0
	}
	return CollBig
}

func bigOffset(nlocal, ringSize int) int {
	return collOffset(nlocal, ringSize) + CollAreas*shmcoll.AreaSize(nlocal, CollSlot)
}

func collOffset(nlocal, ringSize int) int {
	return headerSize + nlocal*ctlBlockSize + nlocal*nlocal*shmring.Size(ringSize)
}

// collArea returns the memory of collective area i.
func (s *segment) collArea(i int) unsafe.Pointer {
	return unsafe.Pointer(&s.mem[collOffset(s.nlocal, s.ringSize)+i*shmcoll.AreaSize(s.nlocal, CollSlot)])
}

// collBig returns the memory of area 0's big slots.
func (s *segment) collBig() unsafe.Pointer {
	return unsafe.Pointer(&s.mem[bigOffset(s.nlocal, s.ringSize)])
}

// The segment is a file without a name, so that no kill at any moment can
// leave one behind: a memfd, or an O_TMPFILE file in GOMPI_SM_DIR (a tmpfs
// such as /dev/shm, whose size then bounds it). The leader creates it and
// the others open it through /proc/<leader>/fd/<fd> (Locator).
//
// Its pages are allocated at creation (fallocate), so a shortage is an error
// there instead of a SIGBUS at first touch; short of room, the leader
// degrades the layout (smaller rings, then no big collective slots) before
// it gives up naming the size it needs.

// MinRingSize is the smallest ring a degraded segment gets.
const MinRingSize = 64 << 10

// layout is the part of a segment's shape the leader may degrade.
type layout struct{ ring, big int }

// degrade is the next smaller layout, false when there is none: rings down to
// 256 KiB first, then the big slots, then rings down to MinRingSize.
func (l layout) degrade() (layout, bool) {
	switch {
	case l.ring > 256<<10:
		l.ring /= 2
	case l.big > 0:
		l.big = 0
	case l.ring > MinRingSize:
		l.ring /= 2
	default:
		return l, false
	}
	return l, true
}

// newSegmentFile makes the nameless file: a memfd when dir is "", else an
// O_TMPFILE file in dir.
func newSegmentFile(dir string) (int, error) {
	if dir == "" {
		fd, err := unix.MemfdCreate("gompi-sm", unix.MFD_CLOEXEC)
		if err != nil {
			return -1, fmt.Errorf("sm: memfd_create: %w", err)
		}
		return fd, nil
	}
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return -1, fmt.Errorf("sm: unnamed file in %s (GOMPI_SM_DIR): %w", dir, err)
	}
	return fd, nil
}

// noRoom tells whether err is a shortage of memory or space.
func noRoom(err error) bool {
	return errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.ENOMEM) || errors.Is(err, unix.EFBIG)
}

// createSegment makes the node's segment with the largest layout that fits,
// starting from want; only the node leader calls it. It returns the
// descriptor and the layout.
func createSegment(dir string, nlocal int, want layout) (int, layout, error) {
	fd, err := newSegmentFile(dir)
	if err != nil {
		return -1, want, err
	}
	l := want
	for {
		size := segmentSize(nlocal, l.ring, l.big)
		err = fallocate(fd, int64(size))
		if err == nil {
			break
		}
		smaller, ok := l.degrade()
		if !noRoom(err) || !ok {
			unix.Close(fd)
			if noRoom(err) {
				return -1, l, shortage(dir, nlocal, size, err)
			}
			return -1, l, fmt.Errorf("sm: allocating the %s shared-memory segment: %w", mib(size), err)
		}
		l = smaller
	}
	mem, err := unix.Mmap(fd, 0, headerSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		unix.Close(fd)
		return -1, l, fmt.Errorf("sm: map segment: %w", err)
	}
	h := (*segHeader)(unsafe.Pointer(&mem[0]))
	h.nlocal = uint32(nlocal)
	h.ringSize = uint32(l.ring)
	h.collBig = uint32(l.big)
	atomic.StoreUint64(&h.magic, segMagic)
	unix.Munmap(mem)
	return fd, l, nil
}

// fallocate gives fd size bytes of allocated pages, retrying interruptions
// (a large tmpfs allocation is interruptible).
func fallocate(fd int, size int64) error {
	for {
		err := unix.Fallocate(fd, 0, 0, size)
		if err != unix.EINTR {
			return err
		}
	}
}

func mib(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// shortage is the error when even the smallest layout does not fit: the
// size needed and how to get it.
func shortage(dir string, nlocal, size int, err error) error {
	if dir == "" {
		return fmt.Errorf("sm: %d processes on this node need %s of shared memory for their segment, "+
			"and the system refused it (%v); raise this container's or cgroup's memory limit, or start fewer processes per node",
			nlocal, mib(size), err)
	}
	free := ""
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) == nil {
		free = fmt.Sprintf(" (%s free)", mib(int(st.Bavail)*int(st.Bsize)))
	}
	return fmt.Errorf("sm: %d processes on this node need %s in %s%s for their shared-memory segment (%v); "+
		"make %s larger (docker run --shm-size=%dm, or mount -o remount,size=%dm %s), "+
		"or unset GOMPI_SM_DIR to use anonymous shared memory (memfd)",
		nlocal, mib(size), dir, free, err, dir, size>>20+64, size>>20+64, dir)
}

// Locator is how the other processes find the leader's segment.
func Locator(pid, fd int) string { return fmt.Sprintf("%d:%d", pid, fd) }

// attachSegment maps the segment the leader published as loc.
func attachSegment(loc string, nlocal int) (*segment, error) {
	var pid, fd int
	if _, err := fmt.Sscanf(loc, "%d:%d", &pid, &fd); err != nil {
		return nil, fmt.Errorf("sm: bad segment locator %q", loc)
	}
	path := fmt.Sprintf("/proc/%d/fd/%d", pid, fd)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("sm: open the node leader's segment %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	mem, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("sm: map %s: %w", path, err)
	}
	h := (*segHeader)(unsafe.Pointer(&mem[0]))
	if atomic.LoadUint64(&h.magic) != segMagic || int(h.nlocal) != nlocal ||
		segmentSize(nlocal, int(h.ringSize), int(h.collBig)) > len(mem) {
		unix.Munmap(mem)
		return nil, fmt.Errorf("sm: %s is not this job's segment", path)
	}
	// Fault every page in now: a ring's first lap would otherwise take a
	// page fault every 85 small messages (a 2-5 us stall, the whole p99 of
	// a short ping-pong). Kernels before 5.14 refuse; then pages fault lazily.
	unix.Madvise(mem, unix.MADV_POPULATE_WRITE)
	atomic.AddUint32(&h.attached, 1)
	keep, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		keep = -1 // pairs with other jobs then ring a bell of their own
	}
	return &segment{mem: mem, fd: keep, nlocal: nlocal, ringSize: int(h.ringSize), bigSlot: int(h.collBig)}, nil
}

func (s *segment) ctl(local int) *ctlBlock {
	return (*ctlBlock)(unsafe.Pointer(&s.mem[headerSize+local*ctlBlockSize]))
}

// ring returns the memory of the ring carrying sender -> receiver.
func (s *segment) ring(receiver, sender int) unsafe.Pointer {
	off := headerSize + s.nlocal*ctlBlockSize + (receiver*s.nlocal+sender)*shmring.Size(s.ringSize)
	return unsafe.Pointer(&s.mem[off])
}

func (s *segment) unmap() error {
	if s.mem == nil {
		return nil
	}
	err := unix.Munmap(s.mem)
	s.mem = nil
	if s.fd >= 0 {
		unix.Close(s.fd)
		s.fd = -1
	}
	return err
}
