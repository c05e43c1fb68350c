// Package mpierr is the error the pure-logic packages (group, info, topo)
// return: the MPI error class the standard names and what was wrong, for
// the mpi layer to raise through the right error handler.
package mpierr

import "fmt"

// Error is an argument error with its MPI error class.
type Error struct {
	Class  int
	Detail string
}

func (e *Error) Error() string { return e.Detail }

// New makes an Error of class with a formatted detail.
func New(class int, format string, args ...any) *Error {
	return &Error{Class: class, Detail: fmt.Sprintf(format, args...)}
}
