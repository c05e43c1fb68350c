package mpi

import (
	"unsafe"

	"gompi/op"
)

// Typed collectives for Go programs: counts come from the slice lengths, the
// datatype from the element type; a nil input slice means MPI_IN_PLACE.

func inPtr[T Elem](in []T) unsafe.Pointer {
	if in == nil {
		return InPlace
	}
	return slicePtr(in)
}

// BcastSlice broadcasts buf from root.
func BcastSlice[T Elem](c *Comm, buf []T, root int) error {
	return c.Bcast(slicePtr(buf), len(buf), TypeOf[T](), root)
}

// AllreduceSlice combines in of every rank into out (in nil: out in place).
func AllreduceSlice[T Elem](c *Comm, in, out []T, o *op.Op) error {
	return c.Allreduce(inPtr(in), slicePtr(out), len(out), TypeOf[T](), o)
}

// IallreduceSlice starts AllreduceSlice; the slices must stay untouched
// until the request completes.
func IallreduceSlice[T Elem](c *Comm, in, out []T, o *op.Op) (*Request, error) {
	return c.AllreduceAs(Nonblocking, inPtr(in), slicePtr(out), len(out), TypeOf[T](), o)
}

// ReduceSlice combines in of every rank into out at root (out is ignored
// elsewhere; in nil at the root: in place).
func ReduceSlice[T Elem](c *Comm, in, out []T, o *op.Op, root int) error {
	n := len(in)
	if in == nil {
		n = len(out)
	}
	return c.Reduce(inPtr(in), slicePtr(out), n, TypeOf[T](), o, root)
}

// ScanSlice is the inclusive prefix reduction of in into out.
func ScanSlice[T Elem](c *Comm, in, out []T, o *op.Op) error {
	_, err := c.ScanAs(Blocking, inPtr(in), slicePtr(out), len(out), TypeOf[T](), o)
	return err
}

// ExscanSlice is the exclusive prefix reduction (out at rank 0 unchanged).
func ExscanSlice[T Elem](c *Comm, in, out []T, o *op.Op) error {
	_, err := c.ExscanAs(Blocking, inPtr(in), slicePtr(out), len(out), TypeOf[T](), o)
	return err
}

// AllgatherSlice gathers every rank's in into out (len(out) = size*len(in);
// in nil: the caller's block of out is already in place).
func AllgatherSlice[T Elem](c *Comm, in, out []T) error {
	k := len(out) / max(c.Size(), 1)
	return c.Allgather(inPtr(in), k, TypeOf[T](), slicePtr(out), k, TypeOf[T]())
}

// AlltoallSlice sends block r of in to rank r and receives rank r's block
// into block r of out (both of size*k elements; in nil: in place).
func AlltoallSlice[T Elem](c *Comm, in, out []T) error {
	k := len(out) / max(c.Size(), 1)
	return c.Alltoall(inPtr(in), k, TypeOf[T](), slicePtr(out), k, TypeOf[T]())
}

// GatherSlice gathers every rank's in into out at root (len(out) = size*len(in)).
func GatherSlice[T Elem](c *Comm, in, out []T, root int) error {
	k := len(in)
	_, err := c.GatherAs(Blocking, slicePtr(in), k, TypeOf[T](), slicePtr(out), k, TypeOf[T](), root)
	return err
}

// ScatterSlice sends block r of in (at root) to rank r's out.
func ScatterSlice[T Elem](c *Comm, in, out []T, root int) error {
	k := len(out)
	_, err := c.ScatterAs(Blocking, slicePtr(in), k, TypeOf[T](), slicePtr(out), k, TypeOf[T](), root)
	return err
}
