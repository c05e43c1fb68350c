// Package abi holds the MPICH-compatible ABI values: handle encodings,
// error classes and special integers. These Go constants are the single
// source for include/mpi.h (generated from the table in this package) and
// for the Go side of the library.
package abi

// Handle kinds, as MPICH encodes them in the top bits of an integer handle.
const (
	KindInvalid  = 0x0
	KindBuiltin  = 0x1
	KindDirect   = 0x2
	KindIndirect = 0x3
)

// Object types, bits 26..29 of a handle.
const (
	ObjComm       = 0x1
	ObjGroup      = 0x2
	ObjDatatype   = 0x3
	ObjFile       = 0x4
	ObjErrhandler = 0x5
	ObjOp         = 0x6
	ObjInfo       = 0x7
	ObjWin        = 0x8
	ObjKeyval     = 0x9
	ObjAttr       = 0xa
	ObjRequest    = 0xb
	ObjSession    = 0xe
)

// MakeHandle builds a handle from kind, object type and index.
func MakeHandle(kind, obj, index uint32) int32 {
	return int32(kind<<30 | obj<<26 | index&0x03ffffff)
}

// HandleKind and HandleObj decode a handle.
func HandleKind(h int32) uint32  { return uint32(h) >> 30 }
func HandleObj(h int32) uint32   { return uint32(h) >> 26 & 0xf }
func HandleIndex(h int32) uint32 { return uint32(h) & 0x03ffffff }

// Predefined handles.
const (
	CommNull       int32 = 0x04000000
	CommWorld      int32 = 0x44000000
	CommSelf       int32 = 0x44000001
	OpNull         int32 = 0x18000000
	GroupNull      int32 = 0x08000000
	GroupEmpty     int32 = 0x48000000
	DatatypeNull   int32 = 0x0c000000
	RequestNull    int32 = 0x2c000000
	ErrhandlerNull int32 = 0x14000000
	MessageNull    int32 = 0x2c000000
	MessageNoProc  int32 = 0x6c000000
	WinNull        int32 = 0x20000000
	FileNull       int32 = 0x10000000
	InfoNull       int32 = 0x1c000000
	InfoEnv        int32 = 0x5c000001
	SessionNull    int32 = 0x38000000

	ErrorsAreFatal int32 = 0x54000000
	ErrorsReturn   int32 = 0x54000001
	ErrorsAbort    int32 = 0x54000003
)

// Special integers.
const (
	ProcNull                = -1
	AnySource               = -2
	Root                    = -3
	AnyTag                  = -1
	Undefined               = -32766
	KeyvalInvalid           = 0x24000000
	MaxProcessorName        = 128
	MaxErrorString          = 512
	MaxObjectName           = 128
	MaxLibraryVersionString = 8192
	MaxInfoKey              = 255
	MaxInfoVal              = 1024
	MaxPortName             = 256
	Version                 = 4
	Subversion              = 1
	TagUB                   = 0x7fffffff

	ThreadSingle     = 0
	ThreadFunneled   = 1
	ThreadSerialized = 2
	ThreadMultiple   = 3

	Ident     = 0
	Congruent = 1
	Similar   = 2
	Unequal   = 3
)

// Error classes (MPICH values).
const (
	Success                 = 0
	ErrBuffer               = 1
	ErrCount                = 2
	ErrType                 = 3
	ErrTag                  = 4
	ErrComm                 = 5
	ErrRank                 = 6
	ErrRoot                 = 7
	ErrGroup                = 8
	ErrOp                   = 9
	ErrTopology             = 10
	ErrDims                 = 11
	ErrArg                  = 12
	ErrUnknown              = 13
	ErrTruncate             = 14
	ErrOther                = 15
	ErrIntern               = 16
	ErrInStatus             = 17
	ErrPending              = 18
	ErrRequest              = 19
	ErrAccess               = 20
	ErrAmode                = 21
	ErrBadFile              = 22
	ErrConversion           = 23
	ErrDupDatarep           = 24
	ErrFileExists           = 25
	ErrFileInUse            = 26
	ErrFile                 = 27
	ErrInfo                 = 28
	ErrInfoKey              = 29
	ErrInfoValue            = 30
	ErrInfoNokey            = 31
	ErrIO                   = 32
	ErrName                 = 33
	ErrNoMem                = 34
	ErrNotSame              = 35
	ErrNoSpace              = 36
	ErrNoSuchFile           = 37
	ErrPort                 = 38
	ErrQuota                = 39
	ErrReadOnly             = 40
	ErrService              = 41
	ErrSpawn                = 42
	ErrUnsupportedDatarep   = 43
	ErrUnsupportedOperation = 44
	ErrWin                  = 45
	ErrBase                 = 46
	ErrLocktype             = 47
	ErrKeyval               = 48
	ErrRmaConflict          = 49
	ErrRmaSync              = 50
	ErrSize                 = 51
	ErrDisp                 = 52
	ErrAssert               = 53
	ErrRmaRange             = 55
	ErrRmaAttach            = 56
	ErrRmaShared            = 57
	ErrRmaFlavor            = 58
	ErrSession              = 75
	ErrProcAborted          = 76
	ErrValueTooLarge        = 77
	ErrErrhandler           = 80 // MPI-4.1; MPICH 4.2's value (4.0.2 lacks it)
	ErrLastcode             = 0x3fffffff
)

// StatusSize is sizeof(MPI_Status): count_lo, count_hi_and_cancelled,
// MPI_SOURCE, MPI_TAG, MPI_ERROR, all int.
const StatusSize = 20
