package abi

import (
	"fmt"
	"strings"
)

// logicalParams are the int parameters that are LOGICAL in Fortran.
var logicalParams = map[string]bool{
	"flag": true, "commute": true, "reorder": true, "periods": true,
	"remain_dims": true, "weighted": true,
}

// fortranDecl is the Fortran declaration of one parameter of f for the
// `mpi` module's explicit interfaces; ok is false when the parameter has no
// single Fortran type (choice buffers, callbacks, sentinel-taking arrays).
func fortranDecl(f Function, p Param) (string, bool) {
	t := strings.TrimPrefix(p.Type, "const ")
	n := p.Name
	arr := p.Array != ""
	aint := "INTEGER(KIND=MPI_ADDRESS_KIND)"
	if fortranMPI1(f) {
		aint = "INTEGER"
	}
	dims := ""
	if arr {
		dims = "(*)"
	}
	// Choice buffers (and the weights, which may be the scalar
	// MPI_UNWEIGHTED) take any type, kind and rank, as MPICH's module does.
	noCheck := "!GCC$ ATTRIBUTES NO_ARG_CHECK :: " + n + "\n      TYPE(*), DIMENSION(*) :: " + n
	switch {
	case (n == "attribute_val" || n == "extra_state") && t == "void *":
		return aint + " :: " + n, true
	case t == "void *" || strings.Contains(n, "weights"):
		return noCheck, true
	case strings.HasSuffix(t, "_function *"):
		return "EXTERNAL :: " + n, true
	case t == "char **" && arr:
		return "CHARACTER(LEN=*) :: " + n + "(count,*)", true
	case t == "char *" && arr:
		return "CHARACTER(LEN=*) :: " + n + "(*)", true
	case t == "char *" || t == "char":
		return "CHARACTER(LEN=*) :: " + n, true
	case t == "MPI_Status *" && strings.Contains(n, "statuses"):
		return "INTEGER :: " + n + "(MPI_STATUS_SIZE,*)", true
	case t == "MPI_Status *":
		return "INTEGER :: " + n + "(MPI_STATUS_SIZE)", true
	case t == "int" && p.Array == "[][3]":
		return "INTEGER :: " + n + "(3,*)", true
	case (t == "int" || t == "int *") && logicalParams[n]:
		return "LOGICAL :: " + n + dims, true
	case t == "int" || t == "int *" || handleTypes[t] || handleTypes[strings.TrimSuffix(t, " *")] ||
		t == "MPI_File" || t == "MPI_File *":
		return "INTEGER :: " + n + dims, true
	case t == "MPI_Aint" || t == "MPI_Aint *":
		return aint + " :: " + n + dims, true
	case t == "MPI_Offset" || t == "MPI_Offset *":
		return "INTEGER(KIND=MPI_OFFSET_KIND) :: " + n + dims, true
	case t == "MPI_Count" || t == "MPI_Count *":
		return "INTEGER(KIND=MPI_COUNT_KIND) :: " + n + dims, true
	}
	return "", false
}

// fortranInterface renders an explicit interface body for f, or "" when f
// takes a choice buffer or anything else without one Fortran type.
func fortranInterface(f Function) string {
	switch f.Name {
	case "MPI_Wtime", "MPI_Wtick": // EXTERNAL in mpif.h
		return ""
	}
	params := f.Params
	if f.Name == "MPI_Init" || f.Name == "MPI_Init_thread" {
		params = params[2:]
	}
	var names, decls []string
	for _, p := range params {
		d, ok := fortranDecl(f, p)
		if !ok {
			return ""
		}
		names = append(names, p.Name)
		decls = append(decls, d)
	}
	var b strings.Builder
	name := strings.ToUpper(f.Name)
	switch f.Ret {
	case "int":
		if !f.Variadic { // MPI_PCONTROL has no IERROR
			names = append(names, "ierror")
			decls = append(decls, "INTEGER :: ierror")
		}
		fmt.Fprintf(&b, "    SUBROUTINE %s(%s)\n", name, strings.Join(names, ", "))
	case "MPI_Aint":
		fmt.Fprintf(&b, "    FUNCTION %s(%s)\n", name, strings.Join(names, ", "))
		decls = append(decls, "INTEGER(KIND=MPI_ADDRESS_KIND) :: "+name)
	default:
		return ""
	}
	b.WriteString("      IMPORT\n      IMPLICIT NONE\n")
	for _, d := range decls {
		fmt.Fprintf(&b, "      %s\n", d)
	}
	if f.Ret == "int" {
		fmt.Fprintf(&b, "    END SUBROUTINE %s\n", name)
	} else {
		fmt.Fprintf(&b, "    END FUNCTION %s\n", name)
	}
	return b.String()
}

