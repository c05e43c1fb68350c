package mpi

import "gompi/abi"

// The MPI_T error classes are error classes like any other: MPI_Error_class
// and MPI_Error_string accept what an MPI_T call returned.
func init() {
	for c, s := range map[int][2]string{
		abi.TErrMemory:          {"MPI_T_ERR_MEMORY", "out of memory (MPI_T)"},
		abi.TErrNotInitialized:  {"MPI_T_ERR_NOT_INITIALIZED", "the tools interface is not initialized"},
		abi.TErrCannotInit:      {"MPI_T_ERR_CANNOT_INIT", "the tools interface cannot be initialized"},
		abi.TErrInvalidIndex:    {"MPI_T_ERR_INVALID_INDEX", "invalid index (MPI_T)"},
		abi.TErrInvalidItem:     {"MPI_T_ERR_INVALID_ITEM", "invalid enumeration item (MPI_T)"},
		abi.TErrInvalidHandle:   {"MPI_T_ERR_INVALID_HANDLE", "invalid handle (MPI_T)"},
		abi.TErrOutOfHandles:    {"MPI_T_ERR_OUT_OF_HANDLES", "no more handles (MPI_T)"},
		abi.TErrOutOfSessions:   {"MPI_T_ERR_OUT_OF_SESSIONS", "no more sessions (MPI_T)"},
		abi.TErrInvalidSession:  {"MPI_T_ERR_INVALID_SESSION", "invalid performance variable session"},
		abi.TErrCvarSetNotNow:   {"MPI_T_ERR_CVAR_SET_NOT_NOW", "the control variable cannot be set now"},
		abi.TErrCvarSetNever:    {"MPI_T_ERR_CVAR_SET_NEVER", "the control variable cannot be set any more"},
		abi.TErrPvarNoStartstop: {"MPI_T_ERR_PVAR_NO_STARTSTOP", "the performance variable cannot be started or stopped"},
		abi.TErrPvarNoWrite:     {"MPI_T_ERR_PVAR_NO_WRITE", "the performance variable cannot be written or reset"},
		abi.TErrPvarNoAtomic:    {"MPI_T_ERR_PVAR_NO_ATOMIC", "the performance variable cannot be read and reset atomically"},
		abi.TErrInvalidName:     {"MPI_T_ERR_INVALID_NAME", "no variable or category of that name (MPI_T)"},
		abi.TErrInvalid:         {"MPI_T_ERR_INVALID", "invalid use of the tools interface"},
		abi.TErrNotSupported:    {"MPI_T_ERR_NOT_SUPPORTED", "not supported by the tools interface"},
	} {
		classNames[c], classStrings[c] = s[0], s[1]
	}
}
