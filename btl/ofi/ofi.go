//go:build !noofi

// Package ofi is the network transport over libfabric: one reliable-datagram
// endpoint (FI_EP_RDM; libfabric 1.17's "net" on plain Ethernet, else "tcp;ofi_rxm"; verbs, EFA or cxi on
// clusters) per process, its address in the modex card, an address vector by
// world rank, frames copied into pre-registered buffers, and a completion
// queue the engine polls in Progress and sleeps in (fi_cq_sread) when idle.
//
// Large messages: where the provider offers RMA (net and tcp;ofi_rxm do) the
// sender exposes its buffer (a registration cache, rma.go) and the receiver
// reads it with fi_read; otherwise the pml's pipelined fragments. Frames
// that fit the provider's inject size go by fi_inject (no send buffer, no
// completion); Drain flushes them before the endpoint closes.
package ofi

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "gofi.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"time"
	"unsafe"

	"gompi/btl"
)

// Config opens the transport.
type Config struct {
	Provider  string // libfabric provider name; "" the first RDM one for the network
	Domain    string // libfabric domain (the interface for tcp: "eth0", "lo"); "" chosen
	Me, Size  int    // world rank and size
	Slots     int    // receive and send buffers each (a power of two)
	SlotBytes int    // bytes of one buffer: the largest frame
	// Check validates a frame's body before it reaches the handler (the
	// pml's CheckFrag); nil accepts every body.
	Check func(src int, tag uint8, body []byte) error
	// GetMin: messages from this size go by fi_read where the provider
	// offers RMA (0: DefaultGetMin).
	GetMin int
	// NoRead, NoInject turn fi_read rendezvous and fi_inject off.
	NoRead, NoInject bool
	// ReadChunk splits reads into chunks of at most this many bytes, of
	// which at most ReadsInFlight (of all reads) are at the provider at
	// once (0: 256 KiB and 64, gofi.h's GOFI_CHUNK and GOFI_INFLIGHT).
	ReadChunk, ReadsInFlight int
}

// Defaults: 64 buffers of 64 KiB and a little for the headers each way.
const (
	DefaultSlots     = 64
	DefaultSlotBytes = 64<<10 + 512
)

// Module is one process's libfabric endpoint.
type Module struct {
	g       *C.gofi
	h       btl.Handler
	check   func(int, uint8, []byte) error
	remote  []bool // by world rank: reached through us
	slot    int
	rx      *[batch]C.gofi_rx // C memory: gofi_poll writes it
	done    *[batch]C.int32_t // buffers of the frames last delivered, reposted by the next poll
	ndone   int
	bad     uint64 // frames dropped as corrupt
	failed  bool
	lastErr string
	rma     bool // fi_read rendezvous offered
	maxRead int  // largest single read
	getMin  int  // smallest message sent by read
	mrs     mrCache
	onRead  func(id uint32, ok bool)
}

const batch = 32

// Open opens the endpoint; Name gives the address to publish.
func Open(cfg Config, h btl.Handler) (*Module, error) {
	if cfg.Slots <= 0 {
		cfg.Slots = DefaultSlots
	}
	if cfg.Slots&(cfg.Slots-1) != 0 {
		return nil, fmt.Errorf("ofi: %d buffers is not a power of two", cfg.Slots)
	}
	if cfg.SlotBytes <= 0 {
		cfg.SlotBytes = DefaultSlotBytes
	}
	if cfg.SlotBytes < 1024 {
		return nil, fmt.Errorf("ofi: buffers of %d bytes are too small", cfg.SlotBytes)
	}
	prov, dom := C.CString(cfg.Provider), C.CString(cfg.Domain)
	defer C.free(unsafe.Pointer(prov))
	defer C.free(unsafe.Pointer(dom))
	var msg [256]C.char
	g := C.gofi_open(prov, dom, C.int(cfg.Me), C.int(cfg.Size), C.int(cfg.Slots), C.size_t(cfg.SlotBytes), &msg[0], C.size_t(len(msg)))
	if g == nil {
		return nil, fmt.Errorf("ofi: %s", C.GoString(&msg[0]))
	}
	m := &Module{g: g, h: h, check: cfg.Check, remote: make([]bool, cfg.Size), slot: cfg.SlotBytes}
	C.gofi_limit(g, C.int(b2i(!cfg.NoRead)), C.int(b2i(!cfg.NoInject)))
	C.gofi_chunks(g, C.size_t(max(cfg.ReadChunk, 0)), C.int(cfg.ReadsInFlight))
	var maxRMA C.size_t
	m.rma = C.gofi_rma(g, &maxRMA) != 0
	m.maxRead = int(min(uint64(maxRMA), 1<<62))
	m.getMin = cfg.GetMin
	if m.getMin <= 0 {
		m.getMin = DefaultGetMin
	}
	m.mrs.max = mrCacheSize
	m.rx = (*[batch]C.gofi_rx)(C.calloc(batch, C.size_t(unsafe.Sizeof(C.gofi_rx{}))))
	m.done = (*[batch]C.int32_t)(C.calloc(batch, 4))
	return m, nil
}