// sizeofKinds are the types MPI_SIZEOF accepts.
var sizeofKinds = []struct{ suffix, decl string }{
	{"i1", "INTEGER(KIND=1)"}, {"i2", "INTEGER(KIND=2)"}, {"i4", "INTEGER(KIND=4)"}, {"i8", "INTEGER(KIND=8)"},
	{"r4", "REAL(KIND=4)"}, {"r8", "REAL(KIND=8)"}, {"c4", "COMPLEX(KIND=4)"}, {"c8", "COMPLEX(KIND=8)"},
	{"l4", "LOGICAL(KIND=4)"}, {"ch", "CHARACTER(LEN=*)"},
}

// writeSizeofProcs writes MPI_SIZEOF's specific procedures; optionalErr:
// ierror is OPTIONAL (mpi_f08) rather than required (mpi).
func writeSizeofProcs(b *strings.Builder, optionalErr bool) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	for _, k := range sizeofKinds {
		p("  SUBROUTINE gompi_sizeof_%s(x, size, ierror)\n", k.suffix)
		p("    %s, DIMENSION(..), INTENT(IN) :: x\n", k.decl)
		if optionalErr {
			p("    INTEGER, INTENT(OUT) :: size\n    INTEGER, OPTIONAL, INTENT(OUT) :: ierror\n")
		} else {
			p("    INTEGER, INTENT(OUT) :: size, ierror\n")
		}
		if k.suffix == "ch" {
			p("    size = 1\n")
		} else {
			p("    size = STORAGE_SIZE(x) / 8\n")
		}
		if optionalErr {
			p("    IF (PRESENT(ierror)) ierror = MPI_SUCCESS\n")
		} else {
			p("    ierror = MPI_SUCCESS\n")
		}
		p("  END SUBROUTINE gompi_sizeof_%s\n", k.suffix)
	}
}

// FortranModule renders the `mpi` module source: mpif.h's constants and
// sentinels, explicit interfaces for the bound calls without choice buffers
// (as MPICH's module has), and MPI_SIZEOF.
func FortranModule(bound map[string]bool) []byte {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("! The `mpi` module of gompi.\n")
	p("! Generated by \"go run ./cmd/genfortran\" from package gompi/abi: do not edit.\n")
	p("MODULE mpi\n  IMPLICIT NONE\n  INCLUDE 'mpif.h'\n")
	p("  INTERFACE MPI_SIZEOF\n")
	for _, k := range sizeofKinds {
		p("    MODULE PROCEDURE gompi_sizeof_%s\n", k.suffix)
	}
	p("  END INTERFACE MPI_SIZEOF\n  PRIVATE :: ")
	for i, k := range sizeofKinds {
		if i > 0 {
			p(", ")
		}
		p("gompi_sizeof_%s", k.suffix)
	}
	p("\n  INTERFACE\n")
	for _, f := range Functions() {
		if bound[f.Name] {
			b.WriteString(fortranInterface(f))
		}
	}
	b.WriteString(syncRegInterface)
	p("  END INTERFACE\nCONTAINS\n")
	writeSizeofProcs(&b, false)
	p("END MODULE mpi\n")
	return []byte(wrapFortran(b.String()))
}

// wrapFortran breaks free-form lines longer than 100 characters after a
// comma, continuing with "&" (the standard's limit is 132).
func wrapFortran(src string) string {
	var out []string
	for _, line := range strings.Split(src, "\n") {
		for len(line) > 100 {
			cut := strings.LastIndex(line[:100], ", ")
			if cut < 0 {
				break
			}
			out = append(out, line[:cut+1]+" &")
			line = "        " + strings.TrimLeft(line[cut+1:], " ")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// syncRegInterface declares MPI_F_SYNC_REG (MPI-4.1 §19.1.17), defined in
// capi/fortran.c: any buffer, as for the choice buffers.
const syncRegInterface = `    SUBROUTINE MPI_F_SYNC_REG(buf)
      IMPLICIT NONE
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      TYPE(*), DIMENSION(*) :: buf
    END SUBROUTINE MPI_F_SYNC_REG
`
