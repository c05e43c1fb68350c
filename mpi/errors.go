package mpi

import (
	"fmt"
	"os"

	"gompi/abi"
)

// Error is an MPI error: its class, the call that failed and what was wrong.
// ErrCode, when non-zero, is a more specific code than the class (a user
// code raised through MPI_Comm_call_errhandler).
type Error struct {
	Class   int
	Call    string
	Detail  string
	ErrCode int
}

func (e *Error) Error() string {
	what := ClassString(e.Class)
	if e.ErrCode != 0 && e.ErrCode != e.Class {
		what, _ = ErrorString(e.ErrCode)
	}
	if what == "" { // a user class or code without a string
		what = fmt.Sprintf("user error code %d", e.code())
	}
	if e.Detail == "" {
		return fmt.Sprintf("%s: %s", e.Call, what)
	}
	return fmt.Sprintf("%s: %s (%s)", e.Call, e.Detail, what)
}

// code is the error code handlers and callers see.
func (e *Error) code() int {
	if e.ErrCode != 0 {
		return e.ErrCode
	}
	return e.Class
}

func errf(class int, call, format string, args ...any) *Error {
	return &Error{Class: class, Call: call, Detail: fmt.Sprintf(format, args...)}
}

// Code returns the MPI error code of err (MPI_SUCCESS for nil).
func Code(err error) int {
	if err == nil {
		return abi.Success
	}
	if e, ok := err.(*Error); ok {
		return e.code()
	}
	return abi.ErrOther
}

// raise applies c's error handler to err and returns err for the caller.
func (c *Comm) raise(err *Error) error {
	h := ErrorsAreFatal
	if c != nil && c.errh != nil {
		h = c.errh
	}
	return raiseWith(h, c, err)
}

func raiseWith(h *Errhandler, c *Comm, err *Error) error {
	if err.ErrCode == 0 || err.ErrCode == err.Class {
		lastError[err.Class] = err.Error()
	}
	switch h.Kind {
	case ErrhReturn:
	case ErrhUser:
		h.Fn(c, err.code())
	default:
		where := "MPI_COMM_WORLD"
		if c != nil {
			where = c.Name()
			if where == "" { // an unnamed communicator: name its handle
				where = fmt.Sprintf("communicator %#x", uint32(c.Handle))
			}
		}
		fatal(err.Class, fmt.Sprintf("%s on %s", err.Error(), where))
	}
	return err
}

// fatal ends the whole job: the message names the call and the argument.
func fatal(code int, msg string) {
	rank := -1
	if st.pmi != nil {
		rank = st.rank
	}
	fmt.Fprintf(os.Stderr, "gompi: rank %d: fatal error: %s; aborting job\n", rank, msg)
	if code <= 0 || code > 255 {
		code = 1 // user classes do not fit an exit status
	}
	if st.pmi != nil && !st.stopped {
		st.pmi.Abort(code, msg)
	}
	os.Exit(code)
}

// notReady reports a call made before MPI_Init or after MPI_Finalize. There is
// no communicator yet, so the default handler (fatal) applies.
func notReady(call string) error {
	what := "before MPI_Init"
	if st.finalized || st.stopped {
		what = "after MPI_Finalize"
	}
	fmt.Fprintf(os.Stderr, "gompi: %s called %s: MPI is not initialized (MPI_ERR_OTHER); aborting\n", call, what)
	os.Exit(1)
	return nil
}

