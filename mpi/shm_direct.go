package mpi

import (
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/shmcoll"
)

// directReads tells whether every member may reach every other's memory,
// for the direct collectives: past the slots, each rank copies or folds
// straight between the others' buffers (a plain copy through the peer's
// shared heap, process_vm_readv/writev elsewhere), where the point-to-point
// schedules wait for each peer in turn to be scheduled. Agreed once through
// shared memory the first time a large collective asks (the probe of each
// pair ran on its own side; all must decide alike).
func (c *Comm) directReads() bool {
	if !c.directAsked {
		c.directAsked = true
		if st.sm != nil && st.sm.NodeSharesHeaps() {
			mine := uint64(1)
			for _, w := range c.group {
				if w != st.rank && !st.sm.CanGet(w) {
					mine = 0
				}
			}
			flags := make([]uint64, c.size)
			c.shm.Allgather(unsafe.Pointer(&mine), unsafe.Pointer(&flags[0]), 8)
			ok := true
			for _, f := range flags {
				ok = ok && f == 1
			}
			if ok {
				c.direct = &shmcoll.Direct{
					At: func(r int, addr uintptr, n int) unsafe.Pointer { return st.sm.PeerAt(c.group[r], addr, n) },
					Read: func(r int, dst unsafe.Pointer, addr uintptr, n int) bool {
						return st.sm.Get(c.group[r], dst, n, addr) == nil
					},
					Write: func(r int, addr uintptr, src unsafe.Pointer, n int) bool {
						return st.sm.Put(c.group[r], src, n, addr) == nil
					},
				}
			}
		}
	}
	return c.direct != nil
}

// directFrom is, per kind, the size per rank from which a reduction goes by
// direct access when every process keeps its large blocks in the shared
// heap (0: never); below it the slots or the point-to-point schedules win,
// as measured below (decideDirectFrom).
var directFrom [shmKinds]int

// decideDirectFrom fills directFrom for this job, once at MPI_Init.
//   - Processes outnumbering cores: the two synchronizations (addresses
//     posted, blocks written) and copies through other processes' mappings
//     cost more than the slots on smaller data. 4 ranks on 2 cores, slow
//     phase, medians of 3 alternating runs against the slots: allreduce from
//     64 KiB (GOMPI_SHM_DIRECT_ALLREDUCE; 64 KiB 26.6 -> 20.1 us, 16 KiB
//     16.7 -> 19.1), reduce from 256 KiB (GOMPI_SHM_DIRECT_REDUCE; 256 KiB
//     38.9 -> 27.2, 64 KiB 8.9 -> 19.9), each rank folding its block in
//     scratch and writing it to the root once; reduce_scatter from a whole
//     vector of 256 KiB (GOMPI_SHM_DIRECT_REDUCE_SCATTER; medians of 5
//     against the slots' pieces: 16 KiB blocks 12.7 -> 31.6 us, 64 KiB 66
//     -> 41).
//   - A core per process: all three past the 4 KiB slots
//     (GOMPI_SHM_DIRECT_ALLREDUCE_BOUND, _REDUCE_BOUND, _REDUCE_SCATTER_BOUND;
//     4 KiB), where no slot copy and no rendezvous per exchange step is
//     paid. 2 ranks bound, slow phase, medians of 3 alternating runs against
//     the point-to-point schedules: allreduce 16 KiB 6.7 -> 1.6 us, 64 KiB
//     11.3 -> 2.7, 256 KiB 31.6 -> 5.8, 1 MiB 118 -> 33; reduce 16 KiB 2.0
//     -> 1.3, 64 KiB 3.8 -> 2.4, 1 MiB 51 -> 36; reduce_scatter of 4 KiB
//     blocks 2.2 -> 1.3, 64 KiB 6.7 -> 2.9, 1 MiB 78 -> 62.
//   - Bcast past a big slot (GOMPI_SHM_DIRECT_BCAST, _BCAST_BOUND; 64 KiB
//     and one byte), each rank copying its piece from the root into every
//     reader, against the point-to-point schedule where each reader copies
//     all from the root. 4 ranks on 2 cores, slow phase, medians of 3
//     alternating runs: 256 KiB 41 -> 23 us, 1 MiB 88 -> 59; 2 ranks bound:
//     256 KiB 3.9 -> 3.0, 1 MiB 12.4 -> 10.6. Within a big slot the slots
//     win (the root runs ahead): 64 KiB 5.0 -> 23 with 4 ranks, 3.7 -> 4.9
//     with 2.
func decideDirectFrom() {
	from := func(kind string, oversub, bound int) int {
		if st.oversub {
			return st.settings.size("GOMPI_SHM_DIRECT_"+kind, oversub)
		}
		return st.settings.size("GOMPI_SHM_DIRECT_"+kind+"_BOUND", bound)
	}
	directFrom[shmAllreduce] = from("ALLREDUCE", 64<<10, 4<<10)
	directFrom[shmReduce] = from("REDUCE", 256<<10, 4<<10)
	directFrom[shmReduceScatter] = from("REDUCE_SCATTER", 256<<10, 4<<10)
	directFrom[shmBcast] = from("BCAST", 64<<10+1, 64<<10+1)
}

// useDirect tells whether a shared-memory collective of kind k of n bytes
// per rank goes by direct access (shmcoll.Direct).
func (c *Comm) useDirect(k, n int) bool {
	return directFrom[k] > 0 && n >= directFrom[k] && c.directReads()
}

// useDirectBcast tells whether a blocking bcast of n bytes past the slots
// goes by direct access (any datatype: shmBcast packs).
func (c *Comm) useDirectBcast(m CollMode, n int) bool {
	return m == Blocking && c.shm != nil && c.shmMax[shmBcast] >= 0 && c.useDirect(shmBcast, n)
}

// useDirectContig tells whether a blocking reduction of count elements of a
// contiguous dt, past the kind's shared-memory limit, goes by direct
// access.
func (c *Comm) useDirectContig(m CollMode, k int, count int, dt *datatype.Type) bool {
	return m == Blocking && c.shm != nil && c.shmMax[k] >= 0 && dt != nil && dt.Contig && c.useDirect(k, count*dt.Size)
}

// directFailed raises a direct collective's failure to reach rank bad's
// memory (nil when bad < 0: none failed).
func (c *Comm) directFailed(call string, bad int) error {
	if bad < 0 {
		return nil
	}
	return c.raise(errf(abi.ErrOther, call, "cannot reach the memory of rank %d", bad))
}
