package sm

import (
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
}

// ctlBlock is one process's shared control block. sleeping and doorbell sit on
// their own cache lines so senders read them without disturbing the owner.
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
	nlocal   int
	ringSize int
}

// SegmentName is the /dev/shm file for a job's node, named after its leader rank
// so every local process derives it without an exchange.
func SegmentName(jobID string, leader int) string {
	return fmt.Sprintf("/dev/shm/gompi-%s-sm-%d", jobID, leader)
}

func segmentSize(nlocal, ringSize int) int {
	return bigOffset(nlocal, ringSize) + shmcoll.BigSize(nlocal, collBigFor(nlocal))
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

// createSegment makes and sizes the file; only the node leader calls it.
func createSegment(path string, nlocal, ringSize int) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("sm: create %s: %w", path, err)
	}
	defer f.Close()
	size := segmentSize(nlocal, ringSize)
	if err := f.Truncate(int64(size)); err != nil {
		os.Remove(path)
		return fmt.Errorf("sm: size %s: %w", path, err)
	}
	mem, err := unix.Mmap(int(f.Fd()), 0, headerSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("sm: map %s: %w", path, err)
	}
	h := (*segHeader)(unsafe.Pointer(&mem[0]))
	h.nlocal = uint32(nlocal)
	h.ringSize = uint32(ringSize)
	atomic.StoreUint64(&h.magic, segMagic)
	return unix.Munmap(mem)
}

// attachSegment maps the file; the last process to attach unlinks it, so no
// file outlives the job even if a process dies later.
func attachSegment(path string, nlocal int) (*segment, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("sm: open %s: %w", path, err)
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
	if atomic.LoadUint64(&h.magic) != segMagic || int(h.nlocal) != nlocal {
		unix.Munmap(mem)
		return nil, fmt.Errorf("sm: %s is not this job's segment", path)
	}
	// Fault every page in now: a ring's first lap would otherwise take a
	// page fault every 85 small messages (a 2-5 us stall, the whole p99 of
	// a short ping-pong). Kernels before 5.14 refuse; then pages fault lazily.
	unix.Madvise(mem, unix.MADV_POPULATE_WRITE)
	s := &segment{mem: mem, nlocal: nlocal, ringSize: int(h.ringSize)}
	if int(atomic.AddUint32(&h.attached, 1)) == nlocal {
		os.Remove(path)
	}
	return s, nil
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
	return err
}
