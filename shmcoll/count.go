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

// Calls counts, per algorithm (slots, direct) and kind, the collectives this
// process ran through shared memory from Go (plain per-process words: MPI_T
// reads them; the C side keeps its own). A reduction larger than the slots
// that mpi splits counts once per piece.
var Calls [2][CountKinds]uint64

const (
	AlgSlots  = 0
	AlgDirect = 1
)
