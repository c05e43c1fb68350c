package abi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// MPI_Send and MPI_Send_c share the generic name MPI_Send (told apart by
// the count's kind); MPI_Type_get_extent_c, indistinguishable from
// MPI_Type_get_extent, keeps its own name.
func TestF08LargeCountGenerics(t *testing.T) {
	bound := map[string]bool{"MPI_Send": true, "MPI_Send_c": true, "MPI_Type_get_extent": true,
		"MPI_Type_get_extent_c": true, "MPI_Allgatherv": true, "MPI_Allgatherv_c": true}
	src := string(FortranF08Module(bound))
	assert.Contains(t, src, "  INTERFACE MPI_Send\n    SUBROUTINE MPI_Send_f08ts(")
	assert.Contains(t, src, "    SUBROUTINE MPI_Send_c_f08ts(buf, count, datatype, dest, tag, comm, ierror)")
	assert.Contains(t, src, "INTEGER(KIND=MPI_COUNT_KIND), INTENT(IN) :: count")
	assert.NotContains(t, src, "  SUBROUTINE MPI_Send(", "the generic calls the specific procedures")
	assert.Contains(t, src, "\nSUBROUTINE MPI_Send_c_f08ts(", "the profiling interface's external")
	assert.Contains(t, src, "\nSUBROUTINE PMPI_Send_c_f08ts(")
	assert.Contains(t, src, "CALL pmpi_send_c(a_buf, count")
	assert.Contains(t, src, "INTEGER(KIND=MPI_ADDRESS_KIND), INTENT(IN) :: displs(*)", "v-collective displacements")
	assert.Contains(t, src, "  INTERFACE MPI_Allgatherv\n")
	assert.NotContains(t, src, "INTERFACE MPI_Type_get_extent\n")
	assert.Contains(t, src, "  SUBROUTINE MPI_Type_get_extent_c(datatype, lb, extent, ierror)")
	assert.Contains(t, src, "  SUBROUTINE MPI_Type_get_extent(datatype, lb, extent, ierror)")
}

// The C wrapper of a large-count twin is only pmpi_x_c_: mpif.h and `use
// mpi` have no large-count calls.
func TestLargeCountWrapperC(t *testing.T) {
	var send Function
	for _, f := range Functions() {
		if f.Name == "MPI_Send_c" {
			send = f
		}
	}
	assert.True(t, FortranLargeBindable(send))
	assert.False(t, FortranBindable(send))
	c := FortranWrapperC(send)
	assert.Contains(t, c, "void pmpi_send_c_(const void *buf, MPI_Count *count,")
	assert.Contains(t, c, "PMPI_Send_c(gompi_f_buf(buf), *count,")
	assert.False(t, strings.Contains(c, "alias"), "no other spellings: %s", c)
}
