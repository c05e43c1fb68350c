package mpi

import "gompi/datatype"

// copyAttrs runs the copy callbacks of old's attributes onto dup (MPI_Comm_dup).
func (c *Comm) copyAttrs(dup *Comm) error { return nil }

// deleteAttrs runs the delete callbacks of c's attributes (MPI_Comm_free).
func (c *Comm) deleteAttrs() error { return nil }

// CopyTypeAttrs runs the copy callbacks of old's attributes onto dup (MPI_Type_dup).
func CopyTypeAttrs(old, dup *datatype.Type) error { return nil }

// DeleteTypeAttrs runs the delete callbacks of t's attributes (MPI_Type_free).
func DeleteTypeAttrs(t *datatype.Type) error { return nil }
