package mpi

import (
	"runtime"
	"sync/atomic"

	"gompi/pml"
)

// Nonblocking file operations (MPI_File_iread..., iwrite..._all and the
// split collectives) run on a goroutine, one operation at a time per file
// in the order they were started, so the caller computes meanwhile. The
// goroutine does the file I/O, packing and unpacking itself; it never
// touches the engine (which is single-threaded below MPI_THREAD_MULTIPLE):
// the collective steps of an _all operation (span exchange, two-phase data
// exchange) are handed to the MPI thread, which starts them as nonblocking
// collectives on the file's private communicator from a progress hook and
// hands back their outcome. Every rank starts a file's operations in the
// same order and a file's blocking collective calls first drain its queue,
// so the collectives on that communicator match. Completion (status, error)
// reaches the request from the same hook, so Wait/Test see file requests
// like any other. Collective steps advance while the process is inside MPI
// (weak progress); pure file I/O advances regardless.

// ioExec runs an access's communication: inline and blocking when nil (the
// blocking calls), else through the MPI thread (nonblocking ones).
type ioExec struct {
	ask   chan func(CollMode) (*Request, error)
	reply chan error
	cur   *Request // collective in flight for the worker (MPI thread only)
}

// coll runs one collective step.
func (x *ioExec) coll(fn func(CollMode) (*Request, error)) error {
	if x == nil {
		_, err := fn(Blocking)
		return err
	}
	x.ask <- fn
	return <-x.reply
}

// raise reports an access error: through f's handler at once for blocking
// calls; nonblocking ones carry it to the request's completion.
func (x *ioExec) raise(f *File, e *Error) error {
	if x == nil {
		return f.raise(e)
	}
	return e
}

// fileReq is one queued nonblocking file operation.
type fileReq struct {
	f       *File
	req     *Request
	run     func(x *ioExec) (Status, error)
	x       ioExec
	started bool
	done    atomic.Bool
	status  Status
	err     error
}

var (
	busyFiles []*File
	fileHook  pml.Hook
)

func init() { fileHook = advanceFiles }

// startAsync queues run as a nonblocking operation on f and returns its
// request. A nil request is queued with no user handle (a collective a rank
// must join although its own arguments were wrong).
func (f *File) startAsync(run func(x *ioExec) (Status, error), user bool) *Request {
	r := st.eng.NewRequest()
	r.Kind = KindExt
	r.Comm = f.comm.pc
	st.eng.Activate(r)
	op := &fileReq{f: f, req: r, run: run}
	op.x.ask = make(chan func(CollMode) (*Request, error), 1)
	op.x.reply = make(chan error, 1)
	r.User = op
	if !user {
		r.Freed = true
	}
	if len(f.queue) == 0 {
		if len(busyFiles) == 0 {
			st.eng.AddHook(&fileHook)
			st.eng.SetKeepAwake(true) // the worker cannot ring the idler
		}
		busyFiles = append(busyFiles, f)
	}
	f.queue = append(f.queue, op)
	f.advance() // start the worker and its first collective step now
	return r
}

// advance moves f's head operation on; it returns the events handled.
func (f *File) advance() int {
	n := 0
	for len(f.queue) > 0 {
		op := f.queue[0]
		if !op.started {
			op.started = true
			go func() {
				op.status, op.err = op.run(&op.x)
				op.done.Store(true)
			}()
		}
		x := &op.x
		if x.cur == nil {
			select {
			case fn := <-x.ask:
				r, err := fn(Nonblocking)
				if err != nil || r == nil {
					x.reply <- err
				} else {
					x.cur = r
				}
				n++
			default:
			}
		}
		if x.cur != nil && x.cur.Done() {
			s := Finish(x.cur)
			x.cur = nil
			var err error
			if s.Err != 0 {
				err = errf(s.Err, "file collective", "a collective step failed")
			}
			x.reply <- err
			n++
		}
		if !op.done.Load() {
			return n
		}
		s := op.status
		if op.err != nil {
			s.Err = Code(op.err)
		}
		f.queue[0] = nil
		f.queue = f.queue[1:]
		st.eng.CompleteNow(op.req, s)
		n++
	}
	return n
}

func advanceFiles() int {
	n := 0
	kept := busyFiles[:0]
	for _, f := range busyFiles {
		n += f.advance()
		if len(f.queue) > 0 {
			kept = append(kept, f)
		}
	}
	if len(kept) > 0 && n == 0 {
		// A rank bound to one core runs Go with GOMAXPROCS=1: the workers
		// get the processor only when this thread gives it up (it does
		// when it returns to the user's C code, which is what lets I/O
		// overlap computation).
		runtime.Gosched()
	}
	clear(busyFiles[len(kept):])
	busyFiles = kept
	if len(busyFiles) == 0 {
		st.eng.RemoveHook(&fileHook)
		st.eng.SetKeepAwake(false)
	}
	return n
}

// drain completes f's queued operations (collective file calls do this
// first, so their collectives follow the queued ones' on every rank).
func (f *File) drain() {
	spins := 0
	for len(f.queue) > 0 {
		if st.eng.Progress() == 0 {
			st.eng.Backoff(&spins)
		} else {
			spins = 0
		}
	}
}

// fileFailure is the last failed file request collected by Finish, kept
// for StatusError to raise through the file's handler (the request itself
// is released by then).
type fileFailure struct {
	f   *File
	err error
}

var lastFileErr fileFailure

// finishFileReq notes a failing file request before it is released.
func finishFileReq(r *Request) {
	if op, ok := r.User.(*fileReq); ok {
		if op.err != nil {
			lastFileErr = fileFailure{op.f, op.err}
		}
		r.User = nil
	}
}

// raiseFileStatus raises the last failed file request's error through its
// file's handler; ok is false when the failure was not a file's.
func raiseFileStatus(code int) (error, bool) {
	ff := lastFileErr
	lastFileErr = fileFailure{}
	if ff.f == nil {
		return nil, false
	}
	e, ok := ff.err.(*Error)
	if !ok || e.code() != code {
		return nil, false
	}
	return ff.f.raise(e), true
}
