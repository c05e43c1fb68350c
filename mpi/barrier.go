package mpi

// barrier is the blocking barrier MPI_Finalize and others use internally.
func barrier(c *Comm) { c.BarrierAs(Blocking) }
