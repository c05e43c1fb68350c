// Command genheader writes include/mpi.h and include/mpif.h from the ABI
// tables in package abi, so every constant is defined once.
//
//	go run ./cmd/genheader -o include/mpi.h   # also writes include/mpif.h
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"gompi/abi"
)

func main() {
	out := flag.String("o", "include/mpi.h", "path of the C header to write")
	fout := flag.String("f", "auto", `path of the Fortran 77 header ("auto": mpif.h next to -o, "": none)`)
	flag.Parse()
	if *fout == "auto" {
		*fout = filepath.Join(filepath.Dir(*out), "mpif.h")
	}
	write(*out, abi.Header())
	if *fout != "" {
		write(*fout, abi.FortranHeader())
	}
}

func write(path string, data []byte) {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genheader:", err)
		os.Exit(1)
	}
}
