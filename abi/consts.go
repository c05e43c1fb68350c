package abi

// Predefined reduction operations (builtin op handles).
const (
	OpMax     int32 = 0x58000001
	OpMin     int32 = 0x58000002
	OpSum     int32 = 0x58000003
	OpProd    int32 = 0x58000004
	OpLand    int32 = 0x58000005
	OpBand    int32 = 0x58000006
	OpLor     int32 = 0x58000007
	OpBor     int32 = 0x58000008
	OpLxor    int32 = 0x58000009
	OpBxor    int32 = 0x5800000a
	OpMinloc  int32 = 0x5800000b
	OpMaxloc  int32 = 0x5800000c
	OpReplace int32 = 0x5800000d
	OpNoOp    int32 = 0x5800000e
)

// Predefined attribute keyvals. MPICH encodes them as builtin keyval
// handles; the Fortran flavour of each is the C value plus one.
const (
	AttrTagUB           int32 = 0x64400001
	AttrHost            int32 = 0x64400003
	AttrIO              int32 = 0x64400005
	AttrWtimeIsGlobal   int32 = 0x64400007
	AttrUniverseSize    int32 = 0x64400009
	AttrLastUsedCode    int32 = 0x6440000b
	AttrAppnum          int32 = 0x6440000d
	AttrWinBase         int32 = 0x66000001
	AttrWinSize         int32 = 0x66000003
	AttrWinDispUnit     int32 = 0x66000005
	AttrWinCreateFlavor int32 = 0x66000007
	AttrWinModel        int32 = 0x66000009
)

// Window flavors and memory models (values of MPI_WIN_CREATE_FLAVOR and
// MPI_WIN_MODEL).
const (
	WinFlavorCreate   = 1
	WinFlavorAllocate = 2
	WinFlavorDynamic  = 3
	WinFlavorShared   = 4
	WinSeparate       = 1
	WinUnified        = 2
)

// Topology kinds returned by MPI_Topo_test.
const (
	TopoGraph     = 1
	TopoCart      = 2
	TopoDistGraph = 3
)

// Datatype combiners returned by MPI_Type_get_envelope.
const (
	CombinerNamed           = 1
	CombinerDup             = 2
	CombinerContiguous      = 3
	CombinerVector          = 4
	CombinerHvectorInteger  = 5
	CombinerHvector         = 6
	CombinerIndexed         = 7
	CombinerHindexedInteger = 8
	CombinerHindexed        = 9
	CombinerIndexedBlock    = 10
	CombinerStructInteger   = 11
	CombinerStruct          = 12
	CombinerSubarray        = 13
	CombinerDarray          = 14
	CombinerF90Real         = 15
	CombinerF90Complex      = 16
	CombinerF90Integer      = 17
	CombinerResized         = 18
	CombinerHindexedBlock   = 19
	TypeclassReal           = 1
	TypeclassInteger        = 2
	TypeclassComplex        = 3
	OrderC                  = 56
	OrderFortran            = 57
	DistributeBlock         = 121
	DistributeCyclic        = 122
	DistributeNone          = 123
	DistributeDfltDarg      = -49767
	BsendOverhead           = 96
	CommTypeShared          = 1
	CommTypeHwGuided        = 2
	CommTypeHwUnguided      = 3
	CommTypeResourceGuided  = 4 // MPI-4.1; MPICH 4.2's value (4.0.2 lacks it)
	MaxStringtagLen         = 256
	MaxPsetNameLen          = 256
	MaxDatarepString        = 128
	DisplacementCurrent     = -54278278
	StatusSizeFortran       = 5 // MPI_STATUS_SIZE / MPI_F_STATUS_SIZE, in MPI_Fint
	StatusSourceFortran     = 2 // MPI_F_SOURCE: 0-based index of MPI_SOURCE
	StatusTagFortran        = 3
	StatusErrorFortran      = 4
)

// One-sided assertions and lock types.
const (
	ModeNocheck       = 1024
	ModeNostore       = 2048
	ModeNoput         = 4096
	ModeNoprecede     = 8192
	ModeNosucceed     = 16384
	LockExclusive     = 234
	LockShared        = 235
	ModeCreate        = 1
	ModeRdonly        = 2
	ModeWronly        = 4
	ModeRdwr          = 8
	ModeDeleteOnClose = 16
	ModeUniqueOpen    = 32
	ModeExcl          = 64
	ModeAppend        = 128
	ModeSequential    = 256
	SeekSet           = 600
	SeekCur           = 602
	SeekEnd           = 604
)

// MPI_T error classes and enumerations (MPICH values).
const (
	TErrMemory          = 59
	TErrNotInitialized  = 60
	TErrCannotInit      = 61
	TErrInvalidIndex    = 62
	TErrInvalidItem     = 63
	TErrInvalidHandle   = 64
	TErrOutOfHandles    = 65
	TErrOutOfSessions   = 66
	TErrInvalidSession  = 67
	TErrCvarSetNotNow   = 68
	TErrCvarSetNever    = 69
	TErrPvarNoStartstop = 70
	TErrPvarNoWrite     = 71
	TErrPvarNoAtomic    = 72
	TErrInvalidName     = 73
	TErrInvalid         = 74
	TErrNotSupported    = 78
	TErrNotAccessible   = 79 // MPI-4.1; MPICH 4.2's value (4.0.2 lacks it)

	TVerbosityUserBasic    = 221
	TVerbosityUserDetail   = 222
	TVerbosityUserAll      = 223
	TVerbosityTunerBasic   = 224
	TVerbosityTunerDetail  = 225
	TVerbosityTunerAll     = 226
	TVerbosityMpidevBasic  = 227
	TVerbosityMpidevDetail = 228
	TVerbosityMpidevAll    = 229

	TBindNoObject      = 9700
	TBindMPIComm       = 9701
	TBindMPIDatatype   = 9702
	TBindMPIErrhandler = 9703
	TBindMPIFile       = 9704
	TBindMPIGroup      = 9705
	TBindMPIOp         = 9706
	TBindMPIRequest    = 9707
	TBindMPIWin        = 9708
	TBindMPIMessage    = 9709
	TBindMPIInfo       = 9710

	TScopeConstant = 60438
	TScopeReadonly = 60439
	TScopeLocal    = 60440
	TScopeGroup    = 60441
	TScopeGroupEq  = 60442
	TScopeAll      = 60443
	TScopeAllEq    = 60444

	TPvarClassState         = 240
	TPvarClassLevel         = 241
	TPvarClassSize          = 242
	TPvarClassPercentage    = 243
	TPvarClassHighwatermark = 244
	TPvarClassLowwatermark  = 245
	TPvarClassCounter       = 246
	TPvarClassAggregate     = 247
	TPvarClassTimer         = 248
	TPvarClassGeneric       = 249
)

// Special pointer values as MPICH defines them.
const (
	InPlaceAddr         = -1 // MPI_IN_PLACE is (void *)-1
	BufferAutomaticAddr = -2 // MPI_BUFFER_AUTOMATIC (MPI-4.1) is (void *)-2 in MPICH 4.2
	BottomAddr          = 0  // MPI_BOTTOM is (void *)0
	StatusIgnoreAddr    = 1  // MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE
	FilePtrNull         = 0  // MPI_FILE_NULL: MPI_File is a pointer in MPICH's ABI
	ErrcodesIgnoreAddr  = 0
)
