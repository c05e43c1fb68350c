package mpi

import (
	"errors"
	"io"
	"syscall"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	fio "gompi/io"
	"gompi/pml"
)

// Positioning of a data access.
const (
	AtExplicit = iota
	AtIndividual
	AtShared
)

// sieveLimit bounds the span one data-sieving read covers.
const sieveLimit = 4 << 20

// accessCheck validates a data access; it returns the bytes of the file
// stream the access covers.
func (f *File) accessCheck(call string, write bool, at int, count int, dt *datatype.Type) (int64, error) {
	switch {
	case f.split != nil && at != AtShared && call[len(call)-4:] == "_all":
		return 0, f.raise(errf(abi.ErrOther, call, "a split collective is pending on this file"))
	case count < 0:
		return 0, f.raise(errf(abi.ErrCount, call, "negative count %d", count))
	case !dt.Committed && !dt.Builtin:
		return 0, f.raise(errf(abi.ErrType, call, "the datatype is not committed"))
	case write && f.amode&abi.ModeRdonly != 0:
		return 0, f.raise(errf(abi.ErrReadOnly, call, "file opened read-only"))
	case !write && f.amode&abi.ModeWronly != 0:
		return 0, f.raise(errf(abi.ErrAccess, call, "file opened write-only"))
	case at != AtShared && f.amode&abi.ModeSequential != 0:
		return 0, f.raise(errf(abi.ErrUnsupportedOperation, call, "file opened with MPI_MODE_SEQUENTIAL allows only shared file pointers"))
	}
	n := int64(count) * int64(dt.Size)
	if f.datarep == "external32" {
		n = dt.ExternalSize(count)
	}
	if n%f.view.Etype != 0 {
		return 0, f.raise(errf(abi.ErrType, call, "the data is not a whole number of etypes"))
	}
	return n, nil
}

// transfer moves count elements of dt at buf to or from the view's data
// bytes starting at etype offset off; it returns the bytes moved. coll runs
// the collective (two-phase) path, which every rank must enter, even with
// nothing to move or after a local error (err0).
func (f *File) transfer(call string, write, coll bool, off int64, buf unsafe.Pointer, count int, dt *datatype.Type, n int64, err0 error) (int64, error) {
	if err0 == nil && n > 0 && off < 0 {
		err0 = f.raise(errf(abi.ErrArg, call, "negative offset %d", off))
	}
	var data []byte
	var segs []fio.Block
	ext := f.datarep == "external32"
	direct := dt.Contig && !ext
	if err0 == nil && n > 0 {
		if direct {
			data = unsafe.Slice((*byte)(buf), n)
		} else {
			data = make([]byte, n)
			if write {
				if ext {
					dt.PackExternal(data, buf, count)
				} else {
					dt.Pack(data, buf, count, 0)
				}
			}
		}
		segs = f.view.Segments(nil, off*f.view.Etype, n)
	}
	var got int64
	var err error
	done := false
	if coll && !f.atomic {
		got, done, err = f.twoPhase(call, write, data, segs)
	}
	if err0 != nil {
		if coll && !done && write {
			f.comm.Barrier()
		}
		return 0, err0
	}
	if !done {
		if len(segs) > 0 {
			if f.atomic {
				lo, hi := fio.Span(segs)
				unlock := lockRange(f.fd.Fd(), lo, hi, write)
				defer unlock()
			}
			if write {
				got, err = f.writeSegs(data, segs)
			} else {
				got, err = f.readSegs(data, segs)
			}
			if err != nil {
				err = f.raise(errf(ioClass(err), call, "%v", err))
			}
		}
		if coll && write {
			// Collective writes end together, so data written by one rank is
			// there for any rank's next access (as two-phase I/O gives).
			if berr := f.comm.Barrier(); err == nil && berr != nil {
				err = berr
			}
		}
	}
	if !write && !direct && got > 0 {
		if ext {
			whole := int(got / dt.ExternalSize(1))
			dt.UnpackExternal(buf, whole, data[:int64(whole)*dt.ExternalSize(1)])
		} else {
			dt.Unpack(buf, count, data[:got], 0)
		}
	}
	return got, err
}

func (f *File) writeSegs(data []byte, segs []fio.Block) (int64, error) {
	if f.amode&abi.ModeWronly == 0 && f.dsMode(true) != "disable" && fio.Sieve(segs, sieveLimit) {
		return f.sieveWrite(data, segs)
	}
	var p int64
	for _, s := range segs {
		if _, err := f.fd.WriteAt(data[p:p+s.Len], s.Off); err != nil {
			return p, err
		}
		p += s.Len
	}
	return p, nil
}

// sieveWrite writes many small ranges as one read-modify-write of their
// span (data sieving), under an fcntl write lock on the span so concurrent
// writers of the bytes in between lose nothing.
func (f *File) sieveWrite(data []byte, segs []fio.Block) (int64, error) {
	lo, hi := fio.Span(segs)
	if !f.atomic { // atomic mode already holds the lock
		unlock := lockRange(f.fd.Fd(), lo, hi, true)
		defer unlock()
	}
	span := make([]byte, hi-lo)
	if _, err := f.fd.ReadAt(span, lo); err != nil && !errors.Is(err, io.EOF) {
		return 0, err
	}
	var p int64
	for _, s := range segs {
		copy(span[s.Off-lo:s.Off-lo+s.Len], data[p:p+s.Len])
		p += s.Len
	}
	if _, err := f.fd.WriteAt(span, lo); err != nil {
		return 0, err
	}
	return p, nil
}

