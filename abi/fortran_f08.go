package abi

import (
	"fmt"
	"strings"
)

// The mpi_f08 module: TYPE(MPI_Comm) and friends (BIND(C) types holding the
// same integer as the C handle), TYPE(MPI_Status) in MPICH's layout, choice
// buffers as TYPE(*), DIMENSION(..), optional IERROR. Each procedure calls
// the mpif.h binding (pmpi_x_) through a private interface: the handle
// types, statuses and LOGICALs have the same representation, so only the
// choice buffers need work, done by two C helpers on the buffer's C
// descriptor (f08_shims.c): a contiguous buffer passes its address, a
// non-contiguous section of a blocking call is copied into a temporary and
// back, and one of a nonblocking call is refused with MPI_ERR_BUFFER.

// f08HandleTypes are the handle types of mpi_f08.
var f08HandleTypes = []string{"MPI_Comm", "MPI_Datatype", "MPI_Errhandler", "MPI_File", "MPI_Group",
	"MPI_Info", "MPI_Message", "MPI_Op", "MPI_Request", "MPI_Session", "MPI_Win"}

func isF08Handle(t string) bool {
	for _, h := range f08HandleTypes {
		if h == t {
			return true
		}
	}
	return false
}

// f08Bindable says whether f gets an mpi_f08 procedure: the calls with an
// mpif.h binding (generated or written by hand), less those MPI-3 removed.
func f08Bindable(f Function) bool {
	return (FortranBindable(f) || fortranHandBound(f.Name) || FortranLargeBindable(f)) &&
		!fortranMPI1(f) && f.Name != "MPI_Keyval_free" && f.Name != "MPI_Attr_delete"
}

// f08KeepsBuffer says whether the call may use its buffer after it
// returns, so a non-contiguous section cannot go through a temporary.
func f08KeepsBuffer(f Function) bool {
	name := fortranBaseName(f)
	if f.Group == "rma" || name == "MPI_Buffer_attach" || largeBaseName(f) != "" && f08BaseGroup(name) == "rma" {
		return true
	}
	for _, pre := range []string{"MPI_Wait", "MPI_Test", "MPI_Start", "MPI_Request_", "MPI_Cancel", "MPI_Grequest"} {
		if strings.HasPrefix(name, pre) {
			return false
		}
	}
	for _, p := range f.Params {
		if p.Type == "MPI_Request *" && p.Array == "" {
			return true
		}
	}
	return false
}

// f08Arg is one parameter of an mpi_f08 procedure: its declaration there,
// in the private interface to the mpif.h binding, and the actual argument.
type f08Arg struct {
	decl, idecl, arg string
	choice           bool // a choice buffer (goes through the helpers)
	copyOut          bool // written by the call
}

