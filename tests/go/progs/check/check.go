// Package check is what the Go test programs share: failing loudly and
// ending the whole job when a rank finds a wrong value.
package check

import (
	"fmt"
	"os"

	"gompi/mpi"
)

// Fail prints "TEST-FAIL: rank R: ..." (the harness looks for it) and ends
// the job with MPI_Abort, so a lone failing rank cannot leave the others
// waiting.
func Fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "TEST-FAIL: rank %d: %s\n", mpi.WorldRank(), fmt.Sprintf(format, args...))
	mpi.Abort(mpi.World(), 1)
}

// True fails unless ok.
func True(ok bool, format string, args ...any) {
	if !ok {
		Fail(format, args...)
	}
}

// NoErr fails on an MPI error.
func NoErr(err error, what string) {
	if err != nil {
		Fail("%s: %v", what, err)
	}
}

// Init starts MPI and returns MPI_COMM_WORLD.
func Init() *mpi.Comm {
	if err := mpi.Init(); err != nil {
		fmt.Fprintf(os.Stderr, "TEST-FAIL: MPI_Init: %v\n", err)
		os.Exit(1)
	}
	return mpi.World()
}

// Done finalizes and prints "<name> ok rank=R size=N", which the harness
// expects from every rank.
func Done(c *mpi.Comm, name string) {
	rank, size := c.Rank(), c.Size()
	NoErr(mpi.Finalize(), "MPI_Finalize")
	fmt.Printf("%s ok rank=%d size=%d\n", name, rank, size)
}
