// Command genfortran writes the Fortran bindings from the ABI tables in
// package abi: the C wrappers compiled into libgompi.so for every call the
// library exports, and the sources of the `mpi` and `mpi_f08` modules.
//
//	go run ./cmd/genfortran -capi capi -o capi/zfortran_gen.c -mod build/fortran
//
// The exported calls are those capi's C files give a profiling alias
// ("#pragma weak MPI_X = PMPI_X"), so a call added there gets its Fortran
// binding with no edit here.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gompi/abi"
)

var pragmaRE = regexp.MustCompile(`(?m)^\s*#\s*pragma\s+weak\s+(MPI_\w+)\s*=\s*PMPI_\w+`)

func main() {
	capi := flag.String("capi", "capi", "directory of the C entry points")
	out := flag.String("o", "capi/zfortran_gen.c", "C file of Fortran wrappers to write")
	mod := flag.String("mod", "", "directory to write the Fortran module sources into (\"\": none)")
	list := flag.Bool("list", false, "print the bound calls instead of writing files")
	flag.Parse()
	exported, err := exportedCalls(*capi, filepath.Base(*out))
	check(err)
	src, bound := abi.FortranWrappersC(exported)
	if *list {
		fmt.Println(strings.Join(bound, "\n"))
		return
	}
	writeIfChanged(*out, src)
	if *mod != "" {
		check(os.MkdirAll(*mod, 0o755))
		set := map[string]bool{}
		for _, n := range bound {
			set[n] = true
		}
		writeIfChanged(filepath.Join(*mod, "mpi.f90"), abi.FortranModule(set))
		// mpi_f08 also wraps the exported calls bound by hand (capi/fortran_cb.c).
		for _, n := range abi.FortranHandBound {
			if exported[n] {
				set[n] = true
			}
		}
		// ... and the large-count twins, under the generic names.
		for _, n := range abi.FortranLargeBound(exported, set) {
			set[n] = true
		}
		writeIfChanged(filepath.Join(*mod, "mpi_f08.f90"), abi.FortranF08Module(set))
		writeIfChanged(filepath.Join(*mod, "f08_shims.c"), abi.FortranF08Shims(set))
	}
}

// exportedCalls reads the MPI_ names given a profiling alias in dir's C
// files, skipping the generated file.
func exportedCalls(dir, skip string) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.c"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	names := map[string]bool{}
	for _, f := range files {
		if filepath.Base(f) == skip {
			continue
		}
		text, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range pragmaRE.FindAllSubmatch(text, -1) {
			names[string(m[1])] = true
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no exported MPI calls found in %s", dir)
	}
	return names, nil
}

// writeIfChanged keeps the file's time when its text is the same, so make
// and the Go build cache do not rebuild for nothing.
func writeIfChanged(path string, data []byte) {
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return
	}
	check(os.WriteFile(path, data, 0o644))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "genfortran:", err)
		os.Exit(1)
	}
}
