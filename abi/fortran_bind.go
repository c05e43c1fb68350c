package abi

import (
	"fmt"
	"strings"
)

// Fortran bindings (mpif.h and `use mpi`) are C functions generated from the
// function table: one wrapper per C call the library exports, translating
// Fortran's by-reference arguments, hidden string lengths and sentinels,
// then calling the PMPI_ entry (one C-to-C call, no extra crossing into Go).

// FortranName is the Fortran symbol stem of a C function: MPI_Comm_rank ->
// mpi_comm_rank.
func FortranName(cname string) string { return strings.ToLower(cname) }

// FortranSpellings are the eight symbols of one Fortran binding in the order
// MPICH exports them: the pmpi_ ones are strong, the mpi_ ones weak.
func FortranSpellings(cname string) []string {
	l := FortranName(cname)
	u := strings.ToUpper(cname)
	return []string{"p" + l + "_", "p" + l + "__", "p" + l, "P" + u, l + "_", l + "__", l, u}
}

// FortranBindable says whether a C function has a Fortran binding: the tool
// interface, language interoperability helpers and MPIR_ helpers do not,
// nor calls whose callbacks need translators gompi does not have yet.
func FortranBindable(f Function) bool {
	switch {
	case f.NoPMPI, f.Macro != "", f.Group == "interop", f.Group == "tool", f.Group == "large count",
		!strings.HasPrefix(f.Name, "MPI_"):
		return false
	}
	for _, p := range f.Params {
		switch p.Type {
		case "MPI_Grequest_query_function *", "MPI_Datarep_conversion_function *":
			return false
		}
	}
	switch f.Ret {
	case "int", "double", "MPI_Aint":
		return translates(f)
	}
	return false
}

// translates says whether every parameter of f has a Fortran translation:
// a call added with a type this file does not know yet gets no binding
// (TestEveryCallTranslates names it) instead of breaking the build.
func translates(f Function) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	FortranWrapperC(f)
	return true
}

// handleTypes are the C types that are Fortran INTEGER handles (MPICH ABI:
// the same integer in both languages).
var handleTypes = map[string]bool{
	"MPI_Comm": true, "MPI_Datatype": true, "MPI_Group": true, "MPI_Op": true,
	"MPI_Request": true, "MPI_Errhandler": true, "MPI_Info": true, "MPI_Win": true,
	"MPI_Message": true, "MPI_Session": true, "MPI_Fint": true,
}

// callbackTypes pass straight through: the Fortran procedure has the same
// calling convention as the C callback (all arguments by reference,
// handles are int).
var callbackTypes = map[string]bool{
	"MPI_User_function *": true, "MPI_Comm_errhandler_function *": true,
	"MPI_Win_errhandler_function *": true, "MPI_File_errhandler_function *": true,
	"MPI_Session_errhandler_function *": true, "MPI_Handler_function *": true,
	"MPI_User_function_c *": true,
}

// keyvalCallbacks maps a keyval constructor to its C trampolines: Fortran
// copy and delete procedures take every argument by reference and return
// the error through a last IERROR argument.
var keyvalCallbacks = map[string]string{
	"MPI_Comm_create_keyval": "comm",
	"MPI_Type_create_keyval": "type",
	"MPI_Win_create_keyval":  "win",
	"MPI_Keyval_create":      "mpi1",
}

// attrCalls are the attribute accessors: Fortran passes the value itself
// (INTEGER(MPI_ADDRESS_KIND), or INTEGER for the MPI-1 calls).
var attrCalls = map[string]bool{
	"MPI_Comm_set_attr": true, "MPI_Comm_get_attr": true, "MPI_Type_set_attr": true,
	"MPI_Type_get_attr": true, "MPI_Win_set_attr": true, "MPI_Win_get_attr": true,
	"MPI_Attr_put": true, "MPI_Attr_get": true,
}

// fortranMPI1 says whether f is an MPI-1 call whose Fortran binding takes
// INTEGER where later calls take INTEGER(MPI_ADDRESS_KIND): the calls MPI-3
// removed and the deprecated attribute calls MPICH still flags as current.
func fortranMPI1(f Function) bool {
	switch f.Name {
	case "MPI_Keyval_create", "MPI_Attr_put", "MPI_Attr_get":
		return true
	}
	return f.Deprecated
}

type fwrap struct {
	params []string // wrapper parameters (C declarations)
	hidden []string // hidden string lengths, appended after ierr
	pre    []string // statements before the call
	args   []string // arguments of the PMPI_ call
	post   []string // statements after the call (rc holds its result)
}

func (w *fwrap) add(param, arg string) {
	w.params = append(w.params, param)
	w.args = append(w.args, arg)
}

