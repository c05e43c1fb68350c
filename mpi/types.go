package mpi

import "gompi/datatype"

// TypeFromHandle resolves a datatype handle, predefined or derived (nil
// when invalid).
func TypeFromHandle(h int32) *datatype.Type {
	return datatype.Lookup(h)
}