// readSegs reads segs into data; a read past the end of the file stops the
// count at the first missing byte, as the standard asks.
func (f *File) readSegs(data []byte, segs []fio.Block) (int64, error) {
	if f.dsMode(false) != "disable" && fio.Sieve(segs, sieveLimit) {
		lo, hi := fio.Span(segs)
		span := make([]byte, hi-lo)
		m, err := f.fd.ReadAt(span, lo)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		var p int64
		for _, s := range segs {
			avail := min(max(int64(m)-(s.Off-lo), 0), s.Len)
			copy(data[p:p+avail], span[s.Off-lo:])
			p += avail
			if avail < s.Len {
				break
			}
		}
		return p, nil
	}
	var p int64
	for _, s := range segs {
		m, err := f.fd.ReadAt(data[p:p+s.Len], s.Off)
		p += int64(m)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return p, nil
			}
			return p, err
		}
	}
	return p, nil
}

// lockRange takes an fcntl lock on [lo, hi) for atomic mode; the returned
// function releases it.
func lockRange(fd uintptr, lo, hi int64, write bool) func() {
	typ := int16(syscall.F_RDLCK)
	if write {
		typ = syscall.F_WRLCK
	}
	lk := syscall.Flock_t{Type: typ, Whence: 0, Start: lo, Len: hi - lo}
	for syscall.FcntlFlock(fd, syscall.F_SETLKW, &lk) == syscall.EINTR {
	}
	return func() {
		lk.Type = syscall.F_UNLCK
		syscall.FcntlFlock(fd, syscall.F_SETLK, &lk)
	}
}

// Access is every blocking data access: at selects the positioning (off is
// used for AtExplicit), coll makes it a collective (_all) call.
func (f *File) Access(call string, write, coll bool, at int, off int64, buf unsafe.Pointer, count int, dt *datatype.Type) (Status, error) {
	st := Status{Source: abi.AnySource, Tag: abi.AnyTag}
	n, err := f.accessCheck(call, write, at, count, dt)
	if err == nil {
		switch at {
		case AtIndividual:
			off = f.pos
		case AtShared:
			off, err = f.sharedAdd(n / f.view.Etype)
			if err != nil {
				return st, f.raise(errf(abi.ErrIO, call, "shared file pointer: %v", err))
			}
		}
	}
	got, err := f.transfer(call, write, coll, off, buf, count, dt, n, err)
	if err != nil && got == 0 {
		return st, err
	}
	if at == AtIndividual {
		f.pos += got / f.view.Etype
	}
	st.Count = int(got)
	if f.datarep == "external32" && dt.Size > 0 {
		st.Count = int(got / dt.ExternalSize(1) * int64(dt.Size))
	}
	return st, err
}

// Ordered is MPI_File_read_ordered / write_ordered: collective accesses
// through the shared pointer in rank order.
func (f *File) Ordered(call string, write bool, buf unsafe.Pointer, count int, dt *datatype.Type) (Status, error) {
	st := Status{Source: abi.AnySource, Tag: abi.AnyTag}
	n, err := f.accessCheck(call, write, AtShared, count, dt)
	if err != nil {
		n = 0
	}
	ets := n / f.view.Etype
	counts, cerr := allInts(f.comm, ets)
	if cerr != nil {
		return st, cerr
	}
	var before, total int64
	for r, c := range counts {
		if r < f.comm.Rank() {
			before += c
		}
		total += c
	}
	var base int64
	if f.comm.Rank() == 0 {
		base, err = f.sharedAdd(total)
		if err != nil {
			base = -1
		}
	}
	if cerr := f.comm.Bcast(unsafe.Pointer(&base), 1, i64, 0); cerr != nil {
		return st, cerr
	}
	if base < 0 {
		return st, f.raise(errf(abi.ErrIO, call, "shared file pointer unavailable"))
	}
	if n > 0 && err == nil {
		got, terr := f.transfer(call, write, false, base+before, buf, count, dt, n, nil)
		st.Count, err = int(got), terr
	}
	if write {
		f.comm.Barrier()
	}
	return st, err
}

// SplitBegin runs a split collective's work at once; SplitEnd returns its
// status. One split collective may be pending per file.
func (f *File) SplitBegin(call string, run func() (Status, error)) error {
	if f.split != nil {
		return f.raise(errf(abi.ErrOther, call, "another split collective is pending on this file"))
	}
	s, err := run()
	f.split = &splitOp{status: s, err: err}
	return nil
}

func (f *File) SplitEnd(call string) (Status, error) {
	if f.split == nil {
		return Status{}, f.raise(errf(abi.ErrOther, call, "no split collective was begun"))
	}
	op := f.split
	f.split = nil
	return op.status, op.err
}

// DoneRequestStatus is an already completed request carrying s (file
// operations run to completion when started).
func DoneRequestStatus(s Status) *Request {
	r := st.eng.NewRequest()
	r.Kind = pml.KindSend // its status is returned as recorded
	st.eng.CompleteNow(r, s)
	return r
}
