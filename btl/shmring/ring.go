// Package shmring is a single-producer single-consumer ring of variable-length
// records in memory that may be shared between processes.
//
// Each record starts with one 64-bit word written last with an atomic store:
// bits 0..31 the exact length of the body, 32..39 a tag, 40..47 the kind. The
// word at the producer's position is always zero, so the consumer never reads
// a stale record from an earlier lap: before publishing a record the producer
// zeroes the word that follows it. A record that does not fit before the end
// is preceded by a wrap marker. The consumer publishes its position on its own
// cache line, which the producer reads only when its cached copy says full.
// The header word and small payloads share a cache line, so a small message
// costs one line transfer.
package shmring

import (
	"sync/atomic"
	"unsafe"
)

const (
	kindData = 1
	kindWrap = 2
	// The record word: the kind from bit kindShift, the tag from bit
	// tagShift, the body length below it.
	kindShift = 40
	tagShift  = 32
	// HeaderSize is the per-record overhead before the body.
	HeaderSize = 8
	// CtlSize is the size of the shared control area in front of the data:
	// the consumer's position on one cache line, the producer's copy
	// verdict (see NoteCopy) on the next, which only the producer touches.
	CtlSize    = 128
	verdictOff = 64
	// slowAfter is how many slow copies in a row turn the verdict to slow:
	// one may be a preemption.
	slowAfter = 2
)

// Size returns the bytes of shared memory a ring with dataSize bytes of data needs.
func Size(dataSize int) int { return CtlSize + dataSize }

// State is the private position of one end of a ring. It may live outside the
// Go heap so that C code of the same process can drive the ring too (the
// library's C fast path): Pos is the producer's head or the consumer's
// position; Cached is the producer's last view of the consumer's position.
type State struct {
	Pos    uint64
	Cached uint64
}

// Producer is the sending side; its state is private to the sending process.
type Producer struct {
	tail *uint64 // consumer position, shared
	slow *uint32 // the verdict, then the run of slow copies behind it
	data unsafe.Pointer
	size uint64 // power of two
	st   *State
}

// Consumer is the receiving side.
type Consumer struct {
	tail *uint64
	data unsafe.Pointer
	size uint64
	st   *State
}

// Attach returns the two ends of the ring at mem (Size(dataSize) bytes, zeroed
// when the ring is new). A process uses only one of them. The ends keep their
// positions in ps and cs (fresh ones when nil).
func Attach(mem unsafe.Pointer, dataSize int, ps, cs *State) (*Producer, *Consumer) {
	if dataSize&(dataSize-1) != 0 || dataSize < 256 {
		panic("shmring: data size must be a power of two >= 256")
	}
	if ps == nil {
		ps = new(State)
	}
	if cs == nil {
		cs = new(State)
	}
	tail := (*uint64)(mem)
	slow := (*uint32)(unsafe.Add(mem, verdictOff))
	data := unsafe.Add(mem, CtlSize)
	start := atomic.LoadUint64(tail) // a fresh ring starts at 0
	*ps = State{Pos: start, Cached: start}
	*cs = State{Pos: start}
	return &Producer{tail: tail, slow: slow, data: data, size: uint64(dataSize), st: ps},
		&Consumer{tail: tail, data: data, size: uint64(dataSize), st: cs}
}

// Layout exposes what a C implementation of the same protocol needs.
func (p *Producer) Layout() (data unsafe.Pointer, size uint64, tail *uint64, st *State) {
	return p.data, p.size, p.tail, p.st
}

// Layout exposes what a C implementation of the same protocol needs.
func (c *Consumer) Layout() (data unsafe.Pointer, size uint64, tail *uint64, st *State) {
	return c.data, c.size, c.tail, c.st
}

func align8(n uint64) uint64 { return (n + 7) &^ 7 }

// MaxRecord is the largest body one record may hold.
func (p *Producer) MaxRecord() int { return int(p.size/4) - HeaderSize }

func (p *Producer) word(pos uint64) *uint64 {
	return (*uint64)(unsafe.Add(p.data, pos&(p.size-1)))
}