// strings binds a Fortran string argument n (with its hidden length) that
// the C call takes converted as c_n: pre builds c_n, post frees it.
func (w *fwrap) strings(n, pre, post string) {
	w.params = append(w.params, "char *"+n)
	w.hidden = append(w.hidden, "size_t "+n+"_len")
	w.pre = append(w.pre, pre)
	w.args = append(w.args, "c_"+n)
	w.post = append(w.post, post)
}

// paramByName finds a parameter of f.
func paramByName(f Function, name string) (Param, bool) {
	for _, p := range f.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// FortranWrapperC renders the C definition of f's Fortran binding, its
// aliases and nothing else. f must be FortranBindable.
func FortranWrapperC(f Function) string {
	var w fwrap
	fname := "p" + FortranName(f.Name) + "_"
	mpi1 := fortranMPI1(f) // MPI-1 calls take INTEGER where later ones take MPI_Aint
	if f.Name == "MPI_Init" || f.Name == "MPI_Init_thread" {
		// Fortran has no argc/argv.
		f.Params = f.Params[2:]
		w.args = append(w.args, "0", "0")
	}
	for _, p := range f.Params {
		n := p.Name
		t := strings.TrimPrefix(p.Type, "const ")
		arr := p.Array != ""
		switch {
		case attrCalls[f.Name] && strings.HasSuffix(n, "keyval"):
			// Predefined Fortran keyvals are the C ones plus one (MPICH).
			w.add("MPI_Fint *"+n, "gompi_f_keyval(*"+n+")")
		case attrCalls[f.Name] && n == "attribute_val":
			vt := "MPI_Aint"
			if mpi1 {
				vt = "MPI_Fint"
			}
			if strings.Contains(f.Name, "get") {
				w.params = append(w.params, vt+" *"+n)
				w.pre = append(w.pre, "void *cval = 0;")
				w.args = append(w.args, "&cval")
				kv := f.Params[1].Name
				w.post = append(w.post, fmt.Sprintf("if (rc == MPI_SUCCESS && *flag) *%s = (%s)gompi_f_attr_value(gompi_f_keyval(*%s), cval);", n, vt, kv))
			} else {
				w.add(vt+" *"+n, "(void *)(MPI_Aint)*"+n)
			}
		case keyvalCallbacks[f.Name] != "" && strings.HasSuffix(t, "_function *"):
			w.params = append(w.params, "void (*"+n+")(void)")
			if strings.Contains(n, "copy") {
				w.args = append(w.args, "gompi_f_copy_"+keyvalCallbacks[f.Name])
			} else {
				w.args = append(w.args, "gompi_f_delete_"+keyvalCallbacks[f.Name])
			}
		case keyvalCallbacks[f.Name] != "" && n == "extra_state":
			vt := "MPI_Aint"
			if mpi1 {
				vt = "MPI_Fint"
			}
			w.params = append(w.params, vt+" *"+n)
			cp, dl := f.Params[0].Name, f.Params[1].Name
			w.args = append(w.args, fmt.Sprintf("gompi_f_keyval_state(%s, %s, (MPI_Aint)*%s)", cp, dl, n))
		case callbackTypes[t]:
			w.add(t+n, n)
		case t == "char *" && p.Array == "[]" && n == "argv":
			w.strings(n, fmt.Sprintf("char **c_%s = gompi_f_argv(%s, %s_len);", n, n, n), fmt.Sprintf("gompi_f_free_argv(c_%s);", n))
		case t == "char *" && p.Array == "[]":
			// An array of COUNT strings (array_of_commands).
			w.strings(n, fmt.Sprintf("char **c_%s = gompi_f_strings(%s, %s_len, *count);", n, n, n), fmt.Sprintf("gompi_f_free_argv(c_%s);", n))
		case t == "char **" && p.Array == "[]":
			// array_of_argv(count, *): column i of a Fortran 2-D array.
			w.strings(n, fmt.Sprintf("char ***c_%s = gompi_f_argvs(%s, %s_len, *count);", n, n, n), fmt.Sprintf("gompi_f_free_argvs(c_%s, *count);", n))
		case p.Type == "const char *" || p.Type == "const char" && p.Array == "[]":
			w.params = append(w.params, "const char *"+n)
			w.hidden = append(w.hidden, "size_t "+n+"_len")
			lead := "0"
			if f.Group == "info" {
				lead = "1" // info keys and values lose leading blanks too
			}
			w.pre = append(w.pre, fmt.Sprintf("char *c_%s = gompi_f_string(%s, %s_len, %s);", n, n, n, lead))
			w.args = append(w.args, "c_"+n)
			w.post = append(w.post, fmt.Sprintf("free(c_%s);", n))
		case p.Type == "char *":
			w.params = append(w.params, "char *"+n)
			w.hidden = append(w.hidden, "size_t "+n+"_len")
			extra := "0"
			if _, ok := paramByName(f, "valuelen"); ok && n == "value" {
				extra = "(size_t)*valuelen"
			}
			w.pre = append(w.pre, fmt.Sprintf("size_t c_%s_cap = gompi_f_outcap(%s_len, %s);", n, n, extra),
				fmt.Sprintf("char *c_%s = calloc(1, c_%s_cap);", n, n))
			w.args = append(w.args, "c_"+n)
			cond := "rc == MPI_SUCCESS"
			if _, ok := paramByName(f, "flag"); ok {
				cond += " && *flag"
			}
			w.post = append(w.post, fmt.Sprintf("if (%s) gompi_f_blankpad(%s, %s_len, c_%s);", cond, n, n, n),
				fmt.Sprintf("free(c_%s);", n))
		case fortranDetach(f) && n == "buffer_addr":
			// Fortran passes the buffer itself; its address is not returned.
			w.params = append(w.params, "void *"+n)
			w.pre = append(w.pre, "void *c_addr = 0; (void)"+n+";")
			w.args = append(w.args, "&c_addr")
		case t == "void *" && (n == "baseptr" || n == "extra_state"):
			// An address the call stores (baseptr: INTEGER(MPI_ADDRESS_KIND)).
			w.add("void *"+n, n)
		case t == "void *":
			w.add(p.Type+n, "gompi_f_buf("+n+")")
		case (t == "MPI_Status *" || t == "MPI_Status" && p.Array == "[]") && strings.Contains(n, "statuses"):
			w.add("MPI_Fint *"+n, fmt.Sprintf("(%s == mpipriv2_.statuses_ignore ? MPI_STATUSES_IGNORE : (MPI_Status *)%s)", n, n))
		case t == "MPI_Status *":
			w.add("MPI_Fint *"+n, fmt.Sprintf("(%s == mpipriv1_.status_ignore ? MPI_STATUS_IGNORE : (MPI_Status *)%s)", n, n))
		case t == "int" && p.Array == "[]" && strings.Contains(n, "errcodes"):
			w.add("MPI_Fint *"+n, fmt.Sprintf("(%s == mpipriv2_.errcodes_ignore ? MPI_ERRCODES_IGNORE : %s)", n, n))
		case t == "int" && arr && strings.Contains(n, "weights"):
			w.add("MPI_Fint *"+n, "gompi_f_weights("+n+")")
		case t == "int" && p.Array == "[][3]":
			w.add("MPI_Fint *"+n, "(int (*)[3])"+n)
		case (t == "int" || handleTypes[t]) && arr:
			w.add("MPI_Fint *"+n, "("+t+" *)"+n)
		case t == "MPI_Aint" && arr && mpi1:
			// MPI-1 displacements are INTEGER.
			w.params = append(w.params, "MPI_Fint *"+n)
			w.pre = append(w.pre, fmt.Sprintf("MPI_Aint *c_%s = gompi_f_aints(%s, *count);", n, n))
			w.args = append(w.args, "c_"+n)
			w.post = append(w.post, fmt.Sprintf("free(c_%s);", n))
		case (t == "MPI_Aint" || t == "MPI_Offset" || t == "MPI_Count") && arr:
			w.add(t+" *"+n, "("+t+" *)"+n)
		case t == "int" || handleTypes[t]:
			w.add("MPI_Fint *"+n, "("+t+")*"+n)
		case t == "MPI_Aint" && mpi1:
			w.add("MPI_Fint *"+n, "(MPI_Aint)*"+n)
		case t == "MPI_Aint" || t == "MPI_Offset" || t == "MPI_Count":
			w.add(t+" *"+n, "*"+n)
		case t == "int *" || (strings.HasSuffix(t, " *") && handleTypes[strings.TrimSuffix(t, " *")]):
			w.add("MPI_Fint *"+n, "("+t+")"+n)
		case t == "MPI_Aint *" && mpi1:
			w.params = append(w.params, "MPI_Fint *"+n)
			w.pre = append(w.pre, "MPI_Aint c_"+n+" = 0;")
			w.args = append(w.args, "&c_"+n)
			w.post = append(w.post, fmt.Sprintf("if (rc == MPI_SUCCESS) *%s = (MPI_Fint)c_%s;", n, n))
		case t == "MPI_Aint *" || t == "MPI_Offset *" || t == "MPI_Count *":
			w.add(t+n, n)
		case t == "MPI_File":
			w.add("MPI_Fint *"+n, "PMPI_File_f2c(*"+n+")")
		case t == "MPI_File *":
			w.params = append(w.params, "MPI_Fint *"+n)
			w.pre = append(w.pre, fmt.Sprintf("MPI_File c_%s = PMPI_File_f2c(*%s);", n, n))
			w.args = append(w.args, "&c_"+n)
			w.post = append(w.post, fmt.Sprintf("*%s = PMPI_File_c2f(c_%s);", n, n))
		default:
			panic(fmt.Sprintf("abi: no Fortran translation for %s's %q %s%s", f.Name, p.Type, n, p.Array))
		}
	}
	// Fortran indices are 1-based.
	switch f.Name {
	case "MPI_Waitany", "MPI_Testany":
		w.post = append(w.post, "if (rc == MPI_SUCCESS && *index >= 0) *index += 1;")
	case "MPI_Waitsome", "MPI_Testsome", "MPI_Request_get_status_some":
		w.post = append(w.post, "if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED) for (int i = 0; i < *outcount; i++) array_of_indices[i] += 1;")
	}
	var b strings.Builder
	pr := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	call := "PMPI_" + strings.TrimPrefix(f.Name, "MPI_") + "(" + strings.Join(w.args, ", ") + ")"
	params := append([]string{}, w.params...)
	switch {
	case f.Variadic: // MPI_PCONTROL(LEVEL): no IERROR
		params = params[:len(f.Params)]
		pr("void %s(%s)\n{\n    (void)%s;\n}\n", fname, strings.Join(params, ", "), call)
	case f.Ret == "int":
		params = append(params, "MPI_Fint *ierr")
		params = append(params, w.hidden...)
		pr("void %s(%s)\n{\n", fname, strings.Join(params, ", "))
		for _, s := range w.pre {
			pr("    %s\n", s)
		}
		pr("    int rc = %s;\n", call)
		for _, s := range w.post {
			pr("    %s\n", s)
		}
		pr("    *ierr = rc;\n}\n")
	default: // functions: MPI_WTIME, MPI_AINT_ADD
		if len(params) == 0 {
			params = []string{"void"}
		}
		pr("%s %s(%s)\n{\n    return %s;\n}\n", f.Ret, fname, strings.Join(params, ", "), call)
	}
	if largeBaseName(f) != "" {
		// Large counts: mpi_f08's procedures only (fortran_f08_large.go).
		return b.String()
	}
	for i, s := range FortranSpellings(f.Name)[1:] {
		weak := ""
		if i >= 3 {
			weak = "weak, "
		}
		pr("extern __typeof__(%s) gompi_f_alias_%s_%d __asm__(\"%s\") __attribute__((%salias(\"%s\")));\n",
			fname, strings.ToLower(f.Name), i, s, weak, fname)
	}
	return b.String()
}

// FortranWrappersC renders the generated C file of Fortran bindings for the
// exported C functions (MPI_ names). It returns the file and the names bound.
func FortranWrappersC(exported map[string]bool) ([]byte, []string) {
	var b strings.Builder
	b.WriteString("/* Fortran bindings of every exported MPI call (mpif.h, use mpi).\n")
	b.WriteString(" * Generated by \"go run ./cmd/genfortran\" from package gompi/abi: do not edit. */\n")
	b.WriteString("#include \"fortran.h\"\n\n")
	var bound []string
	for _, f := range Functions() {
		if !exported[f.Name] || !FortranBindable(f) {
			continue
		}
		b.WriteString(FortranWrapperC(f))
		b.WriteString("\n")
		bound = append(bound, f.Name)
	}
	set := map[string]bool{}
	for _, n := range bound {
		set[n] = true
	}
	b.WriteString("/* Large-count twins, for mpi_f08's generic procedures only. */\n")
	for _, n := range FortranLargeBound(exported, set) {
		for _, f := range Functions() {
			if f.Name == n {
				b.WriteString(FortranWrapperC(f))
				b.WriteString("\n")
			}
		}
	}
	return []byte(b.String()), bound
}

// fortranDetach says whether f detaches a buffer: Fortran passes the buffer
// itself (<type> BUFFER_ADDR(*)), whose address is not returned, so the
// wrapper must not write it there; mpi_f08 binds these calls to the C entry
// instead (TYPE(C_PTR) buffer_addr gets the address).
func fortranDetach(f Function) bool {
	switch fortranBaseName(f) {
	case "MPI_Buffer_detach", "MPI_Comm_detach_buffer", "MPI_Session_detach_buffer":
		return true
	}
	return false
}
