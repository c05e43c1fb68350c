package mpi

import (
	"reflect"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
)

// Elem is a Go element type with a predefined MPI datatype.
type Elem interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 |
		~int | ~uint | ~float32 | ~float64 | ~complex64 | ~complex128
}

// TypeOf returns the predefined datatype matching T (by its underlying
// kind, so named types such as `type Celsius float64` map correctly).
func TypeOf[T Elem]() *datatype.Type {
	return datatype.Predefined(kindTypes[reflect.TypeFor[T]().Kind()])
}

var kindTypes = [...]int32{
	reflect.Int8: abi.Int8, reflect.Uint8: abi.Uint8, reflect.Int16: abi.Int16, reflect.Uint16: abi.Uint16,
	reflect.Int32: abi.Int32, reflect.Uint32: abi.Uint32, reflect.Int64: abi.Int64, reflect.Uint64: abi.Uint64,
	reflect.Int: abi.Int64, reflect.Uint: abi.Uint64, reflect.Float32: abi.Float, reflect.Float64: abi.Double,
	reflect.Complex64: abi.CFloatComplex, reflect.Complex128: abi.CDoubleComplex,
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