var classStrings = map[int]string{
	abi.Success:                 "no error",
	abi.ErrBuffer:               "invalid buffer pointer",
	abi.ErrCount:                "invalid count argument",
	abi.ErrType:                 "invalid datatype",
	abi.ErrTag:                  "invalid tag",
	abi.ErrComm:                 "invalid communicator",
	abi.ErrRank:                 "invalid rank",
	abi.ErrRoot:                 "invalid root",
	abi.ErrGroup:                "invalid group",
	abi.ErrOp:                   "invalid reduce operation",
	abi.ErrTopology:             "invalid topology",
	abi.ErrDims:                 "invalid dimension argument",
	abi.ErrArg:                  "invalid argument",
	abi.ErrUnknown:              "unknown error",
	abi.ErrTruncate:             "message truncated",
	abi.ErrOther:                "other error",
	abi.ErrIntern:               "internal error",
	abi.ErrInStatus:             "error code is in status",
	abi.ErrPending:              "pending request",
	abi.ErrRequest:              "invalid request",
	abi.ErrAccess:               "permission denied",
	abi.ErrAmode:                "invalid file access mode",
	abi.ErrBadFile:              "invalid file name",
	abi.ErrConversion:           "data conversion error",
	abi.ErrDupDatarep:           "data representation already defined",
	abi.ErrFileExists:           "file exists",
	abi.ErrFileInUse:            "file in use",
	abi.ErrFile:                 "invalid file handle",
	abi.ErrInfo:                 "invalid info object",
	abi.ErrInfoKey:              "invalid info key",
	abi.ErrInfoValue:            "invalid info value",
	abi.ErrInfoNokey:            "info key not defined",
	abi.ErrIO:                   "I/O error",
	abi.ErrName:                 "invalid service name",
	abi.ErrNoMem:                "out of memory",
	abi.ErrNotSame:              "collective arguments not identical",
	abi.ErrNoSpace:              "no space left",
	abi.ErrNoSuchFile:           "no such file",
	abi.ErrPort:                 "invalid port name",
	abi.ErrQuota:                "quota exceeded",
	abi.ErrReadOnly:             "read-only file or file system",
	abi.ErrService:              "invalid service",
	abi.ErrSpawn:                "spawn error",
	abi.ErrUnsupportedDatarep:   "unsupported data representation",
	abi.ErrUnsupportedOperation: "unsupported operation",
	abi.ErrWin:                  "invalid window",
	abi.ErrBase:                 "invalid base address",
	abi.ErrLocktype:             "invalid lock type",
	abi.ErrKeyval:               "invalid keyval",
	abi.ErrRmaConflict:          "conflicting accesses to window",
	abi.ErrRmaSync:              "wrong synchronization of RMA calls",
	abi.ErrSize:                 "invalid size",
	abi.ErrDisp:                 "invalid displacement",
	abi.ErrAssert:               "invalid assert",
	abi.ErrRmaRange:             "target memory not attached or out of range",
	abi.ErrRmaAttach:            "memory cannot be attached",
	abi.ErrRmaShared:            "memory cannot be shared",
	abi.ErrRmaFlavor:            "wrong window flavor",
	abi.ErrSession:              "invalid session",
	abi.ErrProcAborted:          "process aborted",
	abi.ErrValueTooLarge:        "value too large",
}

// ClassString is the standard description of an error class (or the text
// given to a user class or code).
func ClassString(class int) string {
	if s, ok := classStrings[class]; ok {
		return fmt.Sprintf("%s: %s", className(class), s)
	}
	if u, ok := userCodes[class]; ok {
		return u.text
	}
	return fmt.Sprintf("unknown error code %d", class)
}

func className(class int) string {
	if n, ok := classNames[class]; ok {
		return n
	}
	return "MPI_ERR_UNKNOWN"
}

// NotReady reports a call outside Init..Finalize (exported for the C layer).
func NotReady(call string) error { return notReady(call) }

// Raise applies c's error handler (MPI_COMM_WORLD's when c is nil) to a new error.
func Raise(c *Comm, class int, call, detail string) error {
	if c == nil {
		c = st.world
	}
	return c.raise(&Error{Class: class, Call: call, Detail: detail})
}

// lastError keeps the full text of the latest error raised in each class.
// Codes are classes (callers compare them), so this is how MPI_Error_string
// on the code a call just returned names that call and the bad argument.
var lastError = map[int]string{}

// ErrorString is the text MPI_Error_string returns for code: for a
// predefined class, the latest error of that class if there was one
// ("MPI_Send: rank 99 is not in ... (MPI_ERR_RANK: invalid rank)"), else
// the class's description.
func ErrorString(code int) (string, bool) {
	if _, ok := classStrings[code]; ok {
		if s, ok := lastError[code]; ok {
			return s, true
		}
		return ClassString(code), true
	}
	if u, ok := userCodes[code]; ok {
		return u.text, true
	}
	return "", false
}
