package mpi

import "gompi/abi"

var classNames = map[int]string{
	abi.Success: "MPI_SUCCESS", abi.ErrBuffer: "MPI_ERR_BUFFER", abi.ErrCount: "MPI_ERR_COUNT",
	abi.ErrType: "MPI_ERR_TYPE", abi.ErrTag: "MPI_ERR_TAG", abi.ErrComm: "MPI_ERR_COMM",
	abi.ErrRank: "MPI_ERR_RANK", abi.ErrRoot: "MPI_ERR_ROOT", abi.ErrGroup: "MPI_ERR_GROUP",
	abi.ErrOp: "MPI_ERR_OP", abi.ErrTopology: "MPI_ERR_TOPOLOGY", abi.ErrDims: "MPI_ERR_DIMS",
	abi.ErrArg: "MPI_ERR_ARG", abi.ErrUnknown: "MPI_ERR_UNKNOWN", abi.ErrTruncate: "MPI_ERR_TRUNCATE",
	abi.ErrOther: "MPI_ERR_OTHER", abi.ErrIntern: "MPI_ERR_INTERN", abi.ErrInStatus: "MPI_ERR_IN_STATUS",
	abi.ErrPending: "MPI_ERR_PENDING", abi.ErrRequest: "MPI_ERR_REQUEST", abi.ErrAccess: "MPI_ERR_ACCESS",
	abi.ErrAmode: "MPI_ERR_AMODE", abi.ErrBadFile: "MPI_ERR_BAD_FILE", abi.ErrConversion: "MPI_ERR_CONVERSION",
	abi.ErrDupDatarep: "MPI_ERR_DUP_DATAREP", abi.ErrFileExists: "MPI_ERR_FILE_EXISTS",
	abi.ErrFileInUse: "MPI_ERR_FILE_IN_USE", abi.ErrFile: "MPI_ERR_FILE", abi.ErrInfo: "MPI_ERR_INFO",
	abi.ErrInfoKey: "MPI_ERR_INFO_KEY", abi.ErrInfoValue: "MPI_ERR_INFO_VALUE",
	abi.ErrInfoNokey: "MPI_ERR_INFO_NOKEY", abi.ErrIO: "MPI_ERR_IO", abi.ErrName: "MPI_ERR_NAME",
	abi.ErrNoMem: "MPI_ERR_NO_MEM", abi.ErrNotSame: "MPI_ERR_NOT_SAME", abi.ErrNoSpace: "MPI_ERR_NO_SPACE",
	abi.ErrNoSuchFile: "MPI_ERR_NO_SUCH_FILE", abi.ErrPort: "MPI_ERR_PORT", abi.ErrQuota: "MPI_ERR_QUOTA",
	abi.ErrReadOnly: "MPI_ERR_READ_ONLY", abi.ErrService: "MPI_ERR_SERVICE", abi.ErrSpawn: "MPI_ERR_SPAWN",
	abi.ErrUnsupportedDatarep: "MPI_ERR_UNSUPPORTED_DATAREP", abi.ErrUnsupportedOperation: "MPI_ERR_UNSUPPORTED_OPERATION",
	abi.ErrWin: "MPI_ERR_WIN", abi.ErrBase: "MPI_ERR_BASE", abi.ErrLocktype: "MPI_ERR_LOCKTYPE",
	abi.ErrKeyval: "MPI_ERR_KEYVAL", abi.ErrRmaConflict: "MPI_ERR_RMA_CONFLICT", abi.ErrRmaSync: "MPI_ERR_RMA_SYNC",
	abi.ErrSize: "MPI_ERR_SIZE", abi.ErrDisp: "MPI_ERR_DISP", abi.ErrAssert: "MPI_ERR_ASSERT",
	abi.ErrRmaRange: "MPI_ERR_RMA_RANGE", abi.ErrRmaAttach: "MPI_ERR_RMA_ATTACH", abi.ErrRmaShared: "MPI_ERR_RMA_SHARED",
	abi.ErrRmaFlavor: "MPI_ERR_RMA_FLAVOR", abi.ErrSession: "MPI_ERR_SESSION", abi.ErrProcAborted: "MPI_ERR_PROC_ABORTED",
	abi.ErrValueTooLarge: "MPI_ERR_VALUE_TOO_LARGE",
}