func f08Param(f Function, p Param) (f08Arg, bool) {
	t := strings.TrimPrefix(p.Type, "const ")
	in := strings.HasPrefix(p.Type, "const ") || (p.Array == "" && !strings.HasSuffix(t, "*"))
	n := p.Name
	arr := p.Array != ""
	dims := ""
	if arr {
		dims = "(*)"
	}
	intent := ""
	if in {
		intent = ", INTENT(IN)"
	}
	same := func(decl string) (f08Arg, bool) {
		return f08Arg{decl: decl + intent + " :: " + n + dims, idecl: decl + " :: " + n + dims, arg: n}, true
	}
	base := strings.TrimSuffix(t, " *")
	switch {
	case (n == "attribute_val" || n == "extra_state") && t == "void *":
		return same("INTEGER(KIND=MPI_ADDRESS_KIND)")
	case n == "baseptr" || n == "buffer_addr":
		return f08Arg{decl: "TYPE(C_PTR) :: " + n, idecl: "TYPE(C_PTR) :: " + n, arg: n}, true
	case t == "void *":
		a := f08Arg{decl: "TYPE(*), DIMENSION(..)" + intent, idecl: "INTEGER(C_INTPTR_T), VALUE :: " + n,
			arg: "a_" + n, choice: true, copyOut: !in}
		if f08KeepsBuffer(f) {
			a.decl += ", ASYNCHRONOUS"
		}
		a.decl += " :: " + n
		return a, true
	case strings.HasSuffix(t, "_function *") || strings.HasSuffix(t, "_function_c *"):
		return f08Arg{decl: f08CallbackDecl(t, n), idecl: "EXTERNAL :: " + n, arg: n}, true
	case t == "char **" && arr:
		return f08Arg{decl: "CHARACTER(LEN=*), INTENT(IN) :: " + n + "(count,*)", idecl: "CHARACTER(LEN=*) :: " + n + "(count,*)", arg: n}, true
	case t == "char *" && arr:
		return f08Arg{decl: "CHARACTER(LEN=*), INTENT(IN) :: " + n + "(*)", idecl: "CHARACTER(LEN=*) :: " + n + "(*)", arg: n}, true
	case t == "char *" || t == "char":
		dims = ""
		return same("CHARACTER(LEN=*)")
	case t == "MPI_Status *" && strings.Contains(n, "statuses"):
		dims = "(*)"
		return same("TYPE(MPI_Status)")
	case t == "MPI_Status *":
		return same("TYPE(MPI_Status)")
	case t == "int" && p.Array == "[][3]":
		dims = "(3,*)"
		return same("INTEGER")
	case (t == "int" || t == "int *") && logicalParams[n]:
		return same("LOGICAL")
	case t == "int" || t == "int *":
		return same("INTEGER")
	case isF08Handle(base):
		return same("TYPE(" + base + ")")
	case base == "MPI_Aint":
		return same("INTEGER(KIND=MPI_ADDRESS_KIND)")
	case base == "MPI_Offset":
		return same("INTEGER(KIND=MPI_OFFSET_KIND)")
	case base == "MPI_Count":
		return same("INTEGER(KIND=MPI_COUNT_KIND)")
	}
	return f08Arg{}, false
}

// f08Parts are the pieces of one call's mpi_f08 binding.
type f08Parts struct {
	work      string // module procedure doing the work (MPI_X itself when unprofiled)
	wrapper   string // module procedure MPI_X calling the specific one ("": none)
	iface     string // interface body of the mpif.h binding pmpi_x
	specific  string // name of the external specific procedure, MPI_X_f08[ts]
	specIface string // its interface body
	ext       string // the external MPI_X_f08[ts] and PMPI_X_f08[ts]
}

