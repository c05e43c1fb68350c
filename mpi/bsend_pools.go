package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/group"
)

// MPI-4.1 buffers for buffered sends attached to a communicator or a
// session, and the flush calls.

// bsendPool is the buffer a buffered send on c uses: c's own, else its
// session's, else the process's.
func (c *Comm) bsendPool() *bpool {
	if c.bpool != nil && c.bpool.attached {
		return c.bpool
	}
	if s := c.session; s != nil && s.bpool != nil && s.bpool.attached {
		return s.bpool
	}
	return &bsend
}

// AttachBuffer attaches a buffer to c (MPI_Comm_attach_buffer).
func (c *Comm) AttachBuffer(buf unsafe.Pointer, size int) error {
	if c.bpool == nil {
		c.bpool = &bpool{}
	}
	if e := c.bpool.attach("MPI_Comm_attach_buffer", buf, size); e != nil {
		return c.raise(e)
	}
	return nil
}

// DetachBuffer waits for c's buffered sends, then detaches its buffer
// (MPI_Comm_detach_buffer).
func (c *Comm) DetachBuffer() (unsafe.Pointer, int, error) {
	if c.bpool == nil {
		return nil, 0, c.raise(errf(abi.ErrBuffer, "MPI_Comm_detach_buffer", "no buffer is attached to the communicator"))
	}
	buf, n, e := c.bpool.detach("MPI_Comm_detach_buffer")
	if e != nil {
		return nil, 0, c.raise(e)
	}
	return buf, n, nil
}

// FlushBuffer waits until the buffered sends out of c's buffer have left
// it (MPI_Comm_flush_buffer; nothing to do without one).
func (c *Comm) FlushBuffer() {
	if c.bpool != nil {
		c.bpool.flush()
	}
}

// FlushBuffer is MPI_Buffer_flush: the process's buffer.
func FlushBuffer() { bsend.flush() }

// AttachBuffer attaches a buffer to s (MPI_Session_attach_buffer).
func (s *Session) AttachBuffer(buf unsafe.Pointer, size int) error {
	if s.bpool == nil {
		s.bpool = &bpool{}
	}
	if e := s.bpool.attach("MPI_Session_attach_buffer", buf, size); e != nil {
		return s.raise(e)
	}
	return nil
}

// DetachBuffer is MPI_Session_detach_buffer.
func (s *Session) DetachBuffer() (unsafe.Pointer, int, error) {
	if s.bpool == nil {
		return nil, 0, s.raise(errf(abi.ErrBuffer, "MPI_Session_detach_buffer", "no buffer is attached to the session"))
	}
	buf, n, e := s.bpool.detach("MPI_Session_detach_buffer")
	if e != nil {
		return nil, 0, s.raise(e)
	}
	return buf, n, nil
}

// FlushBuffer is MPI_Session_flush_buffer.
func (s *Session) FlushBuffer() {
	if s.bpool != nil {
		s.bpool.flush()
	}
}

// psetGroups remembers which session each group from a process set came
// from, so that communicators made from it belong to that session (for its
// buffer). Entries go when the session is finalized.
var psetGroups = map[*group.Group]*Session{}

// NotePsetGroup records that g was made from a process set of s.
func (s *Session) NotePsetGroup(g *group.Group) { psetGroups[g] = s }

func forgetSession(s *Session) {
	for g, o := range psetGroups {
		if o == s {
			delete(psetGroups, g)
		}
	}
}
