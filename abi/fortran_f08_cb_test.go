package abi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// MPI_Grequest_start and MPI_Register_datarep reach mpi_f08 with their
// dummy procedures declared by the standard's abstract interfaces, which
// the module defines after the kinds they use.
func TestF08Callbacks(t *testing.T) {
	all := map[string]bool{"MPI_Grequest_start": true, "MPI_Register_datarep": true, "MPI_Send": true}
	mod := string(FortranF08Module(all))
	for _, want := range []string{
		"  SUBROUTINE MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request, ierror)\n",
		"    PROCEDURE(MPI_Grequest_query_function) :: query_fn\n",
		"    PROCEDURE(MPI_Grequest_free_function) :: free_fn\n",
		"    PROCEDURE(MPI_Grequest_cancel_function) :: cancel_fn\n",
		"    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state\n",
		"    TYPE(MPI_Request) :: request\n",
		"    PROCEDURE(MPI_Datarep_conversion_function) :: read_conversion_fn\n",
		"    PROCEDURE(MPI_Datarep_extent_function) :: dtype_file_extent_fn\n",
		"    SUBROUTINE MPI_Datarep_conversion_function(userbuf, datatype, count, filebuf, position, &\n",
		"      TYPE(C_PTR), VALUE :: userbuf\n",
		"      TYPE(MPI_Status) :: status\n",
		"      LOGICAL :: complete\n",
		"  PROCEDURE(MPI_Datarep_conversion_function) :: MPI_CONVERSION_FN_NULL\n",
		"SUBROUTINE PMPI_Grequest_start_f08(",
		"SUBROUTINE MPI_Register_datarep_f08(",
	} {
		assert.True(t, strings.Contains(mod, want), "module lacks %q", want)
	}
	// The private interfaces to the mpif.h bindings take any procedure.
	assert.True(t, strings.Contains(mod, "    SUBROUTINE pmpi_grequest_start(query_fn, free_fn, cancel_fn, extra_state, request, ierror)\n      IMPORT\n      IMPLICIT NONE\n      EXTERNAL :: query_fn\n"), "private interface")
	kinds := strings.Index(mod, "MPI_OFFSET_KIND =")
	abstract := strings.Index(mod, "ABSTRACT INTERFACE")
	assert.True(t, kinds > 0 && abstract > kinds, "abstract interfaces after the kinds they import")

	// Without the calls exported, nothing of theirs.
	mod = string(FortranF08Module(map[string]bool{"MPI_Send": true}))
	assert.False(t, strings.Contains(mod, "SUBROUTINE MPI_Grequest_start("))
}