// f08Procedure renders f's mpi_f08 procedure and its private interface to
// the mpif.h binding; ok is false when f has none.
func f08Procedure(f Function) (parts f08Parts, ok bool) {
	if !f08Bindable(f) {
		return f08Parts{}, false
	}
	params := f.Params
	if f.Name == "MPI_Init" || f.Name == "MPI_Init_thread" {
		params = params[2:]
	}
	var args []f08Arg
	for _, p := range params {
		a, ok := f08Param(f, p)
		if !ok {
			return f08Parts{}, false
		}
		args = append(args, a)
	}
	lname := FortranName(f.Name)
	iname := "gompi_" + lname
	var names, inames, actuals []string
	for i, p := range params {
		names = append(names, p.Name)
		inames = append(inames, p.Name)
		actuals = append(actuals, args[i].arg)
	}
	hasIerr := f.Ret == "int" && !f.Variadic
	if hasIerr {
		inames = append(inames, "ierror")
	}
	var ib, pb strings.Builder
	ip := func(format string, a ...any) { fmt.Fprintf(&ib, format, a...) }
	pp := func(format string, a ...any) { fmt.Fprintf(&pb, format, a...) }

	// The interface: external name p<lname>_ is gfortran's mangling of
	// p<lname>, with hidden string lengths added by the compiler.
	kind := "SUBROUTINE"
	if f.Ret != "int" {
		kind = "FUNCTION"
	}
	direct := fortranDetach(f)
	if direct {
		// The C entry itself: handles by value, the C_PTR by reference.
		// Not private: gfortran warns about a private binding label.
		ip("    FUNCTION %s(%s) BIND(C, NAME=\"P%s\")\n      IMPORT\n      IMPLICIT NONE\n",
			iname, strings.Join(names, ", "), f.Name)
		for i, a := range args {
			switch n := params[i].Name; n {
			case "comm", "session":
				ip("      INTEGER(C_INT), VALUE :: %s\n", n)
				actuals[i] = n + "%MPI_VAL"
			default:
				ip("      %s\n", a.idecl)
			}
		}
		ip("      INTEGER(C_INT) :: %s\n    END FUNCTION %s\n", iname, iname)
	} else {
		ip("    %s p%s(%s)\n      IMPORT\n      IMPLICIT NONE\n", kind, lname, strings.Join(inames, ", "))
		for _, a := range args {
			ip("      %s\n", a.idecl)
		}
	}
	if hasIerr && !direct {
		ip("      INTEGER :: ierror\n")
	}
	switch {
	case direct:
	case f.Ret == "double":
		ip("      DOUBLE PRECISION :: p%s\n", lname)
	case f.Ret == "MPI_Aint":
		ip("      INTEGER(KIND=MPI_ADDRESS_KIND) :: p%s\n", lname)
	}
	if !direct {
		ip("    END %s p%s\n", kind, lname)
	}

	// The procedure.
	all := append([]string{}, names...)
	if hasIerr {
		all = append(all, "ierror")
	}
	switch f.Ret {
	case "int":
		pp("  SUBROUTINE %s(%s)\n", f.Name, strings.Join(all, ", "))
	default:
		pp("  FUNCTION %s(%s) RESULT(res)\n", f.Name, strings.Join(all, ", "))
	}
	for _, a := range args {
		pp("    %s\n", a.decl)
	}
	switch f.Ret {
	case "double":
		pp("    DOUBLE PRECISION :: res\n")
	case "MPI_Aint":
		pp("    INTEGER(KIND=MPI_ADDRESS_KIND) :: res\n")
	}
	if hasIerr {
		pp("    INTEGER, OPTIONAL, INTENT(OUT) :: ierror\n    INTEGER :: ierr\n")
	}
	var choices []f08Arg
	for i, a := range args {
		if a.choice {
			choices = append(choices, a)
			n := params[i].Name
			pp("    INTEGER(C_INTPTR_T) :: a_%s\n    TYPE(C_PTR) :: t_%s\n    INTEGER(C_INT) :: e_%s\n", n, n, n)
		}
	}
	keep := "0"
	if f08KeepsBuffer(f) {
		keep = "1"
	}
	for i, a := range args {
		if a.choice {
			n := params[i].Name
			pp("    a_%s = gompi_f08_addr(%s, t_%s, %s_C_INT, e_%s)\n", n, n, n, keep, n)
		}
	}
	call := fmt.Sprintf("p%s(%s)", lname, strings.Join(append(actuals, "ierr"), ", "))
	switch {
	case f.Ret != "int":
		pp("    res = p%s(%s)\n", lname, strings.Join(actuals, ", "))
	case direct:
		pp("    ierr = %s(%s)\n", iname, strings.Join(actuals, ", "))
	case f.Variadic:
		pp("    CALL p%s(%s)\n", lname, strings.Join(actuals, ", "))
	case len(choices) > 0:
		var conds []string
		for i, a := range args {
			if a.choice {
				conds = append(conds, "e_"+params[i].Name+" /= 0")
			}
		}
		pp("    IF (%s) THEN\n      ierr = MPI_ERR_BUFFER\n    ELSE\n      CALL %s\n    END IF\n", strings.Join(conds, " .OR. "), call)
	default:
		pp("    CALL %s\n", call)
	}
	for i, a := range args {
		if a.choice {
			n := params[i].Name
			out := "0"
			if a.copyOut {
				out = "1"
			}
			pp("    CALL gompi_f08_done(%s, t_%s, %s_C_INT)\n", n, n, out)
		}
	}
	if hasIerr {
		pp("    IF (PRESENT(ierror)) ierror = ierr\n")
	}
	switch f.Ret {
	case "int":
		pp("  END SUBROUTINE %s\n", f.Name)
	default:
		pp("  END FUNCTION %s\n", f.Name)
	}

	parts = f08Parts{work: pb.String(), iface: ib.String()}
	if f.Ret == "int" && !f.Variadic {
		f08Profiled(f, args, all, &parts)
	}
	return parts, true
}

