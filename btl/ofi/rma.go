//go:build !noofi

package ofi

/*
#include "gofi.h"
*/
import "C"

import (
	"strconv"
	"unsafe"
)

// DefaultGetMin: from this size messages go by fi_read (with RMA). Below
// it they go eager (the eager limit is 64 KiB): a read costs a round trip
// more than a pipelined fragment, which a 64 KiB eager copy does not.
const DefaultGetMin = 64<<10 + 1

// mrCacheSize bounds the registrations kept for reuse (a benchmark sends
// from one buffer again and again: it is registered once). Registrations in
// use by a read in flight are never dropped, so the cache may exceed it
// while that many sends wait for their FIN.
const mrCacheSize = 16

// mrEntry is one registration: [addr, addr+n) readable with key at raddr.
type mrEntry struct {
	addr    uintptr
	n       int
	key     uint64
	raddr   uint64
	h       unsafe.Pointer
	refs    int32
	lastUse uint64
}

// mrCache keeps registrations by address range. A slice scanned linearly:
// it is small, and this runs once per rendezvous send, not per frame.
//
// Memory freed and reallocated at a cached range keeps its registration:
// with tcp the key only names the range (nothing is pinned), so a read
// still finds the current data there. A provider that pins pages would need
// the allocator's free hooks to invalidate; bounded eviction is what there
// is here.
type mrCache struct {
	ents []mrEntry
	max  int
	tick uint64
}

// Expose registers (or finds registered) the n bytes at buf for peer's
// reads: the key and remote address to announce in the rendezvous header.
// The caller Unexposes the key when the send completes.
func (m *Module) Expose(peer int, buf unsafe.Pointer, n int) (key, raddr uint64, ok bool) {
	if !m.rma || buf == nil || n <= 0 {
		return 0, 0, false
	}
	c := &m.mrs
	c.tick++
	a := uintptr(buf)
	for i := range c.ents {
		e := &c.ents[i]
		if e.h != nil && a >= e.addr && a+uintptr(n) <= e.addr+uintptr(e.n) {
			e.refs++
			e.lastUse = c.tick
			return e.key, e.raddr + uint64(a-e.addr), true
		}
	}
	var h unsafe.Pointer
	var k, ra C.uint64_t
	if C.gofi_mr_reg(m.g, buf, C.size_t(n), &k, &ra, &h) != 0 {
		return 0, 0, false
	}
	c.evict()
	c.ents = append(c.ents, mrEntry{addr: a, n: n, key: uint64(k), raddr: uint64(ra), h: h, refs: 1, lastUse: c.tick})
	return uint64(k), uint64(ra), true
}

// Unexpose drops one use of the registration with key (its send is done).
func (m *Module) Unexpose(key uint64) {
	c := &m.mrs
	for i := range c.ents {
		if c.ents[i].key == key && c.ents[i].h != nil && c.ents[i].refs > 0 {
			c.ents[i].refs--
			break
		}
	}
	c.evict()
}

// evict closes unused registrations, least recently used first, until the
// cache is within its bound (or every entry left is in use).
func (c *mrCache) evict() {
	for len(c.ents) > c.max {
		lru := -1
		for i := range c.ents {
			if c.ents[i].refs == 0 && (lru < 0 || c.ents[i].lastUse < c.ents[lru].lastUse) {
				lru = i
			}
		}
		if lru < 0 {
			return
		}
		C.gofi_mr_close(c.ents[lru].h)
		c.ents = append(c.ents[:lru], c.ents[lru+1:]...)
	}
}

func (c *mrCache) closeAll() {
	for i := range c.ents {
		C.gofi_mr_close(c.ents[i].h)
	}
	c.ents = nil
}

// ReadAsync starts reading n bytes at raddr (key) in peer's memory into
// dst; the pml's OnRead callback learns with id when it finished. false:
// not started (no RMA, too large, no room): the caller asks for fragments.
// The key, address and size come from the network: the provider checks
// them against the peer's registration (a bad one fails the read, which
// reports ok false), and dst[n] is the caller's own buffer.
func (m *Module) ReadAsync(peer int, dst unsafe.Pointer, n int, raddr, key uint64, id uint32) bool {
	if !m.CanGet(peer) || dst == nil || n <= 0 || n > m.maxRead {
		return false
	}
	rc := C.gofi_read(m.g, C.int(peer), dst, C.size_t(n), C.uint64_t(raddr), C.uint64_t(key), C.uint64_t(id))
	if rc < 0 {
		m.fail("read from rank " + strconv.Itoa(peer))
		return false
	}
	return rc == 1
}

// OnRead sets the function told of finished reads (called from Progress).
func (m *Module) OnRead(f func(id uint32, ok bool)) { m.onRead = f }
