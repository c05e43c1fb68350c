package mpi

import (
	"runtime"
	"unsafe"

	"gompi/abi"
	"gompi/datatype"
	"gompi/shmcoll"
)

// shmAlltoallDirect runs a blocking MPI_Alltoall too big for the shared-
// memory slots when processes outnumber cores and every process of the node
// keeps its large blocks in the shared heap: each rank writes its blocks
// straight into the other ranks' receive buffers (a plain copy into the
// peer's heap, process_vm_writev elsewhere) as soon as each has arrived,
// where the point-to-point exchange waits for each peer in turn to be
// scheduled. handled is false when the general path must take it; every
// member decides alike (size, node facts and a flag agreed once).
func (c *Comm) shmAlltoallDirect(sbuf unsafe.Pointer, scount int, stype *datatype.Type,
	rbuf unsafe.Pointer, rcount int, rtype *datatype.Type) (handled bool, err error) {
	if !st.oversub || rtype == nil || rcount < 0 || c.shmMax[shmAlltoall] < 0 ||
		rcount*rtype.Size*c.size <= c.shmMax[shmAlltoall] || !c.directReads() {
		return false, nil
	}
	n := rcount * rtype.Size
	inPlace := IsInPlace(sbuf)
	if !inPlace && (stype == nil || scount*stype.Size != n) {
		return false, nil
	}
	const call = "MPI_Alltoall"
	e := firstErr(c.checkIntra(call), c.checkNotInPlace(call, rbuf), c.checkBuf(call, rbuf, rcount*c.size, rtype))
	if !inPlace {
		e = firstErr(e, c.checkData(call, sbuf, scount*c.size, stype))
	}
	if e != nil {
		return true, c.raise(e)
	}
	var sp unsafe.Pointer
	if inPlace {
		// Peers read the send data while this rank fills rbuf: a copy.
		tmp := make([]byte, n*c.size)
		rtype.Pack(tmp, rbuf, rcount*c.size, 0)
		sp = bytePtr(tmp)
		defer runtime.KeepAlive(tmp)
	} else {
		sp = c.packed(sbuf, scount*c.size, stype)
	}
	dst, all := c.recvArea(rbuf, rtype, n*c.size)
	if err := c.directFailed(call, c.shm.AlltoallDirect(sp, dst, n, c.direct)); err != nil {
		return true, err
	}
	if all != nil {
		rtype.Unpack(rbuf, rcount*c.size, all, 0)
	}
	return true, nil
}

// directReads tells whether every member may read every other's memory,
// agreed once through shared memory the first time a large alltoall asks
// (the probe of each pair ran on its own side; all must decide alike).
func (c *Comm) directReads() bool {
	if c.shmDirect == 0 {
		c.shmDirect = -1
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
				c.shmDirect = 1
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
	return c.shmDirect > 0
}

// directFrom is, per kind, the size per rank from which a reduction goes by
// direct access when processes outnumber cores and every process keeps its
// large blocks in the shared heap (0: never). Its two synchronizations
// (addresses posted, blocks written) and copies through other processes'
// mappings cost more than the slots on smaller data. 4 ranks on 2 cores,
// medians of 6 alternating runs in the machine's fast phase, allreduce
// against the slots up to 256 KiB and Rabenseifner point to point above:
// 64 KiB 18 -> 21 us, 256 KiB 76 -> 56, 1 MiB 192 -> 153-160; so from
// 256 KiB (GOMPI_SHM_DIRECT_ALLREDUCE). Reduce from 512 KiB
// (GOMPI_SHM_DIRECT_REDUCE), each rank folding its block in scratch and
// writing it to the root once (slow phase, medians of 6 against slot-sized
// calls, where the other ranks run ahead of the root): 256 KiB 38 -> 50 us,
// 1 MiB 160-170 -> 117.
// Reduce_scatter from a whole vector of 256 KiB
// (GOMPI_SHM_DIRECT_REDUCE_SCATTER; slow phase, medians of 5 against the
// slots' pieces): 16 KiB blocks 12.7 -> 31.6 us, 64 KiB 66 -> 41, 256 KiB
// 235 -> 145, 1 MiB 1168 -> 413.
var directFrom [shmKinds]int

// useDirect tells whether a shared-memory reduction of kind k of n bytes
// per rank goes by direct access (shmcoll.Direct): only when processes
// outnumber cores, from directFrom on.
func (c *Comm) useDirect(k, n int) bool {
	return st.oversub && directFrom[k] > 0 && n >= directFrom[k] && c.directReads()
}

// useDirectFold is useShmFold for a reduction past the kind's shared-memory
// limit that still goes by direct access.
func (c *Comm) useDirectFold(m CollMode, k int, count int, dt *datatype.Type) bool {
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