// Name is the endpoint's address, published in the modex card.
func (m *Module) Name() string { return "ofi" }

// Address is the endpoint's address for the modex.
func (m *Module) Address() ([]byte, error) {
	buf := make([]byte, 256)
	n := C.size_t(len(buf))
	if C.gofi_name(m.g, unsafe.Pointer(&buf[0]), &n) != 0 {
		return nil, m.err("address")
	}
	return buf[:n], nil
}

// Provider names the libfabric provider in use.
func (m *Module) Provider() string { return C.GoString(C.gofi_provider(m.g)) }

// Connect makes world rank peer reachable at addr (its published address).
func (m *Module) Connect(peer int, addr []byte) error {
	if peer < 0 || peer >= len(m.remote) || len(addr) == 0 {
		return fmt.Errorf("ofi: bad address for rank %d", peer)
	}
	if C.gofi_insert(m.g, C.int(peer), unsafe.Pointer(&addr[0]), C.size_t(len(addr))) != 0 {
		return m.err(fmt.Sprintf("rank %d's address", peer))
	}
	m.remote[peer] = true
	return nil
}

func (m *Module) err(what string) error {
	return fmt.Errorf("ofi: %s: %s", what, C.GoString(C.gofi_errstr(m.g)))
}

// EagerLimit is the largest pml header and payload one frame carries.
func (m *Module) EagerLimit() int { return m.slot - frameHdr }

// SendI copies the fragment into a send buffer and posts it.
func (m *Module) SendI(peer int, tag uint8, hdr unsafe.Pointer, hdrLen int, payload unsafe.Pointer, n int) bool {
	rc := C.gofi_send(m.g, C.int(peer), C.int(tag), hdr, C.size_t(hdrLen), payload, C.size_t(n))
	if rc < 0 {
		m.fail("send to rank " + fmt.Sprint(peer))
		return false
	}
	return rc == 1
}

// fail reports a transport error once: the launcher ends the job when the
// peer is gone, and a live peer's lost frame cannot be recovered here.
func (m *Module) fail(what string) {
	e := C.GoString(C.gofi_errstr(m.g))
	if !m.failed || e != m.lastErr {
		fmt.Fprintf(os.Stderr, "gompi: btl/ofi (%s): %s: %s\n", m.Provider(), what, e)
	}
	m.failed, m.lastErr = true, e
}

// Get (a blocking read) is not offered: reads across the network are
// asynchronous (ReadAsync).
func (m *Module) Get(int, unsafe.Pointer, int, uintptr) error {
	return errors.New("ofi: no blocking single copy across the network")
}

// CanGet tells whether peer's buffers can be read with fi_read.
func (m *Module) CanGet(peer int) bool { return m.rma && m.Reaches(peer) }

// PreferredProtocol: a read by the receiver from getMin bytes where the
// provider offers RMA, else copy-in/copy-out fragments pipelined by the pml.
func (m *Module) PreferredProtocol(peer int, size int) btl.Protocol {
	if m.rma && size >= m.getMin && size <= m.maxRead {
		return btl.ProtoGet
	}
	return btl.ProtoSend
}