// f08Profiled gives a subroutine the mpi_f08 profiling interface (MPI-4.1
// §19.1.5): the work is done by the module procedure gompi_f08_mpi_x;
// MPI_X calls the external MPI_X_f08 (MPI_X_f08ts with a choice buffer),
// whose linker name mpi_x_f08[ts]_ a tool may define to intercept the call,
// and which calls the work procedure; so does the external PMPI_X_f08[ts]
// (pmpi_x_f08[ts]_), the standard's profiling entry.
func f08Profiled(f Function, args []f08Arg, all []string, parts *f08Parts) {
	suffix := f08Suffix(f)
	// The module already holds pmpi_x, the interface of the mpif.h binding.
	work := "gompi_f08_" + FortranName(f.Name)
	impl := parts.work
	impl = strings.Replace(impl, "  SUBROUTINE "+f.Name+"(", "  SUBROUTINE "+work+"(", 1)
	impl = strings.Replace(impl, "  END SUBROUTINE "+f.Name+"\n", "  END SUBROUTINE "+work+"\n", 1)
	list := strings.Join(all, ", ")
	var decls strings.Builder
	for _, a := range args {
		fmt.Fprintf(&decls, "    %s\n", a.decl)
	}
	decls.WriteString("    INTEGER, OPTIONAL, INTENT(OUT) :: ierror\n")
	d := decls.String()
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("  SUBROUTINE %s(%s)\n%s    CALL %s%s(%s)\n  END SUBROUTINE %s\n", f.Name, list, d, f.Name, suffix, list, f.Name)
	parts.work = impl
	parts.wrapper = b.String()
	parts.specific = f.Name + suffix
	parts.specIface = fmt.Sprintf("    SUBROUTINE %s%s(%s)\n      IMPORT\n      IMPLICIT NONE\n%s    END SUBROUTINE %s%s\n",
		f.Name, suffix, list, indent(d), f.Name, suffix)
	var e strings.Builder
	for _, name := range []string{f.Name, "P" + f.Name} {
		fmt.Fprintf(&e, "SUBROUTINE %s%s(%s)\n  USE mpi_f08\n  IMPLICIT NONE\n%s  CALL %s(%s)\nEND SUBROUTINE %s%s\n",
			name, suffix, list, d, work, list, name, suffix)
	}
	parts.ext = e.String()
}

// f08Suffix is the suffix of f's mpi_f08 specific procedure: _f08ts with a
// choice buffer (TS 29113 assumed type and rank), _f08 without.
func f08Suffix(f Function) string {
	for _, p := range f.Params {
		if a, ok := f08Param(f, p); ok && a.choice {
			return "_f08ts"
		}
	}
	return "_f08"
}

// indent adds two spaces to every line of s.
func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "")
}

