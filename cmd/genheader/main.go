// Command genheader writes include/mpi.h (and optionally mpif.h) from the
// ABI tables in package abi, so every constant is defined once.
package main

import (
	"flag"
	"fmt"
	"os"

	"gompi/abi"
)

func main() {
	out := flag.String("o", "include/mpi.h", "path of the C header to write")
	fout := flag.String("f", "", "path of the Fortran 77 header to write (empty: skip)")
	flag.Parse()
	if err := os.WriteFile(*out, abi.Header(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genheader:", err)
		os.Exit(1)
	}
	if *fout != "" {
		if err := os.WriteFile(*fout, abi.FortranHeader(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genheader:", err)
			os.Exit(1)
		}
	}
}