// Reaches tells whether peer is reached through the network.
func (m *Module) Reaches(peer int) bool { return peer >= 0 && peer < len(m.remote) && m.remote[peer] }

// Progress reaps completions and hands received frames to the handler.
func (m *Module) Progress() int {
	total := 0
	for {
		k := int(C.gofi_poll(m.g, &m.rx[0], batch, &m.done[0], C.int(m.ndone)))
		m.ndone = 0
		if k < 0 {
			m.fail("completion")
			return total
		}
		if k == 0 {
			return total
		}
		nd := 0
		for i := 0; i < k; i++ {
			e := &m.rx[i]
			if e.slot < 0 { // a read finished: len is its cookie
				if m.onRead != nil {
					m.onRead(uint32(e.len), e._pad != 0)
				}
				continue
			}
			b := unsafe.Slice((*byte)(e.buf), int(e.len))
			m.deliver(b)
			m.done[nd] = e.slot
			nd++
		}
		m.ndone = nd
		total += k
		if k < batch {
			return total
		}
	}
}

func (m *Module) deliver(b []byte) {
	src, tag, body, err := decodeFrame(b, m.remote)
	if err == nil && tag == frameNop {
		return
	}
	if err == nil && m.check != nil {
		err = m.check(src, tag, body)
	}
	if err != nil {
		m.bad++
		if m.bad <= 3 {
			fmt.Fprintf(os.Stderr, "gompi: btl/ofi: dropped a corrupt frame: %v\n", err)
		}
		return
	}
	m.h(src, tag, body)
}

// Corrupt is the number of frames dropped by validation.
func (m *Module) Corrupt() uint64 { return m.bad }

// Idle sleeps in fi_cq_sread until a completion arrives or d
// passes (a short nap when the provider has no wait object).
func (m *Module) Idle(d time.Duration) {
	ms := int(d / time.Millisecond)
	if ms < 1 {
		ms = 1
	}
	if m.ndone > 0 { // the provider needs its buffers while we sleep
		if C.gofi_repost(m.g, &m.done[0], C.int(m.ndone)) != 0 {
			m.fail("repost")
		}
		m.ndone = 0
	}
	if C.gofi_wait(m.g, C.int(ms)) == 0 {
		time.Sleep(min(d, 50*time.Microsecond))
	}
}

// Drain waits up to d for every posted send to complete (before Close: a
// frame still in the provider would be lost with the endpoint).
func (m *Module) Drain(d time.Duration) bool {
	end := time.Now().Add(d)
	for {
		rc := C.gofi_flush(m.g)
		if rc < 0 {
			m.fail("flush")
			return false
		}
		if rc == 1 {
			break
		}
		if time.Now().After(end) {
			return false
		}
		m.Progress()
	}
	for C.gofi_outstanding(m.g) > 0 {
		if time.Now().After(end) {
			return false
		}
		if m.Progress() == 0 {
			time.Sleep(20 * time.Microsecond)
		}
	}
	return true
}

// Close releases the endpoint and its buffers.
func (m *Module) Close() error {
	if m.g == nil {
		return nil
	}
	m.mrs.closeAll()
	C.gofi_close(m.g)
	C.free(unsafe.Pointer(m.rx))
	C.free(unsafe.Pointer(m.done))
	m.g = nil
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FastNet is what the library's C fast path (capi/fastpath.h) needs to send
// and receive small messages on this endpoint without calling into Go: the
// gofi handle and its C functions gofi_send, gofi_peek and gofi_pop.
type FastNet struct {
	G, Send, Peek, Pop unsafe.Pointer
}

// Fast describes the endpoint to the C fast path.
func (m *Module) Fast() FastNet {
	return FastNet{G: unsafe.Pointer(m.g), Send: unsafe.Pointer(C.gofi_send), Peek: unsafe.Pointer(C.gofi_peek),
		Pop: unsafe.Pointer(C.gofi_pop)}
}

// ReadFrom is the size from which messages to peer go by fi_read, 0 never.
func (m *Module) ReadFrom(peer int) int {
	if m.CanGet(peer) {
		return m.getMin
	}
	return 0
}
