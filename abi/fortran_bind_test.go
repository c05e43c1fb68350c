package abi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func findFunction(t *testing.T, name string) Function {
	for _, f := range Functions() {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("%s is not in the table", name)
	return Function{}
}

func TestFortranSpellings(t *testing.T) {
	assert.Equal(t, []string{"pmpi_send_", "pmpi_send__", "pmpi_send", "PMPI_SEND",
		"mpi_send_", "mpi_send__", "mpi_send", "MPI_SEND"}, FortranSpellings("MPI_Send"))
}

// Every call of the table gets a binding (or is one the standard gives
// none), so a call added to the table and exported is bound with no edit.
func TestEveryCallTranslates(t *testing.T) {
	all := map[string]bool{}
	for _, f := range Functions() {
		all[f.Name] = true
		if !FortranBindable(f) {
			// Large-count calls reach Fortran only through mpi_f08's
			// overloads (not generated yet); the two callback calls are
			// written by hand (capi/fortran_cb.c), mpi_f08 wraps them.
			ok := f.Group == "interop" || f.Group == "tool" || f.Group == "large count" || f.NoPMPI || f.Macro != "" ||
				f.Name == "MPI_Grequest_start" || f.Name == "MPI_Register_datarep"
			assert.True(t, ok, "%s has no Fortran binding", f.Name)
		}
	}
	src, bound := FortranWrappersC(all)
	assert.Greater(t, len(bound), 380)
	assert.NotEmpty(t, src)
	assert.NotEmpty(t, FortranModule(all))
	assert.NotEmpty(t, FortranF08Module(all))
}

func TestFortranWrapperTranslations(t *testing.T) {
	send := FortranWrapperC(findFunction(t, "MPI_Send"))
	assert.Contains(t, send, "void pmpi_send_(const void *buf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *dest, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *ierr)")
	assert.Contains(t, send, "PMPI_Send(gompi_f_buf(buf), (int)*count, (MPI_Datatype)*datatype")
	assert.Equal(t, 4, strings.Count(send, "weak, alias"))
	assert.Equal(t, 7, strings.Count(send, "alias(\"pmpi_send_\")"))

	recv := FortranWrapperC(findFunction(t, "MPI_Recv"))
	assert.Contains(t, recv, "status == mpipriv1_.status_ignore ? MPI_STATUS_IGNORE")

	name := FortranWrapperC(findFunction(t, "MPI_Comm_set_name"))
	assert.Contains(t, name, "MPI_Fint *ierr, size_t comm_name_len)", "hidden length after IERROR")
	assert.Contains(t, name, "gompi_f_string(comm_name, comm_name_len, 0)")
	info := FortranWrapperC(findFunction(t, "MPI_Info_set"))
	assert.Contains(t, info, "gompi_f_string(key, key_len, 1)", "info keys lose leading blanks")

	anyw := FortranWrapperC(findFunction(t, "MPI_Waitany"))
	assert.Contains(t, anyw, "*index += 1", "Fortran indices are 1-based")
	some := FortranWrapperC(findFunction(t, "MPI_Testsome"))
	assert.Contains(t, some, "array_of_indices[i] += 1")

	get := FortranWrapperC(findFunction(t, "MPI_Attr_get"))
	assert.Contains(t, get, "MPI_Fint *attribute_val", "MPI-1 attributes are INTEGER")
	cget := FortranWrapperC(findFunction(t, "MPI_Comm_get_attr"))
	assert.Contains(t, cget, "MPI_Aint *attribute_val")
	assert.Contains(t, cget, "gompi_f_keyval(*comm_keyval)")

	wt := FortranWrapperC(findFunction(t, "MPI_Wtime"))
	assert.Contains(t, wt, "double pmpi_wtime_(void)")
	pc := FortranWrapperC(findFunction(t, "MPI_Pcontrol"))
	assert.NotContains(t, pc, "ierr", "MPI_PCONTROL has no IERROR")

	init := FortranWrapperC(findFunction(t, "MPI_Init"))
	assert.Contains(t, init, "void pmpi_init_(MPI_Fint *ierr)")
	assert.Contains(t, init, "PMPI_Init(0, 0)")
}

func TestFortranModuleInterfaces(t *testing.T) {
	rank := fortranInterface(findFunction(t, "MPI_Comm_rank"))
	assert.Contains(t, rank, "SUBROUTINE MPI_COMM_RANK(comm, rank, ierror)")
	cart := fortranInterface(findFunction(t, "MPI_Cart_create"))
	assert.Contains(t, cart, "LOGICAL :: periods(*)")
	assert.Contains(t, cart, "LOGICAL :: reorder")
	send := fortranInterface(findFunction(t, "MPI_Send"))
	assert.Contains(t, send, "!GCC$ ATTRIBUTES NO_ARG_CHECK :: buf")
	parts, ok := f08Procedure(findFunction(t, "MPI_Isend"))
	require.True(t, ok)
	proc, iface := parts.work+parts.wrapper, parts.iface
	assert.Contains(t, proc, "TYPE(*), DIMENSION(..), INTENT(IN), ASYNCHRONOUS :: buf")
	assert.Contains(t, proc, "gompi_f08_addr(buf, t_buf, 1_C_INT, e_buf)", "a nonblocking call keeps its buffer")
	assert.Contains(t, iface, "INTEGER(C_INTPTR_T), VALUE :: buf")
	assert.Contains(t, proc, "INTEGER, OPTIONAL, INTENT(OUT) :: ierror")
	for _, removed := range []string{"MPI_Attr_get", "MPI_Address", "MPI_Keyval_create"} {
		_, ok := f08Procedure(findFunction(t, removed))
		assert.False(t, ok, "%s has no mpi_f08 binding", removed)
	}
}
