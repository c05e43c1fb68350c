package mpi

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/info"
	fio "gompi/io"
)

// File is an open MPI file. Each rank holds its own descriptor; the ranks
// agree through a private duplicate of the opening communicator, so file
// collectives never match user traffic.
type File struct {
	Handle int32
	comm   *Comm
	fd     *os.File
	name   string
	amode  int
	errh   *Errhandler
	info   *info.Info
	atomic bool

	view          *fio.View
	etype, ftype  *datatype.Type
	datarep       string
	rep           *Datarep // a user representation's callbacks, else nil
	pos           int64    // individual file pointer, in etypes
	shfp          string
	shfd          *os.File
	split         *Request // pending split collective
	deleteOnClose bool
	queue         []*fileReq // nonblocking operations, oldest first (file_async.go)
	shmu          sync.Mutex // the shared pointer, against this process's worker
}

var files objTable[File]

// fileNullErrh is MPI_FILE_NULL's handler: the handler of failed opens and
// the one new files start with (MPI_ERRORS_RETURN, as the standard says).
var fileNullErrh = ErrorsReturn

// FileFromHandle resolves a file handle (nil when not a live file).
func FileFromHandle(h int32) *File {
	if abi.HandleKind(h) != abi.KindDirect || abi.HandleObj(h) != abi.ObjFile {
		return nil
	}
	return files.get(int(abi.HandleIndex(h)))
}

// LiveFiles counts open files (for leak tests).
func LiveFiles() int { return files.live() }

// FileNullErrhandler and SetFileNullErrhandler are MPI_FILE_NULL's handler.
func FileNullErrhandler() *Errhandler     { return fileNullErrh }
func SetFileNullErrhandler(h *Errhandler) { fileNullErrh = h }

func (f *File) Errhandler() *Errhandler     { return f.errh }
func (f *File) SetErrhandler(h *Errhandler) { f.errh = h }
func (f *File) Amode() int                  { return f.amode }
func (f *File) Comm() *Comm                 { return f.comm }
func (f *File) Atomicity() bool             { return f.atomic }

// RaiseFile applies f's handler (MPI_FILE_NULL's when f is nil) to an error.
func RaiseFile(f *File, class int, call, detail string) error {
	return f.raise(&Error{Class: class, Call: call, Detail: detail})
}

func (f *File) raise(e *Error) error {
	h := fileNullErrh
	if f != nil {
		h = f.errh
	}
	if e.ErrCode == 0 || e.ErrCode == e.Class {
		lastError[e.Class] = e.Error()
	}
	switch h.Kind {
	case ErrhReturn:
	case ErrhUser:
		if h.FileFn != nil {
			h.FileFn(f, e.code())
		}
	default:
		where := "MPI_FILE_NULL"
		if f != nil {
			where = "file " + f.name
		}
		fatal(e.Class, fmt.Sprintf("%s on %s", e.Error(), where))
	}
	return e
}

// CallErrhandler is MPI_File_call_errhandler.
func (f *File) CallErrhandler(code int) error {
	class, ok := ErrorClass(code)
	if !ok {
		class = abi.ErrUnknown
	}
	f.raise(&Error{Class: class, Call: "MPI_File_call_errhandler", ErrCode: code, Detail: fmt.Sprintf("error code %d", code)})
	return nil
}

// ioClass maps an operating-system error to its MPI error class.
func ioClass(err error) int {
	var en syscall.Errno
	if !errors.As(err, &en) {
		return abi.ErrIO
	}
	switch en {
	case syscall.ENOENT:
		return abi.ErrNoSuchFile
	case syscall.EACCES, syscall.EPERM:
		return abi.ErrAccess
	case syscall.EEXIST:
		return abi.ErrFileExists
	case syscall.EISDIR, syscall.ENAMETOOLONG, syscall.ENOTDIR, syscall.EINVAL:
		return abi.ErrBadFile
	case syscall.ENOSPC:
		return abi.ErrNoSpace
	case syscall.EDQUOT:
		return abi.ErrQuota
	case syscall.EROFS:
		return abi.ErrReadOnly
	case syscall.ETXTBSY, syscall.EBUSY:
		return abi.ErrFileInUse
	}
	return abi.ErrIO
}