func (p *Producer) room(need uint64) bool {
	st := p.st
	if st.Pos+need-st.Cached <= p.size {
		return true
	}
	st.Cached = atomic.LoadUint64(p.tail)
	return st.Pos+need-st.Cached <= p.size
}

// Reserve returns a pointer to n bytes of body space for a record, or nil when
// the ring is full. The record becomes visible with Commit.
func (p *Producer) Reserve(n int) unsafe.Pointer {
	rec := align8(HeaderSize + uint64(n))
	st := p.st
	off := st.Pos & (p.size - 1)
	if off+rec > p.size { // does not fit before the end: wrap first
		skip := p.size - off
		if !p.room(skip + rec + HeaderSize) {
			return nil
		}
		*(*uint64)(p.data) = 0 // terminator for the next lap, before the marker
		atomic.StoreUint64(p.word(st.Pos), kindWrap<<kindShift)
		st.Pos += skip
	} else if !p.room(rec + HeaderSize) {
		return nil
	}
	return unsafe.Add(p.data, (st.Pos&(p.size-1))+HeaderSize)
}

// Commit publishes the record reserved last with body length n and tag.
func (p *Producer) Commit(n int, tag uint8) {
	rec := align8(HeaderSize + uint64(n))
	st := p.st
	*p.word(st.Pos + rec) = 0
	atomic.StoreUint64(p.word(st.Pos), kindData<<kindShift|uint64(tag)<<tagShift|uint64(n))
	st.Pos += rec
}

// Backlog is the number of bytes written and not yet consumed.
func (p *Producer) Backlog() int { return int(p.st.Pos - atomic.LoadUint64(p.tail)) }

// Empty reports whether the consumer has taken everything produced so far.
func (p *Producer) Empty() bool { return atomic.LoadUint64(p.tail) == p.st.Pos }

// Peek returns the next record's body and tag without consuming it, or ok=false.
func (c *Consumer) Peek() (body unsafe.Pointer, n int, tag uint8, ok bool) {
	st := c.st
	for {
		w := atomic.LoadUint64((*uint64)(unsafe.Add(c.data, st.Pos&(c.size-1))))
		if w == 0 {
			return nil, 0, 0, false
		}
		if w>>kindShift&0xff == kindWrap {
			st.Pos += c.size - st.Pos&(c.size-1)
			continue
		}
		return unsafe.Add(c.data, st.Pos&(c.size-1)+HeaderSize), int(uint32(w)), uint8(w >> tagShift), true
	}
}

// Pending reports whether a record is waiting, without consuming it.
func (c *Consumer) Pending() bool {
	return atomic.LoadUint64((*uint64)(unsafe.Add(c.data, c.st.Pos&(c.size-1)))) != 0
}

// Release consumes the record returned by Peek (n is its body length).
func (c *Consumer) Release(n int) {
	c.st.Pos += align8(HeaderSize + uint64(n))
	atomic.StoreUint64(c.tail, c.st.Pos)
}

// SlowWord is the producer's copy verdict (nonzero: slow) followed by its run
// of slow copies, for a C implementation of NoteCopy and SlowCopies.
func (p *Producer) SlowWord() *uint32 { return p.slow }

// SlowCopies reports the producer's verdict that copying records into this
// ring runs slow: the lines the consumer read last lap are claimed back from
// its core only at a fraction of a local copy's speed (two cores far apart),
// and a message is better read once from the sender's buffer.
func (p *Producer) SlowCopies() bool { return atomic.LoadUint32(p.slow) != 0 }

// NoteCopy records how fast a large record was copied in: slowAfter slow
// copies in a row make the verdict slow, one fast copy clears it.
func (p *Producer) NoteCopy(slow bool) {
	run := (*uint32)(unsafe.Add(unsafe.Pointer(p.slow), 4))
	if !slow {
		if *run != 0 {
			*run = 0
		}
		if *p.slow != 0 {
			atomic.StoreUint32(p.slow, 0)
		}
		return
	}
	if *run < slowAfter {
		*run++
	}
	if *run >= slowAfter && *p.slow == 0 {
		atomic.StoreUint32(p.slow, 1)
	}
}