// f08Constants renders the constants of mpi_f08: integers as in mpif.h,
// handles as PARAMETERs of their TYPE.
func f08Constants() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	ip := func(name string, v int64) { p("  INTEGER, PARAMETER :: %s = %d\n", name, v) }
	ip("MPI_STATUS_SIZE", StatusSizeFortran)
	ip("MPI_VERSION", Version)
	ip("MPI_SUBVERSION", Subversion)
	ip("MPI_ADDRESS_KIND", 8)
	ip("MPI_OFFSET_KIND", 8)
	ip("MPI_COUNT_KIND", 8)
	ip("MPI_INTEGER_KIND", 4)
	p("  TYPE(MPI_File), PARAMETER :: MPI_FILE_NULL = MPI_File(%d)\n", FilePtrNull)
	written := map[string]int64{}
	types := map[string]string{}
	for _, c := range Constants() {
		if c.Kind == KAlias && c.CType == "MPI_Datatype" {
			if v, ok := written[c.Expr]; ok {
				p("  TYPE(MPI_Datatype), PARAMETER :: %s = MPI_Datatype(%d)\n", c.Name, v)
			}
			continue
		}
		if c.Name == "MPI_DISPLACEMENT_CURRENT" {
			p("  INTEGER(KIND=MPI_OFFSET_KIND), PARAMETER :: %s = %d\n", c.Name, c.Value)
			continue
		}
		v, ok := c.fortranValue()
		if !ok {
			continue
		}
		if c.Kind == KHandle && isF08Handle(c.CType) {
			p("  TYPE(%s), PARAMETER :: %s = %s(%d)\n", c.CType, c.Name, c.CType, v)
			types[c.Name] = c.CType
		} else {
			ip(c.Name, v)
		}
		written[c.Name] = v
	}
	p("  LOGICAL, PARAMETER :: MPI_SUBARRAYS_SUPPORTED = .FALSE.\n")
	p("  LOGICAL, PARAMETER :: MPI_ASYNC_PROTECTS_NONBLOCKING = .FALSE.\n")
	return b.String()
}

// f08Sentinels shares the COMMON blocks of mpif.h (and MPICH), so the
// mpif.h bindings the procedures call recognise the sentinels.
const f08Sentinels = `  INTEGER :: MPI_BOTTOM, MPI_IN_PLACE
  TYPE(MPI_Status) :: MPI_STATUS_IGNORE
  TYPE(MPI_Status) :: MPI_STATUSES_IGNORE(1)
  INTEGER :: MPI_ERRCODES_IGNORE(1)
  CHARACTER(LEN=1) :: MPI_ARGVS_NULL(1,1), MPI_ARGV_NULL(1)
  INTEGER :: MPI_UNWEIGHTED(1), MPI_WEIGHTS_EMPTY(1), MPI_BUFFER_AUTOMATIC
  COMMON /MPIPRIV1/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE
  COMMON /MPIPRIV2/ MPI_STATUSES_IGNORE, MPI_ERRCODES_IGNORE
  COMMON /MPIPRIVC/ MPI_ARGVS_NULL, MPI_ARGV_NULL
  COMMON /MPIFCMB5/ MPI_UNWEIGHTED
  COMMON /MPIFCMB9/ MPI_WEIGHTS_EMPTY
  COMMON /MPIFCMBA/ MPI_BUFFER_AUTOMATIC
  SAVE /MPIPRIV1/, /MPIPRIV2/, /MPIPRIVC/, /MPIFCMB5/, /MPIFCMB9/, /MPIFCMBA/
  EXTERNAL :: MPI_DUP_FN, MPI_NULL_DELETE_FN, MPI_NULL_COPY_FN
  EXTERNAL :: MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, MPI_COMM_NULL_COPY_FN
  EXTERNAL :: MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, MPI_WIN_NULL_COPY_FN
  EXTERNAL :: MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, MPI_TYPE_NULL_COPY_FN
  PROCEDURE(MPI_Datarep_conversion_function) :: MPI_CONVERSION_FN_NULL
`