// checkAmode applies the standard's rules on access modes.
func checkAmode(amode int) string {
	n := 0
	for _, m := range []int{abi.ModeRdonly, abi.ModeWronly, abi.ModeRdwr} {
		if amode&m != 0 {
			n++
		}
	}
	all := abi.ModeCreate | abi.ModeRdonly | abi.ModeWronly | abi.ModeRdwr | abi.ModeDeleteOnClose |
		abi.ModeUniqueOpen | abi.ModeExcl | abi.ModeAppend | abi.ModeSequential
	switch {
	case amode&^all != 0:
		return "unknown bits in amode"
	case n != 1:
		return "amode needs exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY, MPI_MODE_RDWR"
	case amode&abi.ModeRdonly != 0 && amode&(abi.ModeCreate|abi.ModeExcl) != 0:
		return "MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL"
	case amode&abi.ModeRdwr != 0 && amode&abi.ModeSequential != 0:
		return "MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL"
	}
	return ""
}

func osFlags(amode int, creator bool) int {
	fl := syscall.O_CLOEXEC
	switch {
	case amode&abi.ModeRdonly != 0:
		fl |= os.O_RDONLY
	case amode&abi.ModeWronly != 0:
		fl |= os.O_WRONLY
	default:
		fl |= os.O_RDWR
	}
	if creator {
		if amode&abi.ModeCreate != 0 {
			fl |= os.O_CREATE
		}
		if amode&abi.ModeExcl != 0 {
			fl |= os.O_EXCL
		}
	}
	return fl
}

var i64 = datatype.Predefined(abi.Int64)

// allInts gathers one int64 per rank of f's communicator.
func allInts(c *Comm, v int64) ([]int64, error) {
	out := make([]int64, c.Size())
	err := c.Allgather(unsafe.Pointer(&v), 1, i64, unsafe.Pointer(&out[0]), 1, i64)
	return out, err
}

func firstNonzero(vals []int64) int64 {
	for _, v := range vals {
		if v != 0 {
			return v
		}
	}
	return 0
}

var shfpSerial int

