package mpi

import (
	"encoding/binary"
	"errors"
	"os"
	"unsafe"

	"gompi/abi"
)

// The shared file pointer lives in a small side file next to the data file
// (created by rank 0 at open, removed at close), read and updated under an
// fcntl write lock. A side file works on every POSIX file system, needs no
// progress from another rank (a rank that stopped calling MPI cannot stall
// the others), and on a shared file system spans nodes as the file does.

func ptrBytes(v int64) []byte {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, uint64(v))
	return b
}

func (f *File) sharedFile() (*os.File, error) {
	if f.shfd != nil {
		return f.shfd, nil
	}
	if f.shfp == "" {
		return nil, errors.New("no shared file pointer (the file's directory is not writable)")
	}
	fd, err := os.OpenFile(f.shfp, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	f.shfd = fd
	return fd, nil
}

// sharedUpdate applies fn to the pointer under the lock and returns the old value.
func (f *File) sharedUpdate(fn func(old int64) int64) (int64, error) {
	f.shmu.Lock() // fcntl locks do not exclude this process's own worker
	defer f.shmu.Unlock()
	fd, err := f.sharedFile()
	if err != nil {
		return 0, err
	}
	unlock := lockRange(fd.Fd(), 0, 8, true)
	defer unlock()
	var b [8]byte
	if _, err := fd.ReadAt(b[:], 0); err != nil {
		return 0, err
	}
	old := int64(binary.LittleEndian.Uint64(b[:]))
	if nv := fn(old); nv != old {
		if _, err := fd.WriteAt(ptrBytes(nv), 0); err != nil {
			return 0, err
		}
	}
	return old, nil
}

func (f *File) sharedAdd(d int64) (int64, error) {
	return f.sharedUpdate(func(o int64) int64 { return o + d })
}

func (f *File) sharedGet() (int64, error) {
	return f.sharedUpdate(func(o int64) int64 { return o })
}

func (f *File) sharedSet(v int64) error {
	_, err := f.sharedUpdate(func(int64) int64 { return v })
	return err
}

// PositionShared is MPI_File_get_position_shared (etypes).
func (f *File) PositionShared() (int64, error) {
	p, err := f.sharedGet()
	if err != nil {
		return 0, f.raise(errf(abi.ErrIO, "MPI_File_get_position_shared", "%v", err))
	}
	return p, nil
}

// SeekShared is MPI_File_seek_shared: collective, every rank passes the same
// offset and whence.
func (f *File) SeekShared(off int64, whence int) error {
	const call = "MPI_File_seek_shared"
	f.drain()
	all, err := allInts(f.comm, off*1024+int64(whence))
	if err != nil {
		return err
	}
	for _, x := range all {
		if x != off*1024+int64(whence) {
			return f.raise(errf(abi.ErrNotSame, call, "ranks passed different offsets or whence"))
		}
	}
	var cls int64
	if f.comm.Rank() == 0 {
		cur, err := f.sharedGet()
		if err == nil {
			var p int64
			if p, err = f.seekTarget(call, cur, off, whence); err == nil {
				err = f.sharedSet(p)
			}
		}
		if err != nil {
			cls = abi.ErrArg
			if e, ok := err.(*Error); ok {
				cls = int64(e.Class)
			}
		}
	}
	if err := f.comm.Bcast(ptrP(&cls), 1, i64, 0); err != nil {
		return err
	}
	if cls != 0 && f.comm.Rank() != 0 {
		return f.raise(errf(int(cls), call, "invalid seek"))
	}
	if cls != 0 {
		return &Error{Class: int(cls), Call: call}
	}
	return nil
}

func ptrP(p *int64) unsafe.Pointer { return unsafe.Pointer(p) }
