package abi

import (
	"fmt"
	"strings"
)

// mpi_f08 procedures taking Fortran callbacks whose mpif.h bindings are
// written by hand (capi/fortran_cb.c translates the callbacks), and the
// standard's abstract interfaces (MPI-4.1 §19.3.7 ... the f08 forms in
// §A.1.3) their dummy procedures are declared with.

// FortranHandBound are the calls whose mpif.h binding capi/fortran_cb.c
// defines instead of the generator; mpi_f08 wraps them like the others.
var FortranHandBound = []string{"MPI_Grequest_start", "MPI_Register_datarep"}

func fortranHandBound(name string) bool {
	for _, n := range FortranHandBound {
		if n == name {
			return true
		}
	}
	return false
}

// f08CallbackArgs are the dummy arguments of each callback type with an
// abstract interface in mpi_f08, in order, as declarations. The
// representation matches what the mpif.h trampolines pass: everything by
// reference, except the conversion buffers, which arrive as addresses
// (TYPE(C_PTR), VALUE is the same address in the same register); handle
// types are BIND(C) wrappers of the integer handle, TYPE(MPI_Status) is
// the C status, LOGICAL is gfortran's 0/1.
var f08CallbackArgs = map[string][]string{
	"MPI_Grequest_query_function": {
		"INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state",
		"TYPE(MPI_Status) :: status",
	},
	"MPI_Grequest_free_function": {
		"INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state",
	},
	"MPI_Grequest_cancel_function": {
		"INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state",
		"LOGICAL :: complete",
	},
	"MPI_Datarep_conversion_function": {
		"TYPE(C_PTR), VALUE :: userbuf",
		"TYPE(MPI_Datatype) :: datatype",
		"INTEGER :: count",
		"TYPE(C_PTR), VALUE :: filebuf",
		"INTEGER(KIND=MPI_OFFSET_KIND) :: position",
		"INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state",
	},
	"MPI_Datarep_extent_function": {
		"TYPE(MPI_Datatype) :: datatype",
		"INTEGER(KIND=MPI_ADDRESS_KIND) :: extent",
		"INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state",
	},
}

// f08CallbackOrder fixes the order the abstract interfaces are written in.
var f08CallbackOrder = []string{"MPI_Grequest_query_function", "MPI_Grequest_free_function",
	"MPI_Grequest_cancel_function", "MPI_Datarep_conversion_function", "MPI_Datarep_extent_function"}

// f08CallbackDecl declares the dummy procedure n of C type t ("X_function
// *"): with its abstract interface when mpi_f08 has one, else EXTERNAL.
func f08CallbackDecl(t, n string) string {
	base := strings.TrimSuffix(t, " *")
	if _, ok := f08CallbackArgs[base]; ok {
		return "PROCEDURE(" + base + ") :: " + n
	}
	return "EXTERNAL :: " + n
}

// f08AbstractInterfaces renders the ABSTRACT INTERFACE block; every
// callback ends with INTEGER :: ierror.
func f08AbstractInterfaces() string {
	var b strings.Builder
	b.WriteString("  ABSTRACT INTERFACE\n")
	for _, name := range f08CallbackOrder {
		decls := f08CallbackArgs[name]
		var names []string
		for _, d := range decls {
			_, n, _ := strings.Cut(d, " :: ")
			names = append(names, n)
		}
		names = append(names, "ierror")
		fmt.Fprintf(&b, "    SUBROUTINE %s(%s)\n      IMPORT\n      IMPLICIT NONE\n", name, strings.Join(names, ", "))
		for _, d := range decls {
			fmt.Fprintf(&b, "      %s\n", d)
		}
		fmt.Fprintf(&b, "      INTEGER :: ierror\n    END SUBROUTINE %s\n", name)
	}
	b.WriteString("  END INTERFACE\n")
	return b.String()
}
