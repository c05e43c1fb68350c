package mpi

import "gompi/layout"

// Layout is the request handles the C fast paths make and recognise
// themselves (capi/fastpath.h, req.c).
func Layout() ([]layout.Const, []layout.Struct) {
	return []layout.Const{
		{Name: "GOMPI_HANDLE_SEND_DONE", Value: int64(HandleSendDone), Comment: "mpi.HandleSendDone"},
		{Name: "GOMPI_HANDLE_PROC_NULL", Value: int64(HandleProcNullOp), Comment: "mpi.HandleProcNullOp"},
	}, nil
}
