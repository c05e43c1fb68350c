package abitests

import (
	"fmt"
	"strings"

	"gompi/abi"
)

// handleTypes are the types whose size must match MPICH's.
var handleTypes = []string{
	"MPI_Aint", "MPI_Offset", "MPI_Count", "MPI_Fint", "MPI_Comm", "MPI_Group",
	"MPI_Datatype", "MPI_Request", "MPI_Message", "MPI_Op", "MPI_Errhandler",
	"MPI_Win", "MPI_Info", "MPI_Session", "MPI_File", "MPI_T_enum",
	"MPI_T_cvar_handle", "MPI_T_pvar_handle", "MPI_T_pvar_session", "MPI_Status",
}

// printExpr is the C expression printed for a constant, or "" when the
// constant has no link-independent integer value.
func printExpr(c abi.Constant) string {
	switch c.Kind {
	case abi.KInt, abi.KHex, abi.KHandle:
		return fmt.Sprintf("(long long)(%s)", c.Name)
	case abi.KPointer:
		return fmt.Sprintf("(long long)(intptr_t)(%s)", c.Name)
	case abi.KAlias:
		if c.CType == "MPI_Datatype" {
			return fmt.Sprintf("(long long)(%s)", c.Name)
		}
	}
	return ""
}

// printableConstants lists name and expression of every constant the value
// program prints, plus the version macros.
func printableConstants() [][2]string {
	out := [][2]string{
		{"MPI_VERSION", "(long long)(MPI_VERSION)"},
		{"MPI_SUBVERSION", "(long long)(MPI_SUBVERSION)"},
	}
	for _, c := range abi.Constants() {
		if e := printExpr(c); e != "" {
			out = append(out, [2]string{c.Name, e})
		}
	}
	return out
}

// valueProgram prints "name value" for each constant given, then the sizes
// of the handle types and the offsets of MPI_Status's fields.
func valueProgram(consts [][2]string) string {
	var b strings.Builder
	b.WriteString("#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <mpi.h>\n\nint main(void)\n{\n")
	for _, c := range consts {
		fmt.Fprintf(&b, "    printf(\"%%s %%lld\\n\", \"%s\", %s);\n", c[0], c[1])
	}
	for _, t := range handleTypes {
		fmt.Fprintf(&b, "    printf(\"%%s %%lld\\n\", \"sizeof(%s)\", (long long)sizeof(%s));\n", t, t)
	}
	for _, f := range abi.StatusFields {
		fmt.Fprintf(&b, "    printf(\"%%s %%lld\\n\", \"offsetof(MPI_Status.%s)\", (long long)offsetof(MPI_Status, %s));\n", f, f)
	}
	b.WriteString("    return 0;\n}\n")
	return b.String()
}

// usageProgram touches every constant, type, callback type and function of
// the table, so compiling it with -Werror checks the whole header.
func usageProgram() string {
	var b strings.Builder
	b.WriteString("#include <mpi.h>\n\ntypedef void (*any_fn)(void);\n\n")
	b.WriteString("int gompi_use_everything(void);\nint gompi_use_everything(void)\n{\n    long long sum = 0;\n")
	for _, c := range abi.Constants() {
		switch {
		case c.Kind == abi.KInt || c.Kind == abi.KHex || c.Kind == abi.KHandle:
			fmt.Fprintf(&b, "    sum += (long long)(%s);\n", c.Name)
		case c.Kind == abi.KPointer || c.Kind == abi.KExtern || (c.Kind == abi.KAlias && c.CType != ""):
			// Through a variable: comparing a function's address with 0 warns.
			fmt.Fprintf(&b, "    { %s v = %s; sum += v != 0; }\n", c.CType, c.Name)
		}
	}
	for _, td := range abi.AllTypedefs() {
		fmt.Fprintf(&b, "    { %s *p = 0; sum += p != 0; }\n", td.Name)
	}
	b.WriteString("    {\n        static const any_fn fns[] = {\n")
	for _, f := range abi.Functions() {
		if f.Macro != "" {
			continue
		}
		fmt.Fprintf(&b, "            (any_fn)%s,\n", f.Name)
		if !f.NoPMPI {
			fmt.Fprintf(&b, "            (any_fn)P%s,\n", f.Name)
		}
	}
	b.WriteString("        };\n        sum += (long long)(sizeof fns / sizeof fns[0]);\n    }\n")
	for _, f := range abi.Functions() {
		if f.Macro == "" {
			continue
		}
		args := make([]string, len(f.Params))
		for i := range args {
			args[i] = "0"
		}
		fmt.Fprintf(&b, "    sum += (long long)%s(%s);\n", f.Name, strings.Join(args, ", "))
		fmt.Fprintf(&b, "    sum += (long long)P%s(%s);\n", f.Name, strings.Join(args, ", "))
	}
	b.WriteString("    {\n        MPI_Status st;\n        st.MPI_SOURCE = MPI_ANY_SOURCE;\n        st.MPI_TAG = MPI_ANY_TAG;\n")
	b.WriteString("        st.MPI_ERROR = MPI_SUCCESS;\n        sum += st.MPI_SOURCE + st.MPI_TAG + st.MPI_ERROR;\n    }\n")
	b.WriteString("    return (int)(sum & 1);\n}\n")
	return b.String()
}

// redeclarations repeats our callback types and prototypes after MPICH's
// header: C11 accepts a repeated typedef or declaration only if the types
// are identical, so this checks every signature against MPICH's.
func redeclarations() string {
	var b strings.Builder
	b.WriteString("#include <mpi.h>\n\n")
	for _, td := range abi.AllTypedefs() {
		if td.Fn != nil {
			b.WriteString(td.C() + "\n")
		}
	}
	for _, f := range abi.Functions() {
		if f.Macro != "" {
			continue
		}
		b.WriteString(f.Prototype("") + ";\n")
		if !f.NoPMPI {
			b.WriteString(f.Prototype("P") + ";\n")
		}
	}
	return b.String()
}
