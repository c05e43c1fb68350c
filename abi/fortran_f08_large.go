package abi

import (
	"fmt"
	"regexp"
	"strings"
)

// Large counts in mpi_f08 (MPI-4.1 §19.2): MPI_Send is a generic name whose
// specific procedures are MPI_Send_f08ts (INTEGER counts) and
// MPI_Send_c_f08ts (INTEGER(KIND=MPI_COUNT_KIND) counts), resolved by the
// counts' kind. The _c procedure calls the C entry MPI_Send_c through a
// wrapper generated like the mpif.h bindings (zfortran_gen.c) but exported
// only as pmpi_send_c_: mpif.h and `use mpi` have no large-count calls.
// Where the two forms cannot be told apart (MPI_Type_get_extent: MPI_Aint
// and MPI_Count are both 8 bytes; MPI_Op_create: only the callback
// differs), the _c form is a procedure of its own name, MPI_Type_get_extent_c.

// largeBaseName is the name of the call f widens ("" when f is none).
func largeBaseName(f Function) string {
	if f.Group != "large count" {
		return ""
	}
	return strings.TrimSuffix(f.Name, "_c")
}

// fortranBaseName is the name whose special cases f's Fortran binding
// shares: the base call's for a large-count twin, else f's own.
func fortranBaseName(f Function) string {
	if b := largeBaseName(f); b != "" {
		return b
	}
	return f.Name
}

// f08BaseGroup is the group of the call named name.
func f08BaseGroup(name string) string {
	for _, g := range Functions() {
		if g.Name == name {
			return g.Group
		}
	}
	return ""
}

// FortranLargeBindable says whether the large-count twin f gets an
// mpi_f08 procedure: its base call has one and every parameter translates.
func FortranLargeBindable(f Function) bool {
	base := largeBaseName(f)
	if base == "" {
		return false
	}
	for _, g := range Functions() {
		if g.Name == base {
			return (FortranBindable(g) || fortranHandBound(g.Name)) && translates(f)
		}
	}
	return false
}

// FortranLargeBound lists the exported large-count twins of the calls in
// bound that get an mpi_f08 procedure.
func FortranLargeBound(exported, bound map[string]bool) []string {
	var out []string
	for _, f := range Functions() {
		if exported[f.Name] && bound[largeBaseName(f)] && FortranLargeBindable(f) {
			out = append(out, f.Name)
		}
	}
	return out
}

var kindRE = regexp.MustCompile(`KIND=MPI_(ADDRESS|OFFSET|COUNT)_KIND`)

// f08TKR is the type, kind and rank of an mpi_f08 dummy argument, as far
// as generic resolution sees them: the three 8-byte kinds are one kind.
func f08TKR(a f08Arg) string {
	decl, name, _ := strings.Cut(a.decl, " :: ")
	typ, _, _ := strings.Cut(decl, ",")
	typ = kindRE.ReplaceAllString(typ, "KIND=8")
	rank := 0
	if _, dims, ok := strings.Cut(name, "("); ok {
		rank = strings.Count(dims, ",") + 1
	}
	return fmt.Sprintf("%s/%d", typ, rank)
}

// f08Distinguishable says whether the base and large forms can share a
// generic name (Fortran 2018 §15.4.3.4.5): some non-optional argument has
// the same name and position in both and a different type, kind or rank.
func f08Distinguishable(base, large Function) bool {
	for i := range base.Params {
		if i >= len(large.Params) || base.Params[i].Name != large.Params[i].Name {
			continue
		}
		a, ok1 := f08Param(base, base.Params[i])
		b, ok2 := f08Param(large, large.Params[i])
		if !ok1 || !ok2 || a.choice || b.choice || strings.HasPrefix(a.decl, "EXTERNAL") {
			continue
		}
		if f08TKR(a) != f08TKR(b) {
			return true
		}
	}
	return false
}

// f08Generic renders the generic interface of a call and its large-count
// twin: the interface bodies of the two specific procedures, which the
// module keeps private (a tool defining MPI_Send_f08ts may use mpi_f08).
func f08Generic(name string, specifics ...f08Parts) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  INTERFACE %s\n", name)
	for _, s := range specifics {
		b.WriteString(s.specIface)
	}
	fmt.Fprintf(&b, "  END INTERFACE %s\n", name)
	return b.String()
}
