package mpi

import (
	"hash/fnv"
	"sync"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
)

// Datarep is a user data representation (MPI_Register_datarep). Read and
// Write convert count elements of dt between the user's buffer and a buffer
// in the file's form, starting at element pos of the access; nil means no
// conversion (MPI_CONVERSION_FN_NULL: the bytes are the native ones).
// Extent gives the file size of a basic type. Each returns an MPI error
// code.
type Datarep struct {
	Name        string
	Read, Write func(user unsafe.Pointer, dt *datatype.Type, count int, file unsafe.Pointer, pos int64) int
	Extent      func(dt *datatype.Type) (int64, int)

	mu    sync.Mutex
	sizes map[*datatype.Type]int64 // file size of one element, cached
}

var datareps = map[string]*Datarep{}

// RegisterDatarep is MPI_Register_datarep.
func RegisterDatarep(d *Datarep) error {
	const call = "MPI_Register_datarep"
	if datarepCode(d.Name) != 0 || datareps[d.Name] != nil {
		return RaiseFile(nil, abi.ErrDupDatarep, call, "data representation "+d.Name+" is already defined")
	}
	if len(d.Name) >= abi.MaxDatarepString {
		return RaiseFile(nil, abi.ErrArg, call, "the data representation's name is too long")
	}
	d.sizes = map[*datatype.Type]int64{}
	datareps[d.Name] = d
	return nil
}

// userRepCode numbers a user representation the same on every rank.
func userRepCode(name string) int64 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return 4 + int64(h.Sum32()%250)
}

// basicSize is the file extent of a basic type through the Extent callback.
func (d *Datarep) basicSize(t *datatype.Type) int64 {
	ext, rc := d.Extent(t)
	if rc != 0 {
		return 0
	}
	return ext
}

// elemSize is the bytes one element of dt takes in the file.
func (d *Datarep) elemSize(dt *datatype.Type) (int64, error) {
	d.mu.Lock() // the worker of a nonblocking access asks too
	defer d.mu.Unlock()
	if s, ok := d.sizes[dt]; ok {
		return s, nil
	}
	ft, err := datatype.InFile(dt, d.basicSize)
	if err != nil {
		return 0, err
	}
	d.sizes[dt] = int64(ft.Size)
	return int64(ft.Size), nil
}

// fileBytes is the size in the file of count elements of dt (-1: dt has
// no form in a user representation).
func (f *File) fileBytes(count int, dt *datatype.Type, write bool) int64 {
	switch {
	case f.rep != nil && f.converted(write):
		s, err := f.rep.elemSize(dt)
		if err != nil {
			return -1
		}
		return int64(count) * s
	case f.datarep == "external32":
		return dt.ExternalSize(count)
	}
	return int64(count) * int64(dt.Size)
}

// converted reports whether data goes through a conversion (external32, a
// user representation with conversion functions).
func (f *File) converted(write bool) bool {
	if f.rep != nil {
		if write {
			return f.rep.Write != nil
		}
		return f.rep.Read != nil
	}
	return f.datarep == "external32"
}

// encode puts count elements of dt at buf into data in the file's form.
func (f *File) encode(data []byte, buf unsafe.Pointer, count int, dt *datatype.Type, pos int64) int {
	if f.rep != nil {
		return f.rep.Write(buf, dt, count, bptr(data), pos)
	}
	dt.PackExternal(data, buf, count)
	return 0
}

// decode is encode's inverse for the count whole elements in data.
func (f *File) decode(buf unsafe.Pointer, count int, dt *datatype.Type, data []byte, pos int64) int {
	if f.rep != nil {
		return f.rep.Read(buf, dt, count, bptr(data), pos)
	}
	dt.UnpackExternal(buf, count, data)
	return 0
}
