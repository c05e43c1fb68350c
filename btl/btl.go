// Package btl defines the byte-transfer-layer interface: transports that move
// fragments between processes (self, sm, later tcp). The pml drives them; they
// never import the pml.
package btl

import "unsafe"

// Protocol is a transport's recommendation for a large message.
type Protocol uint8

const (
	ProtoNone Protocol = iota // no opinion: the pml decides
	ProtoSend                 // copy-in/copy-out fragments
	ProtoGet                  // single copy, receiver reads sender memory
	ProtoPut                  // single copy, sender writes receiver memory
)

func (p Protocol) String() string {
	return [...]string{"none", "send", "get", "put"}[p]
}

// Putter is a transport that can also write into a peer's memory in one copy
// (the sender's half of a split single-copy transfer).
type Putter interface {
	// Put copies n bytes from src into remote address addr in peer's memory.
	Put(peer int, src unsafe.Pointer, n int, addr uintptr) error
}

// Handler receives one fragment. data (header+payload) is valid only during the call.
type Handler func(src int, tag uint8, data []byte)

// Module is one transport instance. Peers are world ranks.
type Module interface {
	Name() string
	// EagerLimit is the largest header+payload one SendI accepts.
	EagerLimit() int
	// SendI sends hdr[:hdrLen] followed by payload[:n] as one fragment now, or
	// reports false when the transport has no room (the caller retries later).
	SendI(peer int, tag uint8, hdr unsafe.Pointer, hdrLen int, payload unsafe.Pointer, n int) bool
	// Get copies len(dst) bytes from remote address addr in peer's memory.
	// It fails when single copy is unavailable for that peer.
	Get(peer int, dst unsafe.Pointer, n int, addr uintptr) error
	// CanGet tells whether Get works for peer.
	CanGet(peer int) bool
	// PreferredProtocol recommends a protocol for a message of size bytes.
	PreferredProtocol(peer int, size int) Protocol
	// Progress delivers arrived fragments to the handler and returns how many.
	Progress() int
	// Close releases the transport's resources.
	Close() error
}
