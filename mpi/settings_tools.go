package mpi

import (
	"gompi/abi"
	"gompi/mpit"
)

// Settings read outside the runtime's startup, listed here so MPI_T and
// gompi_info show them too.
func init() {
	mpit.AddCvar(&mpit.Cvar{Name: "GOMPI_NAME_DIR", Desc: "directory of the name service (MPI_Publish_name); default $XDG_RUNTIME_DIR/gompi-names or /tmp/gompi-names-<uid>",
		Verbosity: abi.TVerbosityTunerBasic, Scope: abi.TScopeReadonly, Str: true, Category: catRuntime,
		Get: func() string { return setting("GOMPI_NAME_DIR") }})
	mpit.AddCvar(&mpit.Cvar{Name: "GOMPI_PROFILE", Desc: "set by gompirun --profile[=DIR] for libgompi-prof.so: 1 prints the profile at MPI_Finalize, a directory also gets profile.json",
		Verbosity: abi.TVerbosityTunerBasic, Scope: abi.TScopeReadonly, Str: true, Category: catRuntime,
		Get: func() string { return setting("GOMPI_PROFILE") }})
	mpit.AddCvar(&mpit.Cvar{Name: "GOMPI_PMI", Desc: "process-manager protocol: 1 (PMI-1), 2 (PMI-2), pmix or singleton; default: chosen from the environment",
		Verbosity: abi.TVerbosityTunerBasic, Scope: abi.TScopeReadonly, Str: true, Category: catRuntime,
		Get: func() string { return setting("GOMPI_PMI") }})
}
