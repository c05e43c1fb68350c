// Command capi is built with -buildmode=c-shared into libgompi.so: the C ABI
// of gompi. Each PMPI_X is a C function (in a .c file) that answers trivial
// queries itself and otherwise makes exactly one call into Go; MPI_X is a
// weak alias of PMPI_X, which gives the profiling interface.
package main

// #cgo CFLAGS: -I${SRCDIR}/../include -O2 -Wall -Werror
import "C"

import _ "github.com/ianlancetaylor/cgosymbolizer" // Go tracebacks show C frames

func main() {}
