package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
)

// Elem is a Go element type with a predefined MPI datatype.
type Elem interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 |
		~int | ~uint | ~float32 | ~float64 | ~complex64 | ~complex128
}

// TypeOf returns the predefined datatype matching T.
func TypeOf[T Elem]() *datatype.Type {
	var z T
	var h int32
	switch any(z).(type) {
	case int8:
		h = abi.Int8
	case uint8:
		h = abi.Uint8
	case int16:
		h = abi.Int16
	case uint16:
		h = abi.Uint16
	case int32:
		h = abi.Int32
	case uint32:
		h = abi.Uint32
	case int64, int:
		h = abi.Int64
	case uint64, uint:
		h = abi.Uint64
	case float32:
		h = abi.Float
	case float64:
		h = abi.Double
	case complex64:
		h = abi.CFloatComplex
	case complex128:
		h = abi.CDoubleComplex
	default: // named types: fall back on size
		switch unsafe.Sizeof(z) {
		case 1:
			h = abi.Byte
		case 2:
			h = abi.Int16
		case 4:
			h = abi.Int32
		case 8:
			h = abi.Int64
		default:
			h = abi.CDoubleComplex
		}
	}
	return datatype.Predefined(h)
}

func slicePtr[T Elem](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(s))
}

// SendSlice sends all of buf to dest.
func SendSlice[T Elem](c *Comm, buf []T, dest, tag int) error {
	return c.Send(slicePtr(buf), len(buf), TypeOf[T](), dest, tag)
}

// SsendSlice is the synchronous-mode SendSlice.
func SsendSlice[T Elem](c *Comm, buf []T, dest, tag int) error {
	return c.Ssend(slicePtr(buf), len(buf), TypeOf[T](), dest, tag)
}

// RecvSlice receives into buf; Status.Count is in bytes, Elements in elements.
func RecvSlice[T Elem](c *Comm, buf []T, src, tag int) (Status, error) {
	return c.Recv(slicePtr(buf), len(buf), TypeOf[T](), src, tag)
}

// IsendSlice starts a send of buf; buf must not change until the request completes.
func IsendSlice[T Elem](c *Comm, buf []T, dest, tag int) (*Request, error) {
	return c.Isend(slicePtr(buf), len(buf), TypeOf[T](), dest, tag, 0)
}

// IrecvSlice starts a receive into buf.
func IrecvSlice[T Elem](c *Comm, buf []T, src, tag int) (*Request, error) {
	return c.Irecv(slicePtr(buf), len(buf), TypeOf[T](), src, tag)
}

// Elements converts a status byte count into elements of T.
func Elements[T Elem](s Status) int {
	var z T
	return s.Count / int(unsafe.Sizeof(z))
}