// OpenFile is MPI_File_open: collective over c.
func OpenFile(c *Comm, name string, amode int, in *info.Info) (*File, error) {
	const call = "MPI_File_open"
	if c.IsInter() {
		return nil, RaiseFile(nil, abi.ErrComm, call, "an intercommunicator cannot open files")
	}
	bad := checkAmode(amode)
	// Every rank must pass the same amode: agree on it and on local errors.
	modes, err := allInts(c, int64(amode))
	if err != nil {
		return nil, err
	}
	if bad != "" {
		return nil, RaiseFile(nil, abi.ErrAmode, call, bad)
	}
	for _, m := range modes {
		if m != int64(amode) {
			return nil, RaiseFile(nil, abi.ErrNotSame, call, "ranks passed different amodes")
		}
	}
	d, err := c.Dup()
	if err != nil {
		return nil, err
	}
	path := name
	if i := len("ufs:"); len(path) > i && path[:i] == "ufs:" { // ROMIO's file-system prefix
		path = path[i:]
	}
	// Rank 0 creates (MPI_MODE_EXCL must fail on all ranks or none), then the others open.
	var fd *os.File
	var class int64
	shfp := ""
	if d.Rank() == 0 {
		fd, err = os.OpenFile(path, osFlags(amode, true), 0o644)
		if err != nil {
			class = int64(ioClass(err))
		} else {
			shfpSerial++
			shfp = filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.gompi-shfp.%d.%d", filepath.Base(path), os.Getpid(), shfpSerial))
		}
	}
	hdr := [2]int64{class, int64(os.Getpid())<<20 | int64(shfpSerial)}
	if err := d.Bcast(unsafe.Pointer(&hdr[0]), 2, i64, 0); err != nil {
		return nil, err
	}
	if hdr[0] != 0 {
		d.Free()
		return nil, RaiseFile(nil, int(hdr[0]), call, fmt.Sprintf("cannot open %q", name))
	}
	if d.Rank() != 0 {
		fd, err = os.OpenFile(path, osFlags(amode, false), 0)
		if err != nil {
			class = int64(ioClass(err))
		}
		shfp = filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.gompi-shfp.%d.%d", filepath.Base(path), hdr[1]>>20, hdr[1]&(1<<20-1)))
	}
	f := &File{comm: d, fd: fd, name: name, amode: amode, errh: fileNullErrh, info: info.New(),
		etype: datatype.Predefined(abi.Byte), ftype: datatype.Predefined(abi.Byte), datarep: "native",
		view: fio.Contiguous(0, 1), shfp: shfp, deleteOnClose: amode&abi.ModeDeleteOnClose != 0}
	if in != nil {
		f.info = in.Dup()
	}
	if d.Rank() == 0 && class == 0 {
		var start int64
		if amode&abi.ModeAppend != 0 {
			start = f.size()
		}
		if err := os.WriteFile(shfp, ptrBytes(start), 0o600); err != nil {
			shfp = "" // shared-pointer calls will report MPI_ERR_IO
		}
	}
	classes, err := allInts(d, class)
	if err != nil {
		return nil, err
	}
	if cl := firstNonzero(classes); cl != 0 {
		if fd != nil {
			fd.Close()
		}
		if d.Rank() == 0 {
			os.Remove(f.shfp)
		}
		d.Free()
		return nil, RaiseFile(nil, int(cl), call, fmt.Sprintf("cannot open %q on every rank", name))
	}
	// Every rank holds the shared-pointer file open, then rank 0 unlinks it:
	// no side file outlives the job, even one that dies.
	f.sharedFile()
	if err := d.Barrier(); err != nil {
		return nil, err
	}
	if d.Rank() == 0 {
		os.Remove(shfp)
	}
	if amode&abi.ModeAppend != 0 {
		f.pos = f.size()
	}
	f.Handle = abi.MakeHandle(abi.KindDirect, abi.ObjFile, uint32(files.add(f)))
	return f, nil
}

func (f *File) size() int64 {
	st, err := f.fd.Stat()
	if err != nil {
		return 0
	}
	return st.Size()
}

// Close is MPI_File_close: collective.
func (f *File) Close() error {
	if f.split != nil {
		return f.raise(errf(abi.ErrOther, "MPI_File_close", "a split collective is still pending"))
	}
	f.drain()
	f.comm.Barrier() // nobody still uses the shared pointer or the file
	if f.shfd != nil {
		f.shfd.Close()
	}
	err := f.fd.Close()
	if f.comm.Rank() == 0 {
		if f.deleteOnClose {
			os.Remove(f.path())
		}
	}
	f.comm.Barrier()
	f.releaseView()
	f.comm.Free()
	files.remove(int(abi.HandleIndex(f.Handle)))
	if err != nil {
		return f.raise(errf(ioClass(err), "MPI_File_close", "%v", err))
	}
	return nil
}

func (f *File) path() string {
	if len(f.name) > 4 && f.name[:4] == "ufs:" {
		return f.name[4:]
	}
	return f.name
}

// DeleteFile is MPI_File_delete.
func DeleteFile(name string) error {
	path := name
	if len(path) > 4 && path[:4] == "ufs:" {
		path = path[4:]
	}
	if err := os.Remove(path); err != nil {
		return RaiseFile(nil, ioClass(err), "MPI_File_delete", fmt.Sprintf("cannot delete %q", name))
	}
	return nil
}