// FortranF08Module renders the `mpi_f08` module source for the bound calls.
func FortranF08Module(bound map[string]bool) []byte {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("! The `mpi_f08` module of gompi.\n")
	p("! Generated by \"go run ./cmd/genfortran\" from package gompi/abi: do not edit.\n")
	p("MODULE mpi_f08\n  USE, INTRINSIC :: ISO_C_BINDING\n  IMPLICIT NONE\n")
	for _, h := range f08HandleTypes {
		p("  TYPE, BIND(C) :: %s\n    INTEGER :: MPI_VAL\n  END TYPE %s\n", h, h)
	}
	p("  TYPE, BIND(C) :: MPI_Status\n    INTEGER :: count_lo, count_hi_and_cancelled\n")
	p("    INTEGER :: MPI_SOURCE, MPI_TAG, MPI_ERROR\n  END TYPE MPI_Status\n")
	b.WriteString(f08Constants())
	b.WriteString(f08AbstractInterfaces())
	b.WriteString(f08Sentinels)
	// Comparisons of handles.
	for _, op := range []struct{ sym, name string }{{"==", "eq"}, {"/=", "ne"}} {
		p("  INTERFACE OPERATOR(%s)\n", op.sym)
		for _, h := range f08HandleTypes {
			p("    MODULE PROCEDURE gompi_%s_%s\n", op.name, strings.ToLower(h))
		}
		p("  END INTERFACE\n")
	}
	p("  INTERFACE MPI_Sizeof\n")
	for _, k := range sizeofKinds {
		p("    MODULE PROCEDURE gompi_sizeof_%s\n", k.suffix)
	}
	p("  END INTERFACE MPI_Sizeof\n")
	// The descriptor helpers (f08_shims.c).
	p(`  INTERFACE
    FUNCTION gompi_f08_addr(buf, tmp, keep, err) BIND(C, NAME="gompi_f08_addr")
      IMPORT
      TYPE(*), DIMENSION(..) :: buf
      TYPE(C_PTR) :: tmp
      INTEGER(C_INT), VALUE :: keep
      INTEGER(C_INT) :: err
      INTEGER(C_INTPTR_T) :: gompi_f08_addr
    END FUNCTION gompi_f08_addr
    SUBROUTINE gompi_f08_done(buf, tmp, copyout) BIND(C, NAME="gompi_f08_done")
      IMPORT
      TYPE(*), DIMENSION(..) :: buf
      TYPE(C_PTR) :: tmp
      INTEGER(C_INT), VALUE :: copyout
    END SUBROUTINE gompi_f08_done
  END INTERFACE
`)
	var procs, ifaces, generics, exts strings.Builder
	var private []string
	all := map[string]f08Parts{}
	byName := map[string]Function{}
	for _, f := range Functions() {
		if !bound[f.Name] {
			continue
		}
		if parts, ok := f08Procedure(f); ok {
			all[f.Name] = parts
			byName[f.Name] = f
		}
	}
	// generic: the calls whose large-count twin shares their name.
	generic := map[string]bool{}
	for _, g := range Functions() {
		name := g.Name
		f, ok := byName[name]
		if !ok {
			continue
		}
		if base := largeBaseName(f); base != "" && all[base].specific != "" && all[name].specific != "" &&
			f08Distinguishable(byName[base], f) {
			generic[base], generic[name] = true, true
			generics.WriteString(f08Generic(base, all[base], all[name]))
		}
	}
	for _, f := range Functions() {
		parts, ok := all[f.Name]
		if !ok {
			continue
		}
		procs.WriteString(parts.work)
		ifaces.WriteString(parts.iface)
		if generic[f.Name] {
			// The generic interface calls the specific procedure itself.
		} else {
			procs.WriteString(parts.wrapper)
			ifaces.WriteString(parts.specIface)
		}
		exts.WriteString(parts.ext)
		if !fortranDetach(f) {
			private = append(private, "p"+FortranName(f.Name))
		}
		if parts.specific != "" {
			private = append(private, parts.specific)
		}
	}
	p("  INTERFACE\n%s  END INTERFACE\n", ifaces.String())
	b.WriteString(generics.String())
	for _, n := range private {
		p("  PRIVATE :: %s\n", n)
	}
	p("CONTAINS\n")
	for _, op := range []struct{ sym, name string }{{"==", "eq"}, {"/=", "ne"}} {
		for _, h := range f08HandleTypes {
			p("  ELEMENTAL LOGICAL FUNCTION gompi_%s_%s(a, b)\n", op.name, strings.ToLower(h))
			p("    TYPE(%s), INTENT(IN) :: a, b\n", h)
			p("    gompi_%s_%s = a%%MPI_VAL %s b%%MPI_VAL\n", op.name, strings.ToLower(h), op.sym)
			p("  END FUNCTION gompi_%s_%s\n", op.name, strings.ToLower(h))
		}
	}
	writeSizeofProcs(&b, true)
	b.WriteString(f08Helpers)
	b.WriteString(procs.String())
	p("END MODULE mpi_f08\n")
	// The external procedures of the profiling interface (f08Profiled).
	b.WriteString(exts.String())
	return []byte(wrapFortran(b.String()))
}

