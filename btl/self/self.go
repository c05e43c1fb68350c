// Package self is the transport for messages a process sends to itself: a ring
// in private memory, delivered at progress time, and single copy by memmove.
package self

import (
	"unsafe"

	"gompi/btl"
	"gompi/btl/shmring"
	"gompi/mem"
)

// Module is the self transport.
type Module struct {
	me      int
	mem     []uint64
	prod    *shmring.Producer
	cons    *shmring.Consumer
	handler btl.Handler
}

// New makes the self transport of world rank me with a ring of ringSize bytes.
func New(me int, ringSize int, h btl.Handler) *Module {
	m := &Module{me: me, handler: h, mem: make([]uint64, shmring.Size(ringSize)/8)}
	m.prod, m.cons = shmring.Attach(unsafe.Pointer(&m.mem[0]), ringSize, nil, nil)
	return m
}

func (m *Module) Name() string       { return "self" }
func (m *Module) EagerLimit() int    { return m.prod.MaxRecord() }
func (m *Module) CanGet(int) bool    { return true }
func (m *Module) Close() error       { return nil }
func (m *Module) Pending() bool      { return m.cons.Pending() }
func (m *Module) Reaches(p int) bool { return p == m.me }

func (m *Module) SendI(_ int, tag uint8, hdr unsafe.Pointer, hdrLen int, payload unsafe.Pointer, n int) bool {
	b := m.prod.Reserve(hdrLen + n)
	if b == nil {
		return false
	}
	copy(unsafe.Slice((*byte)(b), hdrLen), unsafe.Slice((*byte)(hdr), hdrLen))
	if n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Add(b, hdrLen)), n), unsafe.Slice((*byte)(payload), n))
	}
	m.prod.Commit(hdrLen+n, tag)
	return true
}

// Get within one address space is a plain copy.
func (m *Module) Get(_ int, dst unsafe.Pointer, n int, addr uintptr) error {
	src := *(*unsafe.Pointer)(unsafe.Pointer(&addr)) // addr is a live pointer of ours
	mem.Copy(dst, src, n)
	return nil
}

// PreferredProtocol: one memmove beats two for anything past the eager limit.
func (m *Module) PreferredProtocol(int, int) btl.Protocol { return btl.ProtoGet }

func (m *Module) Progress() int {
	count := 0
	for k := 0; k < 16; k++ {
		body, n, tag, ok := m.cons.Peek()
		if !ok {
			break
		}
		m.handler(m.me, tag, unsafe.Slice((*byte)(body), n))
		m.cons.Release(n)
		count++
	}
	return count
}
