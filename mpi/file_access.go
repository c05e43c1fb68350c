package mpi

import (
	"errors"
	"io"
	"syscall"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	fio "gompi/io"
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
	n := f.fileBytes(count, dt, write)
	if n < 0 {
		return 0, f.raise(errf(abi.ErrConversion, call, "the datatype has no form in data representation %s", f.datarep))
	}
	if n%f.view.Etype != 0 {
		return 0, f.raise(errf(abi.ErrType, call, "the data is not a whole number of etypes"))
	}
	return n, nil
}

// transfer moves count elements of dt at buf to or from the view's data
// bytes starting at etype offset off; it returns the bytes moved. coll runs
// the collective (two-phase) path, which every rank must enter, even with
// nothing to move or after a local error (err0). x runs the communication
// (nil: blocking, on this thread).
func (f *File) transfer(x *ioExec, call string, write, coll bool, off int64, buf unsafe.Pointer, count int, dt *datatype.Type, n int64, err0 error) (int64, error) {
	if err0 == nil && n > 0 && off < 0 {
		err0 = x.raise(f, errf(abi.ErrArg, call, "negative offset %d", off))
	}
	var data []byte
	var segs []fio.Block
	conv := f.converted(write)
	direct := dt.Contig && !conv
	if err0 == nil && n > 0 {
		segs = f.view.Segments(nil, off*f.view.Etype, n)
		if direct {
			data = unsafe.Slice((*byte)(buf), n)
		} else {
			data = make([]byte, n)
			if write {
				if conv {
					if rc := f.encode(data, buf, count, dt, 0); rc != 0 {
						err0 = x.raise(f, errf(rc, call, "the write conversion function failed"))
					}
				} else {
					dt.Pack(data, buf, count, 0)
				}
			}
		}
		if err0 != nil {
			segs = nil
		}
	}
	var got int64
	var err error
	done := false
	if coll && !f.atomic {
		got, done, err = f.twoPhase(x, call, write, data, segs)
	}
	barrier := func() error { return x.coll(func(m CollMode) (*Request, error) { return f.comm.BarrierAs(m) }) }
	if err0 != nil {
		if coll && !done && write {
			barrier()
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
				err = x.raise(f, errf(ioClass(err), call, "%v", err))
			}
		}
		if coll && write {
			// Collective writes end together, so data written by one rank is
			// there for any rank's next access (as two-phase I/O gives).
			if berr := barrier(); err == nil && berr != nil {
				err = berr
			}
		}
	}
	if !write && !direct && got > 0 {
		if conv {
			one := f.fileBytes(1, dt, false)
			whole := int(got / one)
			if rc := f.decode(buf, whole, dt, data[:int64(whole)*one], 0); rc != 0 && err == nil {
				err = x.raise(f, errf(rc, call, "the read conversion function failed"))
			}
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

// position validates an access and finds its starting offset (etypes) and
// byte count; nonblocking accesses (nb) move the individual pointer now.
func (f *File) position(call string, write bool, at int, off int64, count int, dt *datatype.Type, nb bool) (int64, int64, error) {
	n, err := f.accessCheck(call, write, at, count, dt)
	if err != nil {
		return 0, 0, err
	}
	switch at {
	case AtIndividual:
		off = f.pos
		if nb {
			f.pos += n / f.view.Etype
		}
	case AtShared:
		off, err = f.sharedAdd(n / f.view.Etype)
		if err != nil {
			return 0, 0, f.raise(errf(abi.ErrIO, call, "shared file pointer: %v", err))
		}
	}
	return off, n, nil
}

// accessRun does a validated access (or joins the collective after a local
// error err0) and returns its status and the bytes moved.
func (f *File) accessRun(x *ioExec, call string, write, coll bool, off int64, buf unsafe.Pointer, count int, dt *datatype.Type, n int64, err0 error) (Status, int64, error) {
	st := Status{Source: abi.AnySource, Tag: abi.AnyTag}
	got, err := f.transfer(x, call, write, coll, off, buf, count, dt, n, err0)
	if err != nil && got == 0 {
		return st, 0, err
	}
	st.Count = int(got)
	if f.converted(write) && dt.Size > 0 {
		if one := f.fileBytes(1, dt, write); one > 0 {
			st.Count = int(got / one * int64(dt.Size))
		}
	}
	return st, got, err
}

// Access is every blocking data access: at selects the positioning (off is
// used for AtExplicit), coll makes it a collective (_all) call.
func (f *File) Access(call string, write, coll bool, at int, off int64, buf unsafe.Pointer, count int, dt *datatype.Type) (Status, error) {
	if coll {
		f.drain()
	}
	off, n, err := f.position(call, write, at, off, count, dt, false)
	if err != nil && (!coll || at == AtShared) {
		return Status{Source: abi.AnySource, Tag: abi.AnyTag}, err
	}
	st, got, err := f.accessRun(nil, call, write, coll, off, buf, count, dt, n, err)
	if at == AtIndividual {
		f.pos += got / f.view.Etype
	}
	return st, err
}

// AccessNB starts a nonblocking data access (MPI_File_iread... and the
// _begin halves of split collectives) on f's worker.
func (f *File) AccessNB(call string, write, coll bool, at int, off int64, buf unsafe.Pointer, count int, dt *datatype.Type) (*Request, error) {
	off, n, err := f.position(call, write, at, off, count, dt, true)
	if err != nil && !coll {
		return nil, err
	}
	// A collective with a bad local argument still joins the others (with
	// no handle for the user), so their operation completes.
	r := f.startAsync(func(x *ioExec) (Status, error) {
		st, _, e := f.accessRun(x, call, write, coll, off, buf, count, dt, n, err)
		return st, e
	}, err == nil)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Ordered is MPI_File_read_ordered / write_ordered: collective accesses
// through the shared pointer in rank order.
func (f *File) Ordered(call string, write bool, buf unsafe.Pointer, count int, dt *datatype.Type) (Status, error) {
	f.drain()
	n, err := f.accessCheck(call, write, AtShared, count, dt)
	return f.ordered(nil, call, write, buf, count, dt, n, err)
}

// OrderedNB starts read_ordered_begin / write_ordered_begin.
func (f *File) OrderedNB(call string, write bool, buf unsafe.Pointer, count int, dt *datatype.Type) (*Request, error) {
	n, err := f.accessCheck(call, write, AtShared, count, dt)
	r := f.startAsync(func(x *ioExec) (Status, error) {
		return f.ordered(x, call, write, buf, count, dt, n, err)
	}, err == nil)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (f *File) ordered(x *ioExec, call string, write bool, buf unsafe.Pointer, count int, dt *datatype.Type, n int64, err error) (Status, error) {
	st := Status{Source: abi.AnySource, Tag: abi.AnyTag}
	if err != nil {
		n = 0
	}
	ets := n / f.view.Etype
	counts, cerr := f.allInts(x, ets)
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
		var serr error
		base, serr = f.sharedAdd(total)
		if serr != nil {
			base = -1
		}
	}
	if cerr := x.coll(func(m CollMode) (*Request, error) { return f.comm.BcastAs(m, unsafe.Pointer(&base), 1, i64, 0) }); cerr != nil {
		return st, cerr
	}
	if base < 0 {
		return st, x.raise(f, errf(abi.ErrIO, call, "shared file pointer unavailable"))
	}
	if n > 0 && err == nil {
		got, terr := f.transfer(x, call, write, false, base+before, buf, count, dt, n, nil)
		st.Count, err = int(got), terr
	}
	if write {
		x.coll(func(m CollMode) (*Request, error) { return f.comm.BarrierAs(m) })
	}
	return st, err
}

// allInts gathers one int64 per rank of f's communicator through x.
func (f *File) allInts(x *ioExec, v int64) ([]int64, error) {
	out := make([]int64, f.comm.Size())
	err := x.coll(func(m CollMode) (*Request, error) {
		return f.comm.AllgatherAs(m, unsafe.Pointer(&v), 1, i64, unsafe.Pointer(&out[0]), 1, i64)
	})
	return out, err
}

// SplitBegin starts a split collective (one may be pending per file);
// SplitEnd waits for it and returns its status.
func (f *File) SplitBegin(call string, start func() (*Request, error)) error {
	if f.split != nil {
		return f.raise(errf(abi.ErrOther, call, "another split collective is pending on this file"))
	}
	r, err := start()
	if err != nil {
		return err
	}
	f.split = r
	return nil
}

func (f *File) SplitEnd(call string) (Status, error) {
	if f.split == nil {
		return Status{}, f.raise(errf(abi.ErrOther, call, "no split collective was begun"))
	}
	r := f.split
	f.split = nil
	op := r.User.(*fileReq)
	st.eng.Wait(r)
	s := Finish(r)
	lastFileErr = fileFailure{}
	if op.err != nil {
		e, ok := op.err.(*Error)
		if !ok {
			e = errf(abi.ErrIO, call, "%v", op.err)
		}
		return s, f.raise(e)
	}
	return s, nil
}
