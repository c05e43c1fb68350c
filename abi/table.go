package abi

import (
	"fmt"
	"regexp"
	"strings"
)

// ConstKind says how a constant is spelled in C and whether a test can
// print its value.
type ConstKind int

const (
	// KInt is a plain integer macro, written in decimal: #define MPI_IDENT 0.
	KInt ConstKind = iota
	// KHex is a plain integer macro written in hex (keyvals, MPI_ERR_LASTCODE).
	KHex
	// KHandle is an integer cast to a handle type: ((MPI_Comm)0x44000000).
	KHandle
	// KPointer is an integer cast to a pointer type: ((void *)-1).
	KPointer
	// KAlias is another macro or expression, copied verbatim (MPI_LONG_LONG).
	KAlias
	// KExtern is a variable the library exports: extern int * const MPI_UNWEIGHTED.
	KExtern
	// KString is a string literal macro.
	KString
)

// Constant is one named value of the C interface.
type Constant struct {
	Name  string
	Kind  ConstKind
	CType string // type of the value in C ("int" for plain integers)
	Value int64  // KInt, KHex, KHandle, KPointer
	Expr  string // KAlias: the replacement text; KString: the string (unquoted)
	// NoFortran keeps an integer constant out of mpif.h; FOffset is added to
	// the value there (Fortran keyvals are the C ones plus one).
	NoFortran bool
	FOffset   int64
	// Comment is a short note written next to the definition.
	Comment string
}

// Param is one parameter of a C prototype. Array holds a trailing array
// declarator such as "[]" or "[][3]"; Type holds everything before the name.
type Param struct {
	Type  string
	Name  string
	Array string
}

// C renders the parameter as written in a prototype.
func (p Param) C() string {
	if p.Name == "" {
		return p.Type
	}
	sep := " "
	if strings.HasSuffix(p.Type, "*") {
		sep = ""
	}
	return p.Type + sep + p.Name + p.Array
}

// Function is one C function (or callback type) of the interface.
type Function struct {
	Ret      string
	Name     string
	Params   []Param
	Variadic bool   // trailing ", ..."
	Group    string // chapter of the standard, used for sectioning the header
	// Macro, when set, is the body of a function-like macro that replaces the
	// prototype in the header (MPICH defines handle conversions as casts).
	// The library may still export the function under its name.
	Macro string
	// Deprecated marks calls removed from MPI-3 that MPICH still ships.
	Deprecated bool
	// NoPMPI marks helpers without a profiling twin (MPIR_Dup_fn).
	NoPMPI bool
}

// ConstGroup is a titled run of constants, kept together in the header.
type ConstGroup struct {
	Title  string
	Consts []Constant
}

// ParamList renders the parameter list without parentheses.
func (f Function) ParamList() string {
	if len(f.Params) == 0 && !f.Variadic {
		return "void"
	}
	parts := make([]string, 0, len(f.Params)+1)
	for _, p := range f.Params {
		parts = append(parts, p.C())
	}
	if f.Variadic {
		parts = append(parts, "...")
	}
	return strings.Join(parts, ", ")
}

// Prototype renders "ret name(params)" with the given name prefix
// ("" for MPI_X, "P" for PMPI_X).
func (f Function) Prototype(prefix string) string {
	sep := " "
	if strings.HasSuffix(f.Ret, "*") {
		sep = ""
	}
	return f.Ret + sep + prefix + f.Name + "(" + f.ParamList() + ")"
}

// Typedef is one type definition, written verbatim; Callback ones are
// function types parsed like prototypes.
type Typedef struct {
	Name string
	Decl string    // full C text for non-callback typedefs
	Fn   *Function // non-nil for callback (function type) typedefs
}

// C renders the typedef.
func (t Typedef) C() string {
	if t.Fn != nil {
		return "typedef " + t.Fn.Ret + " " + t.Name + "(" + t.Fn.ParamList() + ");"
	}
	return t.Decl
}

var (
	protoRE = regexp.MustCompile(`^\s*(.+?)\s*\b([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*$`)
	paramRE = regexp.MustCompile(`^(.*?)\s*\b([A-Za-z_][A-Za-z0-9_]*)\s*((?:\[[^\]]*\])*)$`)
)

// parseProto parses "ret name(type name, ...)" into a Function.
func parseProto(line string) (Function, error) {
	m := protoRE.FindStringSubmatch(line)
	if m == nil {
		return Function{}, fmt.Errorf("bad prototype %q", line)
	}
	f := Function{Ret: normType(m[1]), Name: m[2]}
	args := strings.TrimSpace(m[3])
	if args == "void" || args == "" {
		return f, nil
	}
	for _, a := range strings.Split(args, ",") {
		a = strings.TrimSpace(a)
		if a == "..." {
			f.Variadic = true
			continue
		}
		pm := paramRE.FindStringSubmatch(a)
		if pm == nil || pm[1] == "" {
			return Function{}, fmt.Errorf("bad parameter %q in %q", a, line)
		}
		f.Params = append(f.Params, Param{Type: normType(pm[1]), Name: pm[2], Array: pm[3]})
	}
	return f, nil
}

// normType writes pointer stars as "T *" / "T **".
func normType(t string) string {
	t = strings.TrimSpace(t)
	stars := strings.Count(t, "*")
	if stars == 0 {
		return t
	}
	base := strings.TrimSpace(strings.ReplaceAll(t, "*", ""))
	return base + " " + strings.Repeat("*", stars)
}

// parseProtos parses one prototype per non-empty line; "#" starts a comment.
func parseProtos(group, text string) []Function {
	var out []Function
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f, err := parseProto(line)
		if err != nil {
			panic(err)
		}
		f.Group = group
		out = append(out, f)
	}
	return out
}