// SetSize is MPI_File_set_size (collective): truncate or extend.
func (f *File) SetSize(size int64, prealloc bool) error {
	call := "MPI_File_set_size"
	if prealloc {
		call = "MPI_File_preallocate"
	}
	if size < 0 {
		return f.raise(errf(abi.ErrArg, call, "negative size %d", size))
	}
	if f.amode&abi.ModeSequential != 0 {
		return f.raise(errf(abi.ErrUnsupportedOperation, call, "file opened with MPI_MODE_SEQUENTIAL"))
	}
	if f.amode&abi.ModeRdonly != 0 {
		return f.raise(errf(abi.ErrReadOnly, call, "file opened read-only"))
	}
	f.drain()
	sizes, err := allInts(f.comm, size)
	if err != nil {
		return err
	}
	for _, s := range sizes {
		if s != size {
			return f.raise(errf(abi.ErrNotSame, call, "ranks passed different sizes"))
		}
	}
	var class int64
	if f.comm.Rank() == 0 {
		if prealloc {
			if size > f.size() {
				err = f.fd.Truncate(size)
			}
		} else {
			err = f.fd.Truncate(size)
		}
		if err != nil {
			class = int64(ioClass(err))
		}
	}
	if err := f.comm.Bcast(unsafe.Pointer(&class), 1, i64, 0); err != nil {
		return err
	}
	if class != 0 {
		return f.raise(errf(int(class), call, "cannot resize %q", f.name))
	}
	return nil
}

// Size is MPI_File_get_size.
func (f *File) Size() (int64, error) {
	st, err := f.fd.Stat()
	if err != nil {
		return 0, f.raise(errf(ioClass(err), "MPI_File_get_size", "%v", err))
	}
	return st.Size(), nil
}

// Info returns the hints in use (a copy the caller owns): the user's, plus
// the collective-buffering settings in effect under ROMIO's names.
func (f *File) Info() *info.Info {
	in := f.info.Dup()
	defaults := map[string]string{"cb_nodes": strconv.Itoa(f.cbNodes()), "romio_cb_write": f.cbMode(true),
		"romio_cb_read": f.cbMode(false), "striping_unit": strconv.FormatInt(f.align(), 10),
		"cb_buffer_size": strconv.FormatInt(f.cbBuffer(), 10)}
	for _, k := range []string{"cb_nodes", "cb_buffer_size", "romio_cb_write", "romio_cb_read", "striping_unit"} {
		if _, ok := in.Lookup(k); !ok {
			in.Set(k, defaults[k])
		}
	}
	return in
}

// SetInfo merges new hints (collective in MPI; no hint needs agreement here).
func (f *File) SetInfo(in *info.Info) {
	if in == nil {
		return
	}
	f.drain() // the worker reads the hints
	for _, k := range in.Keys() {
		v, _ := in.Lookup(k)
		f.info.Set(k, v)
	}
}

// SetAtomicity is MPI_File_set_atomicity (collective).
func (f *File) SetAtomicity(flag bool) error {
	v := int64(0)
	if flag {
		v = 1
	}
	f.drain()
	all, err := allInts(f.comm, v)
	if err != nil {
		return err
	}
	for _, x := range all {
		if x != v {
			return f.raise(errf(abi.ErrNotSame, "MPI_File_set_atomicity", "ranks passed different flags"))
		}
	}
	f.atomic = flag
	return nil
}

// Sync is MPI_File_sync (collective): flush to storage, then a barrier so
// the sync-barrier-sync pattern orders writes before other ranks' reads.
func (f *File) Sync() error {
	f.drain()
	if f.amode&abi.ModeRdonly == 0 {
		if err := f.fd.Sync(); err != nil {
			return f.raise(errf(abi.ErrIO, "MPI_File_sync", "%v", err))
		}
	}
	return f.comm.Barrier()
}