// FortranF08Shims renders the C helpers of the mpi_f08 choice buffers.
func FortranF08Shims(bound map[string]bool) []byte {
	return []byte(f08ShimsC)
}

const f08ShimsC = `/* mpi_f08 choice buffers: the address of a buffer described by a Fortran
 * C descriptor, through a temporary for a non-contiguous section.
 * Generated by "go run ./cmd/genfortran" from package gompi/abi: do not edit. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ISO_Fortran_binding.h>

/* Copies every element of d to or from the packed buffer p. */
static void walk(CFI_cdesc_t *d, char *p, int pack)
{
    CFI_index_t idx[CFI_MAX_RANK] = {0};
    size_t n = 1;
    for (int i = 0; i < d->rank; i++) n *= (size_t)d->dim[i].extent;
    for (size_t k = 0; k < n; k++) {
        char *e = (char *)d->base_addr;
        for (int i = 0; i < d->rank; i++) e += idx[i] * d->dim[i].sm;
        if (pack) memcpy(p, e, d->elem_len);
        else memcpy(e, p, d->elem_len);
        p += d->elem_len;
        for (int i = 0; i < d->rank && ++idx[i] == d->dim[i].extent; i++) idx[i] = 0;
    }
}

static int contiguous(CFI_cdesc_t *d)
{
    return d->rank == 0 || d->base_addr == NULL || CFI_is_contiguous(d);
}

/* keep: the call may use the buffer after it returns (nonblocking), so a
 * non-contiguous section is an error (*err = 1) instead of a copy. */
intptr_t gompi_f08_addr(CFI_cdesc_t *d, void **tmp, int keep, int *err)
{
    *tmp = NULL;
    *err = 0;
    if (contiguous(d)) return (intptr_t)d->base_addr;
    if (keep) {
        *err = 1;
        return 0;
    }
    size_t n = d->elem_len;
    for (int i = 0; i < d->rank; i++) n *= (size_t)d->dim[i].extent;
    char *p = malloc(n ? n : 1);
    if (!p) {
        *err = 1;
        return 0;
    }
    walk(d, p, 1);
    *tmp = p;
    return (intptr_t)p;
}

void gompi_f08_done(CFI_cdesc_t *d, void **tmp, int copyout)
{
    if (!*tmp) return;
    if (copyout) walk(d, *tmp, 0);
    free(*tmp);
    *tmp = NULL;
}
`

// f08Helpers are the mpi_f08 procedures with no C call behind them:
// MPI_F_sync_reg (MPI-4.1 §19.1.17), a call the compiler of the program
// cannot see into, and the status conversions between the mpi and mpi_f08
// representations (§19.3.5), which are the same five integers.
const f08Helpers = `  SUBROUTINE MPI_F_sync_reg(buf)
    TYPE(*), DIMENSION(..), ASYNCHRONOUS :: buf
  END SUBROUTINE MPI_F_sync_reg
  SUBROUTINE MPI_Status_f2f08(f_status, f08_status, ierror)
    INTEGER, INTENT(IN) :: f_status(MPI_STATUS_SIZE)
    TYPE(MPI_Status), INTENT(OUT) :: f08_status
    INTEGER, OPTIONAL, INTENT(OUT) :: ierror
    f08_status = TRANSFER(f_status, f08_status)
    IF (PRESENT(ierror)) ierror = MPI_SUCCESS
  END SUBROUTINE MPI_Status_f2f08
  SUBROUTINE MPI_Status_f082f(f08_status, f_status, ierror)
    TYPE(MPI_Status), INTENT(IN) :: f08_status
    INTEGER, INTENT(OUT) :: f_status(MPI_STATUS_SIZE)
    INTEGER, OPTIONAL, INTENT(OUT) :: ierror
    f_status = TRANSFER(f08_status, f_status)
    IF (PRESENT(ierror)) ierror = MPI_SUCCESS
  END SUBROUTINE MPI_Status_f082f
`
