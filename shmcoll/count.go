package shmcoll

// Collective kinds in the order of the C side (capi/shmcoll.h) and mpi.
const (
	CountBarrier = iota
	CountBcast
	CountReduce
	CountAllreduce
	CountAllgather
	CountAlltoall
	CountReduceScatter
	CountKinds
)

// Calls counts, per algorithm (slots, direct) and kind, collectives run
// through shared memory from Go: plain words, one set per process (MPI_T
// reads them; the C side keeps its own). A reduction larger than the slots
// that mpi splits counts once per piece.
type Calls [2][CountKinds]uint64

// CountInto makes g count its calls in c (by default each group counts
// apart: tests run several ranks as goroutines of one process).
func (g *Group) CountInto(c *Calls) { g.stats = c }

const (
	AlgSlots  = 0
	AlgDirect = 1
)
