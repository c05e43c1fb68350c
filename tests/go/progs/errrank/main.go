// Command errrank checks invalid ranks: under MPI_ERRORS_RETURN a send to
// rank size (and other bad ranks) returns an *mpi.Error of class
// MPI_ERR_RANK naming the call, and MPI goes on working afterwards. With the
// argument "fatal" the default handler must end the job instead.
package main

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"gompi/abi"
	"gompi/mpi"
	"gompi/tests/go/progs/check"
)

func expectRank(err error, call, what string) {
	var e *mpi.Error
	check.True(errors.As(err, &e), "%s: got %v (%T), want *mpi.Error", what, err, err)
	check.True(e.Class == abi.ErrRank, "%s: class %d (%v), want MPI_ERR_RANK (%d)", what, e.Class, e, abi.ErrRank)
	check.True(e.Call == call, "%s: call %q, want %q", what, e.Call, call)
	check.True(mpi.Code(err) == abi.ErrRank, "%s: Code %d", what, mpi.Code(err))
}

func main() {
	c := check.Init()
	me, n := c.Rank(), c.Size()
	v := []int32{42}
	dt := mpi.TypeOf[int32]()
	if len(os.Args) > 1 && os.Args[1] == "fatal" {
		// MPI_ERRORS_ARE_FATAL: this must not return.
		c.Send(unsafe.Pointer(&v[0]), 1, dt, n, 0)
		check.Fail("MPI_Send to rank %d returned under MPI_ERRORS_ARE_FATAL", n)
	}
	c.SetErrhandler(mpi.ErrorsReturn)
	expectRank(c.Send(unsafe.Pointer(&v[0]), 1, dt, n, 0), "MPI_Send", "Send to rank size")
	expectRank(c.Send(unsafe.Pointer(&v[0]), 1, dt, n+7, 0), "MPI_Send", "Send to rank size+7")
	expectRank(c.Send(unsafe.Pointer(&v[0]), 1, dt, -5, 0), "MPI_Send", "Send to rank -5")
	expectRank(mpi.SendSlice(c, v, n, 0), "MPI_Send", "SendSlice to rank size")
	expectRank(c.Ssend(unsafe.Pointer(&v[0]), 1, dt, n, 0), "MPI_Ssend", "Ssend to rank size")
	r, err := mpi.IsendSlice(c, v, n, 0)
	expectRank(err, "MPI_Isend", "Isend to rank size")
	check.True(r == nil, "a failed Isend returned a request")
	_, err = mpi.RecvSlice(c, v, n, 0)
	expectRank(err, "MPI_Recv", "Recv from rank size")
	_, err = mpi.IrecvSlice(c, v, -3, 0)
	expectRank(err, "MPI_Irecv", "Irecv from rank -3")

	// The errors changed nothing: a ring step still works.
	right, left := (me+1)%n, (me-1+n)%n
	out, in := []int32{int32(me)}, []int32{-1}
	sr, err := mpi.IsendSlice(c, out, right, 5)
	check.NoErr(err, "Isend")
	_, err = mpi.RecvSlice(c, in, left, 5)
	check.NoErr(err, "Recv")
	_, err = c.Wait(sr)
	check.NoErr(err, "Wait")
	check.True(in[0] == int32(left), "after the errors rank %d sent %d", left, in[0])
	check.NoErr(c.Barrier(), "Barrier")
	fmt.Printf("errrank: %v\n", c.Send(unsafe.Pointer(&v[0]), 1, dt, n, 0))
	check.Done(c, "errrank")
}
